/**
 * Markdown ↔ JSON document (src/lib/markdown): CommonMark and GFM blocks, inlines and marks in
 * both directions with exact output, keys (new, unique, kept across re-imports), relative link
 * helpers, writing malformed documents, and fuzzing (reading never throws). No database needed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockNode, InlineNode, JSONDocument } from '../src/lib/documents/types.js';
import {
  documentToMarkdown,
  markdownToBody,
  markdownToDocument,
  relativeTargets,
  rewriteRelativeTargets,
  sameContent,
  withoutKeys,
} from '../src/lib/markdown/index.js';
import { block, codeBlock, doc, inlines, leaves, link, mark, p, text, url, voidBlock, type Inline } from './helpers/document-builders.js';

// ---- expected documents (keys left out; inline content as the editor keeps it) ----
const bold = mark('bold');
const italic = mark('italic');
const code = mark('code');
const strike = mark('strikethrough');
const heading = (level: 1 | 2 | 3, data: Record<string, unknown>, ...nodes: Inline[]) => block(`heading-${level}`, data, inlines(...nodes));
const item = (...nodes: BlockNode[]) => block('list-item', {}, nodes);
const task = (checked: boolean, ...nodes: BlockNode[]) => block('list-item', { checked }, nodes);
const voidInline = (type: string, data: Record<string, unknown>): InlineNode => ({ object: 'inline', type, isVoid: true, data });

const read = (markdown: string) => withoutKeys(markdownToDocument(markdown).document.nodes);

type Case = { name: string; markdown: string; blocks: BlockNode[]; written?: string };

/** Each case: the markdown reads as `blocks`, and `blocks` write as `written` (default: the markdown itself). */
const cases: Case[] = [
  { name: 'paragraph', markdown: 'Hello world', blocks: [p(text('Hello world'))] },
  { name: 'two paragraphs', markdown: 'One\n\nTwo', blocks: [p(text('One')), p(text('Two'))] },
  { name: 'soft line break (a space)', markdown: 'one\ntwo', blocks: [p(text('one two'))], written: 'one two' },
  { name: 'hard line break', markdown: 'one\\\ntwo', blocks: [p(text('one\ntwo'))] },
  { name: 'hard line break, two spaces', markdown: 'one  \ntwo', blocks: [p(text('one\ntwo'))], written: 'one\\\ntwo' },
  { name: 'bold', markdown: 'a **b** c', blocks: [p(leaves(['a '], ['b', bold], [' c']))] },
  { name: 'bold with underscores', markdown: '__b__', blocks: [p(text('b', bold))], written: '**b**' },
  { name: 'italic', markdown: 'a _b_ c', blocks: [p(leaves(['a '], ['b', italic], [' c']))] },
  { name: 'italic with a star', markdown: '*b*', blocks: [p(text('b', italic))], written: '_b_' },
  { name: 'italic inside a word', markdown: 'un*believ*able', blocks: [p(leaves(['un'], ['believ', italic], ['able']))] },
  { name: 'strikethrough', markdown: '~~gone~~', blocks: [p(text('gone', strike))] },
  { name: 'inline code', markdown: 'run `npm test` now', blocks: [p(leaves(['run '], ['npm test', code], [' now']))] },
  { name: 'inline code with a backtick', markdown: '`` a`b ``', blocks: [p(text('a`b', code))], written: '``a`b``' },
  { name: 'nested marks', markdown: '**bold _both_**', blocks: [p(leaves(['bold ', bold], ['both', bold, italic]))] },
  { name: 'code inside bold', markdown: '**`x`**', blocks: [p(text('x', bold, code))] },
  { name: 'bold and struck', markdown: '**~~x~~**', blocks: [p(text('x', bold, strike))] },
  { name: 'superscript', markdown: 'mc<sup>2</sup>', blocks: [p(leaves(['mc'], ['2', mark('superscript')]))] },
  { name: 'subscript', markdown: 'H<sub>2</sub>O', blocks: [p(leaves(['H'], ['2', mark('subscript')], ['O']))] },
  { name: 'keyboard', markdown: '<kbd>Ctrl</kbd>', blocks: [p(text('Ctrl', mark('keyboard')))] },
  { name: 'HTML bold and italic', markdown: '<strong>a</strong> <em>b</em>', blocks: [p(leaves(['a', bold], [' '], ['b', italic]))], written: '**a** _b_' },
  { name: 'escapes', markdown: '\\*not\\* 1\\. \\# \\[x]', blocks: [p(text('*not* 1. # [x]'))], written: '\\*not\\* 1. # \\[x]' },
  { name: 'escape at line start', markdown: '1\\. not a list', blocks: [p(text('1. not a list'))] },
  { name: 'entities', markdown: '&copy; &amp; &#35;', blocks: [p(text('© & #'))], written: '© & #' },
  { name: 'unknown inline HTML stays text', markdown: 'a <span>b</span>', blocks: [p(text('a <span>b</span>'))], written: 'a \\<span>b\\</span>' },
  { name: 'HTML comment dropped', markdown: 'a <!-- note --> b', blocks: [p(text('a  b'))], written: 'a  b' },
  { name: 'link', markdown: '[GitBook](https://www.gitbook.com)', blocks: [p(link(url('https://www.gitbook.com'), text('GitBook')))] },
  { name: 'relative link', markdown: 'see [setup](../guide/setup.md)', blocks: [p(text('see '), link(url('../guide/setup.md'), text('setup')))] },
  { name: 'anchor link', markdown: '[below](#details)', blocks: [p(link({ kind: 'anchor', anchor: 'details' }, text('below')))] },
  { name: 'link with formatting', markdown: '[**b** c](x.md)', blocks: [p(link(url('x.md'), leaves(['b', bold], [' c'])))] },
  { name: 'mark around a link', markdown: '_see [this](x.md)_', blocks: [p(leaves(['see ', italic]), link(url('x.md'), text('this', italic)))] },
  { name: 'link title dropped', markdown: '[a](x.md "Title")', blocks: [p(link(url('x.md'), text('a')))], written: '[a](x.md)' },
  { name: 'autolink', markdown: '<https://x.dev>', blocks: [p(link(url('https://x.dev'), text('https://x.dev')))], written: '[https://x.dev](https://x.dev)' },
  { name: 'bare URL (GFM)', markdown: 'go to https://x.dev now', blocks: [p(text('go to '), link(url('https://x.dev'), text('https://x.dev')), text(' now'))], written: 'go to [https://x.dev](https://x.dev) now' },
  { name: 'reference link', markdown: '[a][r]\n\n[r]: https://x.dev', blocks: [p(link(url('https://x.dev'), text('a')))], written: '[a](https://x.dev)' },
  { name: 'HTML link', markdown: '<a href="https://x.dev">a</a>', blocks: [p(link(url('https://x.dev'), text('a')))], written: '[a](https://x.dev)' },
  { name: 'inline image', markdown: 'an ![icon](i.png) here', blocks: [p(text('an '), voidInline('inline-image', { ref: url('i.png'), alt: 'icon' }), text(' here'))] },
  { name: 'inline math', markdown: 'area $$\\pi r^2$$ here', blocks: [p(text('area '), voidInline('inline-math', { formula: '\\pi r^2' }), text(' here'))] },
  { name: 'single dollars are text', markdown: 'costs $5 or $6', blocks: [p(text('costs $5 or $6'))] },
  { name: 'heading ##', markdown: '## Section', blocks: [heading(1, {}, text('Section'))] },
  { name: 'heading ###', markdown: '### Sub', blocks: [heading(2, {}, text('Sub'))] },
  { name: 'heading ####', markdown: '#### Minor', blocks: [heading(3, {}, text('Minor'))] },
  { name: 'heading #####', markdown: '##### Deep', blocks: [heading(3, {}, text('Deep'))], written: '#### Deep' },
  { name: 'setext heading', markdown: 'Section\n-------', blocks: [heading(1, {}, text('Section'))], written: '## Section' },
  { name: 'heading with marks', markdown: '## A `b` **c**', blocks: [heading(1, {}, leaves(['A '], ['b', code], [' '], ['c', bold]))] },
  { name: '# after the start is heading-1', markdown: 'text\n\n# Late', blocks: [p(text('text')), heading(1, {}, text('Late'))], written: 'text\n\n## Late' },
  { name: 'divider', markdown: '***', blocks: [voidBlock('divider', {})] },
  { name: 'divider with dashes', markdown: 'a\n\n---', blocks: [p(text('a')), voidBlock('divider', {})], written: 'a\n\n***' },
  { name: 'blockquote', markdown: '> quoted\n>\n> > nested', blocks: [block('blockquote', {}, [p(text('quoted')), block('blockquote', {}, [p(text('nested'))])])] },
  { name: 'unordered list', markdown: '* a\n* b', blocks: [block('list-unordered', {}, [item(p(text('a'))), item(p(text('b')))])] },
  { name: 'unordered list with dashes', markdown: '- a\n- b', blocks: [block('list-unordered', {}, [item(p(text('a'))), item(p(text('b')))])], written: '* a\n* b' },
  { name: 'ordered list', markdown: '1. a\n2. b', blocks: [block('list-ordered', {}, [item(p(text('a'))), item(p(text('b')))])] },
  { name: 'ordered list with start', markdown: '3. c\n4. d', blocks: [block('list-ordered', { start: 3 }, [item(p(text('c'))), item(p(text('d')))])] },
  { name: 'ordered list from 0', markdown: '0. z', blocks: [block('list-ordered', { start: 0 }, [item(p(text('z')))])] },
  {
    name: 'nested lists',
    markdown: '* a\n  1. b\n  2. c\n* d',
    blocks: [block('list-unordered', {}, [item(p(text('a')), block('list-ordered', {}, [item(p(text('b'))), item(p(text('c')))])), item(p(text('d')))])],
  },
  {
    name: 'list item with two paragraphs (loose)',
    markdown: '* a\n\n  more\n\n* b',
    blocks: [block('list-unordered', {}, [item(p(text('a')), p(text('more'))), item(p(text('b')))])],
  },
  { name: 'task list', markdown: '* [ ] todo\n* [x] done', blocks: [block('list-tasks', {}, [task(false, p(text('todo'))), task(true, p(text('done')))])] },
  {
    name: 'nested task list',
    markdown: '* [ ] a\n  * [x] b',
    blocks: [block('list-tasks', {}, [task(false, p(text('a')), block('list-tasks', {}, [task(true, p(text('b')))]))])],
  },
  { name: 'empty list item', markdown: '* a\n*', blocks: [block('list-unordered', {}, [item(p(text('a'))), item(p(text('')))])] },
  { name: 'fenced code', markdown: '```js\nconst a = 1;\n\nf(a);\n```', blocks: [codeBlock({ syntax: 'js' }, 'const a = 1;', '', 'f(a);')] },
  { name: 'fenced code without language', markdown: '```\nplain\n```', blocks: [codeBlock({}, 'plain')] },
  { name: 'tilde fence', markdown: '~~~py\nx\n~~~', blocks: [codeBlock({ syntax: 'py' }, 'x')], written: '```py\nx\n```' },
  { name: 'indented code', markdown: '    indented\n      more', blocks: [codeBlock({}, 'indented', '  more')], written: '```\nindented\n  more\n```' },
  { name: 'code holding a fence', markdown: '````md\n```\nx\n```\n````', blocks: [codeBlock({ syntax: 'md' }, '```', 'x', '```')] },
  { name: 'math block', markdown: '$$\nx^2 + y^2\n$$', blocks: [voidBlock('math', { formula: 'x^2 + y^2' })] },
  { name: 'image', markdown: '![A cat](cat.png)', blocks: [block('images', {}, [voidBlock('image', { ref: url('cat.png'), alt: 'A cat' }, [])])] },
  { name: 'image without alt', markdown: '![](cat.png)', blocks: [block('images', {}, [voidBlock('image', { ref: url('cat.png') }, [])])] },
  {
    name: 'two images in a paragraph',
    markdown: '![a](a.png) ![b](b.png)',
    blocks: [block('images', {}, [voidBlock('image', { ref: url('a.png'), alt: 'a' }, []), voidBlock('image', { ref: url('b.png'), alt: 'b' }, [])])],
  },
  { name: 'unknown HTML block stays text', markdown: '<div>\n*hi*\n</div>', blocks: [p(text('<div>\n*hi*\n</div>'))], written: '\\<div>\\\n\\*hi\\*\\\n\\</div>' },
  { name: 'HTML comment block dropped', markdown: 'a\n\n<!-- hidden -->\n\nb', blocks: [p(text('a')), p(text('b'))], written: 'a\n\nb' },
  { name: 'footnotes stay text', markdown: 'a[^1]\n\n[^1]: note', blocks: [p(text('a[^1]')), p(text('[^1]: note'))], written: 'a\\[^1]\n\n\\[^1]: note' },
];

describe('markdown ↔ document: CommonMark and GFM', () => {
  it.each(cases)('reads $name', ({ markdown, blocks }) => {
    expect(read(markdown)).toEqual(blocks);
  });

  it.each(cases)('writes $name', ({ markdown, blocks, written }) => {
    expect(documentToMarkdown(doc(...blocks))).toBe(`${written ?? markdown}\n`);
  });

  it('reads and writes a GFM table: column titles, alignment, cells as fragments', () => {
    const markdown = '| Name | Price |\n| :--- | ----: |\n| **A** | `1` |\n| B<br>C | |';
    const [table] = read(markdown);
    expect(table).toMatchObject({ object: 'block', type: 'table', isVoid: true });
    expect(table.data).toEqual({
      view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
      definition: {
        c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'left' },
        c2: { id: 'c2', title: 'Price', type: 'text', textAlignment: 'right' },
      },
      records: {
        r1: { orderIndex: 'a0', values: { c1: 'r1c1', c2: 'r1c2' } },
        r2: { orderIndex: 'a1', values: { c1: 'r2c1', c2: 'r2c2' } },
      },
    });
    // A cell's value is the name of the fragment that holds its content.
    expect(table.fragments).toEqual([
      { object: 'fragment', fragment: 'r1c1', nodes: [p(text('A', bold))] },
      { object: 'fragment', fragment: 'r1c2', nodes: [p(text('1', code))] },
      { object: 'fragment', fragment: 'r2c1', nodes: [p(text('B\nC'))] },
      { object: 'fragment', fragment: 'r2c2', nodes: [p(text(''))] },
    ]);
    expect(documentToMarkdown(doc(table))).toBe('| Name   | Price |\n| ------ | ----: |\n| **A**  |   `1` |\n| B<br>C |       |\n');
  });

  it('writes a table from the editor: columns in view order, rows by orderIndex, pipes escaped', () => {
    const cell = (name: string, value: string) => ({ object: 'fragment' as const, fragment: name, nodes: [p(text(value))] });
    const table = voidBlock(
      'table',
      {
        view: { type: 'grid', columns: ['y', 'x'], hideHeader: false },
        definition: { x: { id: 'x', title: 'X', type: 'text', textAlignment: 'center' }, y: { id: 'y', title: 'Y', type: 'text', textAlignment: 'left' } },
        records: { second: { orderIndex: 'a1', values: { x: 'f3', y: 'f4' } }, first: { orderIndex: 'a0', values: { x: 'f1', y: 'f2' } } },
      },
      [cell('f1', 'a|b'), cell('f2', 'one'), cell('f3', 'c'), cell('f4', 'two')],
    );
    expect(documentToMarkdown(doc(table))).toBe('| Y   |   X  |\n| --- | :--: |\n| one | a\\|b |\n| two |   c  |\n');
  });

  it('reads the title from a # heading at the start, and writes it back', () => {
    const page = markdownToDocument('# My page\n\nBody');
    expect(page.title).toBe('My page');
    expect(withoutKeys(page.document)).toEqual(doc(p(text('Body'))));
    expect(documentToMarkdown(page.document, { title: page.title })).toBe('# My page\n\nBody\n');
    expect(markdownToDocument('## Not a title').title).toBeUndefined();
  });

  it('reads setext and formatted titles as plain text', () => {
    expect(markdownToDocument('My *page*\n===\n\nx').title).toBe('My page');
  });

  it('writes spaces and breaks at the edges of bold and italic outside them', () => {
    expect(documentToMarkdown(doc(p(leaves(['a ', bold], ['b'], [' c\n', italic], ['d']))))).toBe('**a** b _c_\\\nd\n');
  });

  it('writes the inlines the markdown cannot say: emoji, mentions, unknown inlines', () => {
    const document = doc(
      p(
        text('hi '),
        voidInline('emoji', { code: '1f600' }),
        text(' '),
        voidInline('mention', { ref: { kind: 'page', page: 'pg1' } }),
        text(' '),
        { object: 'inline', type: 'annotation', isVoid: false, data: {}, nodes: [text('noted')] },
      ),
    );
    expect(documentToMarkdown(document, { resolvePage: () => 'other.md' })).toBe('hi 😀 [other.md](other.md) noted\n');
  });
});

describe('markdown ↔ document: references', () => {
  const page = (...nodes: Inline[]) => doc(p(...nodes));

  it('writes page, anchor and file references with the resolvers, else their ids', () => {
    const document = page(
      link({ kind: 'page', page: 'p1' }, text('a')),
      text(' '),
      link({ kind: 'anchor', anchor: 'x', page: 'p1' }, text('b')),
      text(' '),
      link({ kind: 'page', page: 'p2' }, text('c')),
      text(' '),
      link({ kind: 'file', file: 'f1' }, text('d')),
    );
    const options = { resolvePage: (id: string) => (id === 'p1' ? '../one.md' : undefined), resolveFile: () => '.gitbook/assets/d.pdf' };
    expect(documentToMarkdown(document, options)).toBe('[a](../one.md) [b](../one.md#x) [c](p2) [d](.gitbook/assets/d.pdf)\n');
  });

  it('lists the relative targets of a document and rewrites them', () => {
    const { document } = markdownToDocument(
      ['[a](one.md) [b](one.md#sec) [c](https://x.dev) [d](#local) ![e](img/e.png)', '', '{% content-ref url="two.md" %}\n[two.md](two.md)\n{% endcontent-ref %}'].join('\n'),
    );
    expect(relativeTargets(document)).toEqual([
      { url: 'one.md', usedBy: ['link'] },
      { url: 'one.md#sec', usedBy: ['link'] },
      { url: 'img/e.png', usedBy: ['inline-image'] },
      { url: 'two.md', usedBy: ['content-ref'] },
    ]);
    const rewritten = rewriteRelativeTargets(document, new Map([['one.md', { kind: 'page', page: 'P1' }], ['two.md', { kind: 'page', page: 'P2' }]]));
    const refs = JSON.stringify(rewritten).match(/"ref":\{[^}]*\}/g);
    expect(refs).toEqual([
      '"ref":{"kind":"page","page":"P1"}',
      '"ref":{"kind":"anchor","anchor":"sec","page":"P1"}',
      '"ref":{"kind":"url","url":"https://x.dev"}',
      '"ref":{"kind":"anchor","anchor":"local"}',
      '"ref":{"kind":"url","url":"img/e.png"}',
      '"ref":{"kind":"page","page":"P2"}',
    ]);
    expect(relativeTargets(rewritten)).toEqual([{ url: 'img/e.png', usedBy: ['inline-image'] }]);
    // The original is left as it was.
    expect(relativeTargets(document)).toHaveLength(4);
  });
});

/** Every key of blocks, inlines and fragments, in document order. */
function keysOf(document: JSONDocument): (string | undefined)[] {
  const keys: (string | undefined)[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.object === 'block' || n.object === 'inline' || n.object === 'fragment') keys.push(n.key as string | undefined);
    for (const child of [...((n.nodes as unknown[]) ?? []), ...((n.fragments as unknown[]) ?? [])]) walk(child);
  };
  document.nodes.forEach(walk);
  return keys;
}

describe('markdown → document: keys', () => {
  const page = [
    '# Guide',
    '',
    'Intro paragraph.',
    '',
    '{% hint style="info" %}',
    'First hint paragraph.',
    '',
    'Second hint paragraph.',
    '{% endhint %}',
    '',
    '* one',
    '* two',
    '',
    'Closing paragraph.',
  ].join('\n');

  it('gives every block, inline and fragment a unique key', () => {
    const { document } = markdownToDocument('[a](x.md) and $$x$$\n\n| a |\n| - |\n| b |\n\n<details>\n\n<summary>S</summary>\n\nBody\n\n</details>');
    const keys = keysOf(document);
    expect(keys.length).toBeGreaterThan(8);
    expect(keys.every((k) => typeof k === 'string' && k.length === 10)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the keys of unchanged blocks on re-import; the changed block gets a new key', () => {
    const before = markdownToDocument(page).document;
    const after = markdownToDocument(page.replace('Closing paragraph.', 'Closing paragraph, edited.'), { previous: before }).document;
    const [intro, hint, list, closing] = after.nodes;
    expect(intro.key).toBe(before.nodes[0].key);
    expect(hint.key).toBe(before.nodes[1].key);
    expect(hint.nodes!.map((n) => (n as BlockNode).key)).toEqual(before.nodes[1].nodes!.map((n) => (n as BlockNode).key));
    expect(list.key).toBe(before.nodes[2].key);
    expect(keysOf(doc(list))).toEqual(keysOf(doc(before.nodes[2])));
    expect(closing.key).not.toBe(before.nodes[3].key);
    const keys = keysOf(after);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('inside a changed container, only the changed child gets a new key', () => {
    const before = markdownToDocument(page).document;
    const after = markdownToDocument(page.replace('Second hint paragraph.', 'Second hint paragraph, edited.'), { previous: before }).document;
    const [hintBefore, hintAfter] = [before.nodes[1], after.nodes[1]];
    expect(hintAfter.key).toBe(hintBefore.key);
    expect((hintAfter.nodes![0] as BlockNode).key).toBe((hintBefore.nodes![0] as BlockNode).key);
    expect((hintAfter.nodes![1] as BlockNode).key).not.toBe((hintBefore.nodes![1] as BlockNode).key);
    expect(after.nodes[0].key).toBe(before.nodes[0].key);
    expect(after.nodes[3].key).toBe(before.nodes[3].key);
  });

  it('follows moved blocks, and keeps what markdown cannot carry when a block is unchanged', () => {
    const before = markdownToDocument('A\n\nB\n\n```js\nx\n```').document;
    (before.nodes[2].nodes![0] as BlockNode).data = { highlighted: true };
    const after = markdownToDocument('B\n\n```js\nx\n```\n\nA', { previous: before }).document;
    expect(after.nodes.map((n) => n.key)).toEqual([before.nodes[1].key, before.nodes[2].key, before.nodes[0].key]);
    expect((after.nodes[1].nodes![0] as BlockNode).data).toEqual({ highlighted: true });
  });

  it('matches links already resolved to pages when given the resolver', () => {
    const before = markdownToDocument('See [setup](setup.md).\n\nOther.').document;
    const resolved = rewriteRelativeTargets(before, { 'setup.md': { kind: 'page', page: 'P9' } });
    const after = markdownToDocument('See [setup](setup.md).\n\nOther, edited.', { previous: resolved, resolvePage: (id) => (id === 'P9' ? 'setup.md' : undefined) }).document;
    expect(after.nodes[0]).toEqual(resolved.nodes[0]);
    expect(after.nodes[1].key).not.toBe(resolved.nodes[1].key);
  });

  it('survives a malformed previous document', () => {
    const previous = { object: 'document', data: {}, nodes: [null, { object: 'block', type: 'paragraph', key: 'dup' }, { object: 'block', key: 'dup' }] } as unknown as JSONDocument;
    const { document } = markdownToDocument('a\n\nb', { previous });
    expect(withoutKeys(document)).toEqual(doc(p(text('a')), p(text('b'))));
    expect(new Set(keysOf(document)).size).toBe(2);
  });
});

describe('document → markdown: defensive', () => {
  it('writes unknown blocks as their content, skips unknown voids, never throws on malformed nodes', () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'callout-v9', data: null, nodes: [text('plain content', mark('glow'))] },
        { object: 'block', type: 'openapi-operation', isVoid: true, data: { spec: 'x' } },
        { object: 'block', type: 'wrapper', nodes: [p(text('inner'))] },
        { object: 'block', type: 'paragraph', nodes: 'not a list' },
        null,
        42,
        { object: 'block', type: 'heading-1' },
        { object: 'block', type: 'list-ordered', data: { start: 'x' }, nodes: [p(text('not an item'))] },
        { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns: ['a'] }, definition: { a: { id: 'a', title: 'A', type: 'text' } }, records: { r: { orderIndex: 'a0', values: { a: 'direct text' } } } } },
        { object: 'block', type: 'code', data: { syntax: 'js', highlighted: 1 }, nodes: [{ object: 'block', type: 'code-line', nodes: [{ object: 'text', leaves: [{ text: 'x()', marks: null }] }] }] },
      ],
    } as unknown as JSONDocument;
    expect(documentToMarkdown(document)).toBe('plain content\n\ninner\n\n##\n\n1. not an item\n\n| A           |\n| ----------- |\n| direct text |\n\n```js\nx()\n```\n');
  });

  it('writes a document that is not one at all as an empty page', () => {
    expect(documentToMarkdown({} as JSONDocument)).toBe('\n');
    expect(documentToMarkdown({ object: 'document', data: {}, nodes: [] }, { title: 'T' })).toBe('# T\n');
  });

  it('escapes text that would read as markup', () => {
    const document = doc(p(text('{% hint style="info" %} <details> $$x$$ * [a](b) <mark>')));
    const markdown = documentToMarkdown(document);
    expect(markdown).toBe('\\{% hint style="info" %} \\<details> \\$$x\\$$ \\* \\[a]\\(b) \\<mark>\n');
    expect(sameContent(markdownToDocument(markdown).document, document)).toBe(true);
  });
});

// ---- fuzzing ----
const PIECES = [
  '{% hint style="info" %}', '{% endhint %}', '{% tabs %}', '{% tab title="x" %}', '{% endtab %}', '{% endtabs %}', '{% code title="a" %}',
  '{% endcode %}', '{% embed url="x" %}', '{% file src="f" %}', '{% endfile %}', '{% content-ref url="x.md" %}', '{% endcontent-ref %}',
  '{% include "x.md" %}', '{% stepper %}', '{% step %}', '```', '```js', '~~~', '$$', '$', '<details>', '<summary>x</summary>', '</details>',
  '<figure><img src="a.png" alt=""><figcaption><p>c</p></figcaption></figure>', '<mark style="color:red;">', '</mark>', '<sup>', '</sup>',
  '<br>', '<a href="x">', '</a>', '<div>', '<!-- c -->', '* ', '- ', '1. ', '3) ', '> ', '[ ] ', '[x] ', '| a | b |', '| - | - |', '---',
  '***', '# ', '## ', '#### ', '**', '__', '_', '*', '`', '~~', '[a](b.md)', '![i](x.png)', '[^1]', '[^1]: n', '[r]: /u', '[r]',
  'www.x.com', 'http://y.org', '\n', '\n', '\n\n', ' ', '  ', '    ', '\t', 'text', 'word', '&amp;', '&#x20;', '\\', '[', ']', '(', ')',
  '<', '>', '{%', '%}', ':', '!', '|', 'é', '😀',
];
const dialectish = fc.array(fc.constantFrom(...PIECES), { maxLength: 50 }).map((parts) => parts.join(''));
const anyText = fc.string({ unit: 'binary', maxLength: 200 });

describe('markdown → document: fuzz', () => {
  it('never throws, and every block and inline has a unique key', () => {
    fc.assert(
      fc.property(fc.oneof(dialectish, anyText), (markdown) => {
        const page = markdownToDocument(markdown);
        expect(page.document.object).toBe('document');
        const keys = keysOf(page.document);
        expect(keys.every((k) => typeof k === 'string')).toBe(true);
        expect(new Set(keys).size).toBe(keys.length);
        expect(typeof documentToMarkdown(page.document, page)).toBe('string');
      }),
      { numRuns: 1500 },
    );
  });

  it('writing is stable after one pass (fixed seed)', () => {
    fc.assert(
      fc.property(fc.oneof(dialectish, anyText), (markdown) => {
        const first = markdownToDocument(markdown);
        const once = documentToMarkdown(first.document, first);
        const second = markdownToDocument(once);
        const twice = documentToMarkdown(second.document, second);
        expect(twice).toBe(once);
        expect(sameContent(markdownToDocument(twice).document, second.document)).toBe(true);
      }),
      { numRuns: 1500, seed: 20240611 },
    );
  });

  it('does not throw on pathological nesting, and stays fast', () => {
    const inputs = [
      '>'.repeat(20_000) + ' x',
      Array.from({ length: 1000 }, (_, i) => '  '.repeat(i) + '* x').join('\n'),
      '* '.repeat(5000) + 'x',
      '> * '.repeat(3000) + 'x',
      '{% hint style="info" %}\n'.repeat(3000) + 'x',
      '<details>\n\n'.repeat(2000) + 'x',
      '{% tabs %}'.repeat(3000),
      '`'.repeat(30_000),
    ];
    for (const input of inputs) {
      const started = Date.now();
      const page = markdownToDocument(input);
      documentToMarkdown(page.document, page);
      // remark itself needs ~1 s for 1000 deeply nested lines; the point is: no hang, no throw.
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });

  it('documentToMarkdown never throws on arbitrary documents', () => {
    const types = ['paragraph', 'heading-1', 'heading-2', 'list-ordered', 'list-item', 'list-tasks', 'code', 'code-line', 'hint', 'tabs', 'tabs-item', 'images', 'image', 'table', 'expandable', 'math', 'embed', 'file', 'content-ref', 'mystery'];
    const leaf = fc.record({ object: fc.constant('leaf'), text: fc.string(), marks: fc.array(fc.record({ object: fc.constant('mark'), type: fc.constantFrom('bold', 'italic', 'code', 'color', 'keyboard', 'weird'), data: fc.option(fc.dictionary(fc.string(), fc.string()), { nil: undefined }) }), { maxLength: 3 }) });
    const { node } = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.record({ object: fc.constant('text'), leaves: fc.array(leaf, { maxLength: 3 }) }),
        fc.record({
          object: fc.constantFrom('block', 'inline'),
          type: fc.constantFrom(...types, 'link', 'inline-math', 'emoji'),
          data: fc.oneof(fc.constant(undefined), fc.anything(), fc.record({ ref: fc.anything(), style: fc.string(), title: fc.string(), formula: fc.string(), url: fc.string() })),
          isVoid: fc.boolean(),
          nodes: fc.oneof(fc.constant(undefined), fc.array(tie('node'), { maxLength: 4 })),
          fragments: fc.oneof(fc.constant(undefined), fc.array(fc.record({ object: fc.constant('fragment'), fragment: fc.constantFrom('caption', 'expandable-title', 'expandable-body', 'x'), nodes: fc.array(tie('node'), { maxLength: 3 }) }), { maxLength: 2 })),
        }),
        fc.anything(),
      ),
    }));
    fc.assert(
      fc.property(fc.array(node, { maxLength: 6 }), (nodes) => {
        const markdown = documentToMarkdown({ object: 'document', data: {}, nodes } as unknown as JSONDocument);
        expect(typeof markdown).toBe('string');
        markdownToDocument(markdown);
      }),
      { numRuns: 500 },
    );
  });
});

describe('markdown that is not a page', () => {
  it('keeps a leading # heading in the document (review comments, descriptions)', () => {
    const body = markdownToBody('# Looks good\n\nBut see **this**.');
    expect(body.nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph']);
    expect(JSON.stringify(body.nodes[0])).toContain('Looks good');
    expect(body.nodes.every((n) => typeof n.key === 'string')).toBe(true);
    expect(markdownToBody('Just text.').nodes.map((n) => n.type)).toEqual(['paragraph']);
  });
});
