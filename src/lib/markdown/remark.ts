/**
 * The remark processors: parsers for a page (front matter read) and for the bodies of tags and
 * HTML parts (no front matter there), each without the GFM parts its text cannot contain
 * (gfm-unused.ts), and the writer configured for the dialect (`*` bullets, `_` italics, `***`
 * rules, fenced code, `$$` math).
 */
import type { Emphasis, Parents, Root } from 'mdast';
import { defaultHandlers, type Info, type State } from 'mdast-util-to-markdown';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from './remark-math.js';
import remarkGfmUnused, { gfmUnused } from './gfm-unused.js';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified, type Processor } from 'unified';

/** A loosely typed mdast node: the converters read fields defensively. */
export type MdNode = {
  type: string;
  value?: string;
  children?: MdNode[];
  url?: string;
  alt?: string | null;
  title?: string | null;
  depth?: number;
  ordered?: boolean | null;
  start?: number | null;
  checked?: boolean | null;
  spread?: boolean | null;
  lang?: string | null;
  meta?: string | null;
  identifier?: string;
  label?: string | null;
  align?: (string | null)[] | null;
  data?: Record<string, unknown>;
};

// `$x$` stays text: the dialect writes math with `$$`, and prices are common in docs.
const math = { singleDollarTextMath: false };

/** A parser per kind and per GFM parts its texts cannot contain (gfm-unused.ts), made on first use. */
const parsers = new Map<string, Processor<Root>>();

function parserFor(page: boolean, text: string): Processor<Root> {
  const unused = gfmUnused(text);
  const key = `${page}:${Object.values(unused).join()}`;
  let parser = parsers.get(key);
  if (!parser) {
    const base = page ? unified().use(remarkParse).use(remarkFrontmatter, ['yaml']) : unified().use(remarkParse);
    parser = base.use(remarkGfm).use(remarkMath, math).use(remarkGfmUnused, unused).freeze() as unknown as Processor<Root>;
    parsers.set(key, parser);
  }
  return parser;
}

export const parsePageMdast = (text: string): MdNode => parserFor(true, text).parse(text) as unknown as MdNode;
export const parseBodyMdast = (text: string): MdNode => parserFor(false, text).parse(text) as unknown as MdNode;

type Attention = (node: Emphasis, state: State) => { construct: string; markers: string[]; sizes: number[] };
const defaultEmphasis = defaultHandlers.emphasis as typeof defaultHandlers.emphasis & { attention: Attention; peek: (...args: unknown[]) => string };

/**
 * `_` cannot open or close emphasis inside a word (`foo_bar_`, `foo**_bar_**baz`): emphasis the
 * inline writer flagged as touching a word prefers `*` there. The handler keeps remark's own
 * attention algorithm (which checks every delimiter run and escapes what it must). `attention`
 * and `peek` are properties of the built-in handler (mdast-util-to-markdown 2.2), not documented
 * API: without them the built-in handler is used, which writes `_` with character references.
 */
const emphasis = Object.assign((...args: Parameters<typeof defaultHandlers.emphasis>) => defaultEmphasis(...args), {
  attention: (node: Emphasis, state: State) => {
    const attention = defaultEmphasis.attention(node, state);
    return node.data && (node.data as Record<string, unknown>).intraword ? { ...attention, markers: ['*', '_'] } : attention;
  },
  peek: (node: Emphasis, parent: Parents | undefined, state: State, info: Info) =>
    node.data && (node.data as Record<string, unknown>).intraword ? '*' : defaultEmphasis.peek(node, parent, state, info),
});

const writer = unified()
  .use(remarkStringify, {
    bullet: '*',
    bulletOrdered: '.',
    emphasis: '_',
    strong: '*',
    rule: '*',
    fence: '`',
    fences: true,
    listItemIndent: 'one',
    incrementListMarker: true,
    resourceLink: true,
    // `{%` at the start of a line would read as a tag: escape it everywhere.
    unsafe: [{ character: '{', after: '%' }],
    handlers: typeof defaultEmphasis.attention === 'function' ? { emphasis } : {},
  })
  .use(remarkGfm)
  .use(remarkMath, math)
  .freeze();

/** Markdown for some flow nodes, without the final newline. */
export const stringifyMdast = (children: MdNode[]): string =>
  writer.stringify({ type: 'root', children } as unknown as Root).replace(/\n+$/, '');
