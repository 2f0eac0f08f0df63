/** A page file of the archive: which files are pages, their markdown, and their titles. */
import { readFrontMatter } from '../../markdown/front-matter.js';
import { htmlToMarkdown } from '../html/to-markdown.js';
import { extensionOf } from './archive-path.js';
import { HTML_EXTENSIONS } from './page-names.js';

export { hasPageExtension, isFolderPage, isPagePath, titleFromName } from './page-names.js';

export type PageContent = { markdown: string; title?: string };

/** Text files are read as UTF-8, without a byte order mark. */
export const decodeText = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');

/** The page's markdown (UTF-8, BOM removed; HTML converted) and its title when the markdown has none. */
export function readPageContent(path: string, bytes: Uint8Array, fallbackTitle: string): PageContent {
  const text = decodeText(bytes);
  if (!HTML_EXTENSIONS.has(extensionOf(path))) return withTitle(text, fallbackTitle);
  const html = htmlToMarkdown(text);
  return withTitle(html.markdown, html.title?.trim() || fallbackTitle);
}

/**
 * A markdown page's content whose body is read again from the archive each time it is asked for
 * (`reread(path)`): the import holds its title, not its text, until its batch is converted. An
 * HTML page is converted once, here. The getter is made here, not by the caller, so that it
 * keeps only `path` and `reread` alive (a closure keeps its whole scope: a caller's would hold
 * the map of every page's bytes).
 */
export function lazyPageContent(path: string, bytes: Uint8Array, fallbackTitle: string, reread: (path: string) => Uint8Array): PageContent {
  const read = readPageContent(path, bytes, fallbackTitle);
  if (HTML_EXTENSIONS.has(extensionOf(path))) return read;
  return bodyReadAgain(read.title, path, reread);
}

const bodyReadAgain = (title: string | undefined, path: string, reread: (path: string) => Uint8Array): PageContent =>
  Object.defineProperty(title !== undefined ? { title } : {}, 'markdown', { get: () => decodeText(reread(path)), enumerable: true }) as PageContent;

/** `page` with `content`'s body: as it is, a value or read when asked for (lazyPageContent). */
export const withBody = <P extends object>(page: P, content: PageContent): P & { markdown: string } =>
  Object.defineProperty(page, 'markdown', Object.getOwnPropertyDescriptor(content, 'markdown')!) as P & { markdown: string };

// The reader takes a leading `#` heading as the title; a title given beside it would be ignored.
const withTitle = (markdown: string, title: string): PageContent => (startsWithHeading(markdown) ? { markdown } : { markdown, title });


/**
 * Whether the markdown starts (after front matter and blank lines) with a level-1 heading, ATX
 * (`# Title`) or setext (`Title` over `===`): what markdownToDocument takes as the title.
 */
export function startsWithHeading(markdown: string): boolean {
  let text = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const frontMatter = /^---\n([\s\S]*?\n)?---[ \t]*(?:\n|$)/.exec(text);
  // As in the reader: YAML that is not a mapping is not front matter.
  if (frontMatter && readFrontMatter(frontMatter[1] ?? '') !== null) text = text.slice(frontMatter[0].length);
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && lines[i].trim() === '') i++;
  const first = lines[i] ?? '';
  if (/^ {0,3}#(?:[ \t]|$)/.test(first)) return true;
  // A setext heading's text is a paragraph line: not indented code, a list, a quote or a block tag.
  return /^ {0,3}[^\s>*+\-#|`~{<]/.test(first) && !/^ {0,3}\d+[.)](?:\s|$)/.test(first) && /^ {0,3}=+[ \t]*$/.test(lines[i + 1] ?? '');
}
