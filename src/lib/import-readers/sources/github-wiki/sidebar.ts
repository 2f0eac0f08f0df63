/**
 * A wiki's `_Sidebar.md`: the navigation GitHub shows beside every page, and so the page tree and
 * its order. Headings are groups; list items (any of `*`, `-`, `+`, `1.`), nested by indentation,
 * are the pages their first link names (a wiki link or a markdown link); a line holding a link
 * alone is an item too. An item naming no page keeps its children, a level up.
 */
import { resolveWikiHref, type WikiTargets } from './links.js';
import { nameKey } from './formats.js';

export type SidebarNode = { kind: 'group'; title: string; children: SidebarNode[] } | { kind: 'page'; path: string | undefined; children: SidebarNode[] };

const WIKI_LINK = /\[\[([^\]\n]{1,500})\]\]/;
const MD_LINK = /\[(?:\\.|[^\]\\\n]){0,500}\]\(\s*<?([^\s)>]+)>?[^)]*\)/;

/** The page the item's text links to first. */
function linkedPage(text: string, targets: WikiTargets): string | undefined {
  const wiki = WIKI_LINK.exec(text);
  const md = MD_LINK.exec(text);
  if (wiki && (!md || wiki.index < md.index)) {
    const parts = wiki[1].split('|');
    const name = parts[parts.length - 1].split('#')[0].trim();
    return targets.pagesByName.get(nameKey(name)) ?? resolveWikiHref(name, '', targets)?.path;
  }
  return md ? resolveWikiHref(md[1], '', targets)?.path : undefined;
}

const plain = (text: string) => text.replace(/\[\[(?:[^\]|]*\|)?([^\]]*)\]\]/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`#]/g, '').trim();

export function readSidebar(markdown: string, targets: WikiTargets): SidebarNode[] {
  const roots: SidebarNode[] = [];
  let group: SidebarNode | undefined;
  const stack: { indent: number; node: SidebarNode }[] = [];
  const text = markdown.replace(/\r\n?/g, '\n').split('\n');
  let inFence = false;
  for (const line of text) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const title = plain(heading[1]);
      if (!title) continue;
      group = { kind: 'group', title, children: [] };
      roots.push(group);
      stack.length = 0;
      continue;
    }
    const item = /^(\s*)(?:[*+-]|\d+[.)])\s+(.*)$/.exec(line);
    const indent = item ? item[1].replace(/\t/g, '    ').length : 0;
    const content = item ? item[2] : line;
    if (!item && !WIKI_LINK.test(content) && !MD_LINK.test(content)) continue;
    const node: SidebarNode = { kind: 'page', path: linkedPage(content, targets), children: [] };
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1]?.node ?? group;
    (parent ? parent.children : roots).push(node);
    stack.push({ indent, node });
  }
  return roots;
}
