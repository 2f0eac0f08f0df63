/**
 * The links of a Confluence export's pages, resolved against the whole export. Confluence writes
 * links between exported pages as relative file names (`Guide_200.html#Guide-Steps`), images
 * and attachments as `attachments/<pageId>/<attachmentId>.<ext>`; links pasted from the browser
 * stay addresses of the Confluence site: `/wiki/spaces/KEY/pages/<pageId>/Title`,
 * `/pages/viewpage.action?pageId=<id>`, `/display/KEY/Page+Title`, and for attachments
 * `/download/attachments/<pageId>/<name>`. Each that names an exported page or file becomes that
 * entry's own source (`/` + its encoded path), the others stay as written. A heading's anchor
 * (`#Runbook-Paging`: the page's title and the heading's text without spaces) becomes the
 * platform's anchor of that heading.
 */
import { resolveInArchive } from '../../zip/archive-path.js';
import { encodePath } from '../notion/names.js';

export type ExportNames = {
  /** Paths of the pages and of the attachments. */
  has(path: string): boolean;
  /** The space's home page (the first page of index.html), which links to `index.html` name. */
  home?: string;
  /** A page's path by its Confluence page ID. */
  pageById: Map<string, string>;
  /** A page's path by its title (unique within a Confluence space). */
  pageByTitle: Map<string, string>;
  /** An attachment's path by `<pageId>/<name>`, and by its path without extension. */
  attachmentByName: Map<string, string>;
  attachmentByStem: Map<string, string>;
  /** The platform's anchor of a page's heading by its Confluence anchor (`Runbook-Paging` → `paging`). */
  anchor(path: string, confluenceAnchor: string): string | undefined;
};

const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * The export's path a relative address of the file at `from` names. Confluence writes addresses as
 * its file names are (a title's `,` is `%2C` in both): the address as written is tried first,
 * then decoded. Undefined for an absolute address; a path not in the export comes back decoded.
 */
export function archivePath(from: string, href: string, has: (path: string) => boolean): string | undefined {
  const decoded = resolveInArchive(from, href);
  if (decoded === undefined) return undefined;
  let written: string | undefined;
  try {
    written = new URL(href.trim(), `http://archive.invalid/${encodeURI(from)}`).pathname.slice(1);
  } catch {
    written = undefined;
  }
  let raw = written;
  try {
    raw = written === undefined ? undefined : decodeURI(written);
  } catch {
    // A `%` that is no escape: as parsed.
  }
  return raw !== undefined && raw !== decoded && has(raw) ? raw : decoded;
}

/** The export's path an address of the page at `from` names, with the fragment to keep. */
export function resolveTarget(href: string, from: string, names: ExportNames): { path: string; hash: string } | undefined {
  const hash = /#.*$/.exec(href)?.[0] ?? '';
  let url: URL | undefined;
  try {
    url = new URL(href, 'http://relative.invalid/');
  } catch {
    return undefined;
  }
  if (url.hostname === 'relative.invalid' && !href.startsWith('/')) {
    const path = archivePath(from, href.replace(/#.*$/, ''), (p) => names.has(p));
    if (path === undefined) return undefined;
    if (/^index\.html?$/i.test(path)) return names.home ? { path: names.home, hash: '' } : undefined;
    if (names.has(path)) {
      const anchor = hash && names.anchor(path, decode(hash.slice(1)));
      return { path, hash: anchor ? `#${anchor}` : hash };
    }
    // A preview (`attachments/thumbnails/<pageId>/<id>`) stands for its attachment.
    const attachment = names.attachmentByStem.get(path.replace(/^attachments\/thumbnails\//, 'attachments/'));
    return attachment ? { path: attachment, hash: '' } : undefined;
  }
  // An address of the Confluence site (any host: the export does not say which).
  const pathname = url.pathname;
  const download = /\/download\/(?:attachments|thumbnails)\/(\d+)\/([^/]+)$/.exec(pathname);
  if (download) {
    const path = names.attachmentByName.get(`${download[1]}/${decode(download[2])}`);
    return path ? { path, hash: '' } : undefined;
  }
  const id = url.searchParams.get('pageId') ?? (/\/(?:wiki|spaces)\//.test(pathname) ? /\/pages\/(\d+)(?:\/|$)/.exec(pathname)?.[1] : undefined);
  if (id) {
    const path = names.pageById.get(id);
    return path ? { path, hash: '' } : undefined;
  }
  const display = /\/display\/[^/]+\/([^/]+)$/.exec(pathname);
  if (display) {
    const path = names.pageByTitle.get(decode(display[1].replace(/\+/g, ' ')));
    return path ? { path, hash: '' } : undefined;
  }
  return undefined;
}

/** An address written into markdown as it was, with what would end a link's destination encoded. */
const asWritten = (href: string) => href.replace(/[\s()<>]/g, (c) => encodeURIComponent(c));

/**
 * The page's markdown with its placeholders (`<prefix><n>`) replaced: by the source of what
 * `targets[n]` names in the export, or by the address as written. Also the paths linked.
 */
export function fillTargets(markdown: string, prefix: string, targets: string[], from: string, names: ExportNames): { markdown: string; linked: Set<string> } {
  const linked = new Set<string>();
  const pattern = new RegExp(`${prefix.replace(/[^\w-]/g, '\\$&')}(\\d+)`, 'g');
  const filled = markdown.replace(pattern, (whole, n: string) => {
    const href = targets[Number(n)];
    if (href === undefined) return whole;
    const target = resolveTarget(href, from, names);
    if (!target) return asWritten(href);
    linked.add(target.path);
    return `/${encodePath(target.path)}${asWritten(target.hash)}`;
  });
  return { markdown: filled, linked };
}
