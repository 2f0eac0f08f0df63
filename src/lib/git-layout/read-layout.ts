/**
 * A commit's tree → the layout of its content: `.gitbook.yaml`, then the page tree from SUMMARY.md
 * (or the folders without one), the files (`.gitbook/assets/` and images anywhere) and the reusable
 * contents (`.gitbook/includes/*.md`). Reads only `.gitbook.yaml` and SUMMARY.md; converts no markdown.
 */
import { isSkipped } from '../import-readers/zip/entry-path.js';
import { baseName } from '../import-readers/zip/archive-path.js';
import { contentTypeOf, isAssetPath } from '../import-readers/zip/files.js';
import { GITBOOK_YAML, readLayoutConfig } from './config.js';
import { folderPages } from './folders.js';
import { isMarkdownPath } from './names.js';
import { readSummary } from './summary.js';
import type { GitAsset, GitInclude, GitLayout, GitLayoutConfig, GitPageNode, LayoutEntry, LayoutProblem } from './types.js';

export const INCLUDES_PREFIX = '.gitbook/includes/';

/** A markdown file that can be a page: outside `.gitbook/` (assets and includes). */
const isPageCandidate = (path: string) => isMarkdownPath(path) && !/(^|\/)\.gitbook\//.test(path);

/**
 * `entries`: project-relative (the tree under the project directory); `readText` reads a blob as
 * UTF-8. Problems name project-relative paths.
 */
export async function readGitLayout(entries: readonly LayoutEntry[], readText: (oid: string) => Promise<string>): Promise<GitLayout> {
  const yaml = entries.find((entry) => entry.path === GITBOOK_YAML);
  const { config, problems } = readLayoutConfig(yaml ? await readText(yaml.oid) : undefined);

  // Root-relative path → blob id; dotfiles and dot-folders other than the platform's are not content.
  const files = new Map<string, string>();
  for (const { path, oid } of entries) {
    if (!path.startsWith(config.root) || path === GITBOOK_YAML) continue;
    const relative = path.slice(config.root.length);
    if (!isSkipped(relative)) files.set(relative, oid);
  }

  const candidates = [...files.keys()].filter((path) => isPageCandidate(path) && path !== config.summary);
  const pages = await pageTree(config.summary, files, candidates, config.root, config.readme, readText, problems);

  const assets: GitAsset[] = [];
  const includes: GitInclude[] = [];
  for (const [path, oid] of files) {
    if (path.startsWith(INCLUDES_PREFIX) && isMarkdownPath(path)) includes.push({ path, oid });
    else if (isAssetPath(path) && !isPageCandidate(path)) assets.push({ path, oid, name: baseName(path), contentType: contentTypeOf(path) });
  }

  const pagesByPath = new Map<string, GitPageNode>();
  const index = (nodes: GitPageNode[]) => {
    for (const node of nodes) {
      if (node.path !== null && node.oid !== null) pagesByPath.set(node.path, node);
      index(node.children);
    }
  };
  index(pages);
  problems.push(...configWarnings(config, files, pagesByPath, yaml !== undefined));
  return { config, pages, files: assets, includes, pagesByPath, problems };
}

async function pageTree(
  summaryPath: string,
  files: ReadonlyMap<string, string>,
  candidates: string[],
  root: string,
  readme: string,
  readText: (oid: string) => Promise<string>,
  problems: LayoutProblem[],
): Promise<GitPageNode[]> {
  const summaryOid = files.get(summaryPath);
  if (summaryOid === undefined) return folderPages(candidates, files, readme);
  const summary = await readSummary({ summaryPath, text: await readText(summaryOid), files, problemPath: root + summaryPath });
  problems.push(...summary.problems);
  if (summary.pages.length === 0) {
    problems.push({ severity: 'warning', path: root + summaryPath, message: `${root + summaryPath} lists no page: the pages come from the folders.` });
    return folderPages(candidates, files, readme);
  }
  for (const path of candidates) {
    if (!summary.listed.has(path)) problems.push({ severity: 'warning', path: root + path, message: `${root + path} is not listed in ${root + summaryPath}: it is not a page.` });
  }
  return summary.pages;
}

/** What `.gitbook.yaml` names that the tree does not have. */
function configWarnings(config: GitLayoutConfig, files: ReadonlyMap<string, string>, pages: ReadonlyMap<string, GitPageNode>, hasYaml: boolean): LayoutProblem[] {
  if (!hasYaml) return [];
  const warning = (message: string): LayoutProblem => ({ severity: 'warning', path: GITBOOK_YAML, message });
  const warnings: LayoutProblem[] = [];
  if (config.readme !== 'README.md' && !files.has(config.readme)) warnings.push(warning(`${GITBOOK_YAML}: structure.readme names ${config.root + config.readme}, which does not exist.`));
  if (config.summary !== 'SUMMARY.md' && !files.has(config.summary)) warnings.push(warning(`${GITBOOK_YAML}: structure.summary names ${config.root + config.summary}, which does not exist: the pages come from the folders.`));
  for (const [from, to] of Object.entries(config.redirects)) {
    if (!pages.has(to)) warnings.push(warning(`${GITBOOK_YAML}: the redirect of ${from} names ${config.root + to}, which is not a page.`));
  }
  return warnings;
}
