/**
 * Links of a Notion page's markdown. Notion writes links between exported pages as relative,
 * percent-encoded paths (`Guide%20<id>/Setup%20<id>.md`), images and attachments likewise, and
 * mentions of pages as notion.so URLs (`https://www.notion.so/Setup-<id>?pvs=21`). Each that names
 * an exported page or file is rewritten to that entry's own source (`/` + the encoded path), so
 * the import resolves it whatever characters the names hold; the others stay as written.
 */
import { resolveInArchive } from '../../zip/archive-path.js';
import { encodePath, idOfNotionUrl, splitId, stem } from './names.js';

/** `[text](target "title")` and `![alt](target)`: the target is group 2 (`<…>` or without spaces). */
export const INLINE_LINK = /(!?\[(?:\\.|[^\]\\\n]){0,2000}\]\()[ \t]*(<[^>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)/g;

export type Targets = {
  /** The export's path a relative link names (decoded, archive-relative), if exported. */
  known(path: string): boolean;
  /** The path of the page a notion.so URL names, by block id. */
  byId(id: string): string | undefined;
};

/** The export's path a link of the page at `from` names, if any (without its fragment). */
export function targetOf(from: string, href: string, targets: Targets): string | undefined {
  const notionId = idOfNotionUrl(href);
  if (notionId) return targets.byId(notionId);
  const path = resolveInArchive(from, href.replace(/#.*$/, ''));
  return path !== undefined && targets.known(path) ? path : undefined;
}

/** The markdown with its links to exported pages and files rewritten; also the paths linked, in order. */
export function rewriteLinks(markdown: string, from: string, targets: Targets): { markdown: string; linked: string[] } {
  const linked: string[] = [];
  const rewritten = markdown.replace(INLINE_LINK, (whole, open: string, written: string) => {
    const href = written.startsWith('<') ? written.slice(1, -1) : written;
    const path = targetOf(from, href, targets);
    if (path === undefined) return whole;
    linked.push(path);
    const hash = idOfNotionUrl(href) ? '' : /#.*$/.exec(href)?.[0] ?? '';
    return `${open}/${encodePath(path)}${hash}`;
  });
  return { markdown: rewritten, linked };
}

/**
 * Notion writes a callout as `<aside>` HTML around markdown, which the platform would drop: it
 * becomes a hint. Only an `<aside>` alone on its line opens one.
 */
export function calloutsToHints(markdown: string): string {
  return markdown.replace(/^<aside>[ \t]*\n([\s\S]{0,100000}?)\n<\/aside>[ \t]*$/gm, (_, body: string) => `{% hint style="info" %}\n${body.trim()}\n{% endhint %}`);
}

/**
 * A relation property (a row page's `Events: ../Events%20<id>/Kick-off%20<id>.md, …` line, a
 * database cell) names pages by their bare paths, percent-encoded: each that names an exported
 * page becomes a link titled with that page's name (a cell's `Kick-off (path)` keeps its text).
 */
const BARE_PATH = /(^|[\s,])(?:([^,()\n]{1,300}?) \()?((?:\.\.\/)*(?:[\w%.~!$&'*+=:@-]+\/){0,20}[\w%.~!$&'*+=:@-]*%20[0-9a-f]{32}\.md)(\))?(?=$|[\s,])/gim;

export function linkRelations(text: string, from: string, targets: Targets): string {
  if (text.length > 10_000) return text;
  return text.replace(BARE_PATH, (whole, before: string, label: string | undefined, href: string, close: string | undefined) => {
    if (label !== undefined && !close) return whole;
    const path = targetOf(from, href, targets);
    if (path === undefined) return whole;
    const title = label?.trim() || splitId(stem(decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)))).title;
    return `${before}[${title.replace(/[[\]\\]/g, '\\$&')}](/${encodePath(path)})`;
  });
}

/** A page's property lines (`Key: value`, a line each, at most 10,000 characters) with their relations linked. */
export function linkPropertyRelations(markdown: string, from: string, targets: Targets): string {
  if (!markdown.includes('.md')) return markdown;
  return markdown
    .split('\n')
    .map((line) => (/^[^:\n]{1,100}: .*%20[0-9a-f]{32}\.md/i.test(line) ? linkRelations(line, from, targets) : line))
    .join('\n');
}
