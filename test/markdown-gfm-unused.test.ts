/**
 * A text parsed without the GFM parts it cannot contain (src/lib/markdown/gfm-unused.ts) gives the
 * tree remark-gfm's full parser gives, positions included: the dialect's fixture pages and a few
 * near misses, with the characters autolink literals and tables need taken out so that the lean
 * parsers read them. No database needed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { gfmUnused } from '../src/lib/markdown/gfm-unused.js';
import remarkMath from '../src/lib/markdown/remark-math.js';
import { parsePageMdast } from '../src/lib/markdown/remark.js';

const full = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).use(remarkMath, { singleDollarTextMath: false }).freeze();

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'markdown-dialect');
const pages = readdirSync(fixtures).map((name) => readFileSync(path.join(fixtures, name), 'utf8'));
const nearMisses = [
  'ww.example.com and htp://example.com, example dot com, user at example.com',
  'a\n-\n\nb\n: -\n\nc\n- :\n\n* item\n  - nested\n\n---\n\nText  \nwith a hard break and_intra_word_ emphasis *here*.',
  '# Title\n\n> quote with `code` and [a link](./page.md "t") and ![image](./a.png)\n\n1. one\n2. two\n\n~~struck~~ [^1]\n\n[^1]: a note\n\n- [ ] task\n- [x] done\n',
];

const withoutEmails = (text: string) => text.replace(/@/g, ' ');
const withoutAutolinks = (text: string) => withoutEmails(text).replace(/&/g, ' ').replace(/http/gi, 'htp').replace(/www/gi, 'ww');
const withoutTables = (text: string) => text.replace(/\|/g, '!').replace(/:-/g, ': -').replace(/-:/g, '- :');

describe('GFM parts a text cannot contain', () => {
  const texts = [...pages, ...nearMisses].flatMap((text) => [withoutEmails(text), withoutAutolinks(text), withoutTables(text), withoutTables(withoutAutolinks(text))]);
  const lean = (text: string) => Object.values(gfmUnused(text)).every(Boolean);

  it('are left out for texts without their characters, and kept otherwise', () => {
    const all = { emailAutolink: true, wwwAutolink: true, protocolAutolink: true, table: true, autolinkTransform: true };
    expect(gfmUnused(nearMisses[0]!)).toEqual(all);
    expect(gfmUnused('see www.example.com')).toEqual({ ...all, wwwAutolink: false, autolinkTransform: false });
    expect(gfmUnused('see https://example.com')).toEqual({ ...all, protocolAutolink: false, autolinkTransform: false });
    expect(gfmUnused('a &#64; b')).toEqual({ ...all, autolinkTransform: false });
    expect(gfmUnused('a\n:-')).toEqual({ ...all, table: false });
    expect(texts.filter(lean).length).toBeGreaterThanOrEqual(pages.length);
    // Fixture pages with URLs but no email: read without the email syntax only.
    expect(pages.map(withoutEmails).filter((t) => gfmUnused(t).emailAutolink && !gfmUnused(t).autolinkTransform).length).toBeGreaterThan(0);
  });

  it('parse to the tree of the full parser', () => {
    for (const text of texts) expect(parsePageMdast(text)).toEqual(full.parse(text));
  });
});
