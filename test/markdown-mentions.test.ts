/**
 * User mentions in markdown: the writer writes a mention of a user as a link to
 * `mention:<userId>` (`[@usr_1](mention:usr_1)`, `<a href="mention:usr_1">` where the dialect
 * writes HTML), and the reader reads such a link back as the mention, so a document's mentions
 * survive a round trip, and a comment written in markdown can mention someone.
 */
import { describe, expect, it } from 'vitest';
import type { InlineNode } from '../src/lib/documents/types.js';
import { mentionedUsers } from '../src/lib/documents/mentions.js';
import { documentToMarkdown, markdownToBody, markdownToDocument, withoutKeys } from '../src/lib/markdown/index.js';
import { block, doc, fragment, link, p, text, url, voidBlock } from './helpers/document-builders.js';

const mention = (ref: Record<string, unknown>): InlineNode => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref } });
const user = (id: string) => mention({ kind: 'user', user: id });
const read = (markdown: string) => withoutKeys(markdownToDocument(markdown).document.nodes);

describe('markdown ↔ document: user mentions', () => {
  it('writes a user mention as a link to mention:<userId>, and reads it back as the mention', () => {
    const document = doc(p(text('Ping '), user('usr_Ann1'), text(' and '), user('usr_Bob-2'), text('.')));
    const markdown = documentToMarkdown(document);
    expect(markdown).toBe('Ping [@usr_Ann1](mention:usr_Ann1) and [@usr_Bob-2](mention:usr_Bob-2).\n');
    expect(read(markdown)).toEqual(document.nodes);
  });

  it('survives a round trip in a table cell and an image caption (written as HTML there)', () => {
    const document = doc(
      voidBlock(
        'table',
        {
          view: { type: 'grid', columns: ['c1'], hideHeader: false },
          records: { r1: { orderIndex: 'a0', values: { c1: 'r1c1' } } },
          definition: { c1: { id: 'c1', title: 'Who', type: 'text', textAlignment: 'left' } },
        },
        [fragment('r1c1', [p(text('Owner: '), user('usr_1'))])],
      ),
      block('images', {}, [voidBlock('image', { ref: url('a.png') }, [fragment('caption', [p(text('by '), user('usr_2'))])])]),
    );
    const markdown = documentToMarkdown(document);
    expect(markdown).toContain('| Owner: [@usr_1](mention:usr_1) |');
    expect(markdown).toContain('<figcaption><p>by <a href="mention:usr_2">@usr_2</a></p></figcaption>');
    expect(read(markdown)).toEqual(document.nodes);
  });

  it('reads any text of a mention link, and an HTML anchor, as the mention alone', () => {
    expect(read('Hi [Ann Smith](mention:usr_1), <a href="mention:usr_2">Bob</a>!\n')).toEqual([p(text('Hi '), user('usr_1'), text(', '), user('usr_2'), text('!'))]);
  });

  it('a mention: URL without a user ID stays a link', () => {
    expect(read('[a](mention:) [b](mention:a%20b) [c](mention:../x)\n')).toEqual([
      p(link(url('mention:'), text('a')), text(' '), link(url('mention:a%20b'), text('b')), text(' '), link(url('mention:../x'), text('c'))),
    ]);
  });

  it('mentions of pages are still written as links to the page, and read back as links', () => {
    const markdown = documentToMarkdown(doc(p(mention({ kind: 'page', page: 'pg1' }))), { resolvePage: () => 'other.md' });
    expect(markdown).toBe('[other.md](other.md)\n');
    expect(read(markdown)).toEqual([p(link(url('other.md'), text('other.md')))]);
  });

  it('a comment body written in markdown mentions the users it links to', () => {
    const body = markdownToBody('# Review\n\n[@usr_1](mention:usr_1), can you check [this](https://example.com) with <a href="mention:usr_2">Bob</a>?');
    expect(mentionedUsers(body)).toEqual(['usr_1', 'usr_2']);
  });
});
