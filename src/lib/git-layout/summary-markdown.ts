/**
 * SUMMARY.md written in the platform's dialect: `# Table of contents`, top-level pages as a list,
 * each group a `## Title` heading (with `<a href="#slug" id="slug"></a>` when its slug is not the
 * title's) over its pages, nested items indented by two spaces. Deterministic: the same tree and
 * paths give the same bytes, so an export rewrites it only when the tree changed.
 */
import { slugOf } from '../documents/slug.js';
import { childrenByParent, folderOf, relativePath } from '../markdown/layout.js';
import type { ExportNode } from './plan-paths.js';

/**
 * `paths`: planPaths' answer (root-relative); `summaryPath`: where SUMMARY.md is written
 * (root-relative), which its links are relative to. A top-level page after a group reads back as
 * that group's page: the format has no way back to the top level.
 */
export function summaryMarkdown(nodes: readonly ExportNode[], paths: ReadonlyMap<string, string>, summaryPath: string): string {
  const byParent = childrenByParent(nodes.filter((node) => node.kind === 'page'));
  const from = folderOf(summaryPath);
  const seen = new Set<string>();

  const items = (parentId: string, depth: number): string[] =>
    (byParent.get(parentId) ?? []).flatMap((node) => {
      if (seen.has(node.id)) return [];
      seen.add(node.id);
      // A link page without a URL has nothing to list that would read back as a link.
      if (node.type === 'link' && !node.href) return [];
      return [`${'  '.repeat(depth)}* ${entry(node)}`, ...items(node.id, depth + 1)];
    });
  const entry = (node: ExportNode): string => {
    const title = escapeText(node.title || node.slug);
    const target = node.type === 'link' ? node.href : paths.get(node.id);
    if (node.type === 'group' || !target) return title;
    return `[${title}](${destination(node.type === 'link' ? target : relativePath(from, target))})`;
  };

  const blocks: string[][] = [['# Table of contents']];
  let list: string[] = [];
  for (const node of byParent.get(null) ?? []) {
    if (node.type !== 'group') {
      seen.add(node.id);
      if (node.type === 'link' && !node.href) continue;
      list.push(`* ${entry(node)}`, ...items(node.id, 1));
      continue;
    }
    seen.add(node.id);
    if (list.length) blocks.push(list);
    const anchor = slugOf(node.title) === node.slug ? '' : ` <a href="#${node.slug}" id="${node.slug}"></a>`;
    blocks.push([`## ${escapeText(node.title || node.slug)}${anchor}`]);
    list = items(node.id, 0);
  }
  if (list.length) blocks.push(list);
  return `${blocks.map((block) => block.join('\n')).join('\n\n')}\n`;
}

/** Link text and heading text, markdown's punctuation escaped. */
export function escapeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[\\`*_[\]<>#!|~&]/g, (c) => `\\${c}`);
}

/** A link destination: in angle brackets when it holds spaces or brackets. */
function destination(url: string): string {
  return /[\s<>()]/.test(url) ? `<${url.replace(/[<>]/g, (c) => encodeURIComponent(c))}>` : url;
}
