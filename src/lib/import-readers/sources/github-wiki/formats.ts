/**
 * The markup formats a wiki's pages may be written in (Gollum's, which GitHub wikis use), by file
 * extension. Markdown is read as it is and AsciiDoc converted (asciidoctor, through HTML); the
 * others have no maintained converter to markdown on npm and are kept as a code block, reported.
 */
export type WikiFormat = 'markdown' | 'asciidoc' | 'rst' | 'textile' | 'mediawiki' | 'org' | 'creole' | 'rdoc' | 'pod';

const FORMATS: Record<string, WikiFormat> = {
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkdn: 'markdown',
  mkd: 'markdown',
  asciidoc: 'asciidoc',
  adoc: 'asciidoc',
  asc: 'asciidoc',
  rst: 'rst',
  rest: 'rst',
  textile: 'textile',
  mediawiki: 'mediawiki',
  wiki: 'mediawiki',
  org: 'org',
  creole: 'creole',
  rdoc: 'rdoc',
  pod: 'pod',
};

/** The language a code block of a format's text is marked with. */
export const CODE_LANGUAGE: Record<WikiFormat, string> = {
  markdown: 'markdown',
  asciidoc: 'asciidoc',
  rst: 'rst',
  textile: 'textile',
  mediawiki: 'mediawiki',
  org: 'org',
  creole: 'text',
  rdoc: 'text',
  pod: 'perl',
};

export function formatOf(path: string): WikiFormat | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(FORMATS, extension) ? FORMATS[extension] : undefined;
}

/** A page's name: its file name without the extension (`Getting-Started`). */
export function pageName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** How links name a page, compared: case, `-`, `_` and spaces ignored as Gollum does. */
export const nameKey = (name: string) => name.trim().toLowerCase().replace(/[-\s_]+/g, '-');

/** `Getting-Started` → `Getting Started` (GitHub shows a page's name with spaces). */
export const titleOfName = (name: string) => name.replace(/-/g, ' ').trim() || name;
