/**
 * Links of a wiki's pages. GitHub serves every page at `/wiki/<Page-Name>` whatever folder its
 * file sits in, so pages link to each other by name: Gollum's wiki links (`[[Page Name]]`,
 * `[[Link text|Page Name]]`, `[[Page Name#Anchor]]`, images as `[[images/a.png|alt=Logo]]`),
 * relative links (`Page-Name`, `Page-Name.md`, `images/a.png`, against the wiki's root or the
 * page's folder) and absolute ones to the wiki's web pages or raw files. Each that names a page or
 * file of the wiki is rewritten to that entry's own source (`/` + its encoded path); a wiki link
 * naming nothing becomes its text. Code (fenced blocks, inline spans) is left as written.
 */
import { resolveInArchive } from '../../zip/archive-path.js';
import { isImagePath } from '../../zip/files.js';
import { encodePath } from '../notion/names.js';
import { INLINE_LINK } from '../notion/links.js';
import { formatOf, nameKey, pageName } from './formats.js';

export type WikiTargets = {
  /** Page files by nameKey of their name (the first of a name wins). */
  pagesByName: Map<string, string>;
  /** Every page and file path of the import. */
  paths: Set<string>;
  /** From wikiLocation: prefixes of absolute URLs into the wiki, lower case. */
  webBases: string[];
};

const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A path of the wiki, or a page named by its last segment (any page extension or `.html` left off). */
function lookup(path: string, targets: WikiTargets): string | undefined {
  if (targets.paths.has(path)) return path;
  const last = path.slice(path.lastIndexOf('/') + 1);
  const name = formatOf(last) || /\.html?$/i.test(last) ? pageName(last) : last;
  return name ? targets.pagesByName.get(nameKey(name)) : undefined;
}

/** The wiki's path `href` (written in the page at `from`) names, if any, and its fragment. */
export function resolveWikiHref(href: string, from: string, targets: WikiTargets): { path: string; hash: string } | undefined {
  const trimmed = href.trim();
  const hashAt = trimmed.indexOf('#');
  const hash = hashAt >= 0 ? trimmed.slice(hashAt) : '';
  const bare = hashAt >= 0 ? trimmed.slice(0, hashAt) : trimmed;
  if (bare === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(bare) || bare.startsWith('//')) {
    const lower = bare.toLowerCase();
    const base = targets.webBases.find((prefix) => lower.startsWith(prefix));
    if (!base) return undefined;
    const rest = decode(bare.slice(base.length).split('?')[0]);
    const path = rest === '' ? targets.pagesByName.get('home') : lookup(rest, targets);
    return path === undefined ? undefined : { path, hash };
  }
  const folder = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  for (const candidate of [resolveInArchive('', bare.replace(/^\.\//, '')), resolveInArchive(from, bare), resolveInArchive(folder, bare)]) {
    const path = candidate === undefined ? undefined : lookup(candidate, targets);
    if (path !== undefined) return { path, hash };
  }
  return undefined;
}

const target = (path: string, hash: string) => `/${encodePath(path)}${hash}`;

/** Gollum's anchors: `#Section Title` → `#section-title`. */
const anchor = (hash: string) => (hash ? `#${hash.slice(1).trim().toLowerCase().replace(/\s+/g, '-')}` : '');

const escapeText = (text: string) => text.replace(/[[\]\\]/g, '\\$&');

export type WikiLinkSyntax = 'markdown' | 'asciidoc';

/**
 * `[[…]]` → a link (or image) in `syntax`. Unresolved: the text in markdown; left as written in
 * AsciiDoc (where `[[id]]` is also an anchor).
 */
export function convertWikiLinks(text: string, from: string, targets: WikiTargets, syntax: WikiLinkSyntax): string {
  return text.replace(/\[\[([^\]\n]{1,500})\]\]/g, (whole, inner: string) => {
    const parts = inner.split('|').map((part) => part.trim());
    const options = parts.slice(1).filter((part) => /^[a-z]+(=|$)/i.test(part) && !/\s/.test(part.split('=')[0]));
    const isImage = isImagePath(parts[0].split('#')[0]) && (parts.length === 1 || options.length === parts.length - 1);
    if (isImage) {
      const alt = /^alt=(.*)$/i.exec(options.find((o) => /^alt=/i.test(o)) ?? '')?.[1] ?? '';
      const resolved = resolveWikiHref(parts[0], from, targets) ?? (/^https?:\/\//i.test(parts[0]) ? { path: '', hash: '' } : undefined);
      if (!resolved) return syntax === 'markdown' ? escapeText(alt) : whole;
      const src = resolved.path ? target(resolved.path, '') : parts[0];
      return syntax === 'markdown' ? `![${escapeText(alt)}](${src})` : `image:${src}[${alt.replace(/]/g, '')}]`;
    }
    const name = parts.length > 1 ? parts[parts.length - 1] : parts[0];
    const hashAt = name.indexOf('#');
    const pageRef = hashAt >= 0 ? name.slice(0, hashAt) : name;
    const label = parts.length > 1 || !pageRef ? parts[0] : pageRef;
    const hash = hashAt >= 0 ? anchor(name.slice(hashAt)) : '';
    const external = /^https?:\/\//i.test(name) ? name : undefined;
    const path = external ? resolveWikiHref(external, from, targets)?.path : (pageRef === '' ? from : targets.pagesByName.get(nameKey(pageRef)) ?? lookup(pageRef, targets));
    const href = path !== undefined ? target(path, hash) : external;
    if (!href) return syntax === 'markdown' ? escapeText(label) : whole;
    return syntax === 'markdown' ? `[${escapeText(label)}](${href})` : `link:${href}[${label.replace(/]/g, '')}]`;
  });
}

/** A reference definition (`[faq]: Frequently-Asked-Questions "title"`): the target is group 2. */
const DEFINITION = /^( {0,3}\[(?:\\.|[^\]\\\n]){1,500}\]:[ \t]*)(<[^>\n]*>|\S+)/gm;
/** HTML a wiki page holds for what markdown cannot say (`<img src="images/a.png" width="200">`, `<a href>`). */
const HTML_URL = /(<(?:img|a)\b[^>]{0,1000}?\s(?:src|href)=)(["'])([^"'<>\n]{0,2000})\2/gi;

/** Links, images, reference definitions and HTML `src`/`href` naming the wiki's pages and files → their sources. */
export function rewriteMarkdownLinks(markdown: string, from: string, targets: WikiTargets): string {
  const rewrite = (whole: string, open: string, written: string, quote = '') => {
    const href = written.startsWith('<') ? written.slice(1, -1) : written;
    const resolved = resolveWikiHref(href, from, targets);
    return resolved ? `${open}${quote}${target(resolved.path, resolved.hash)}${quote}` : whole;
  };
  return markdown
    .replace(INLINE_LINK, (whole, open: string, written: string) => rewrite(whole, open, written))
    .replace(DEFINITION, (whole, open: string, written: string) => rewrite(whole, open, written))
    .replace(HTML_URL, (whole, open: string, quote: string, written: string) => rewrite(whole, open, written, quote));
}

/** `convert` applied to the markdown outside fenced code blocks and inline code spans. */
export function outsideCode(markdown: string, convert: (text: string) => string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let prose: string[] = [];
  const flush = () => {
    if (prose.length) out.push(prose.join('\n').split(/(`+[^`\n]*?`+)/).map((part, i) => (i % 2 ? part : convert(part))).join(''));
    prose = [];
  };
  for (const line of markdown.split('\n')) {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && opening) {
      flush();
      fence = opening;
      out.push(line);
    } else if (fence !== null) {
      out.push(line);
      if (line.trim().startsWith(fence[0].repeat(fence.length)) && line.trim().replace(/[`~]/g, '') === '') fence = null;
    } else prose.push(line);
  }
  flush();
  return out.join('\n');
}
