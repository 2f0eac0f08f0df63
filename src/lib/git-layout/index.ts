/** The repository layout git sync reads and writes: reading a tree, planning paths, writing SUMMARY.md. */
export type { GitAsset, GitInclude, GitLayout, GitLayoutConfig, GitPageNode, LayoutEntry, LayoutProblem } from './types.js';
export { readGitLayout } from './read-layout.js';
export { planPaths, type ExportNode } from './plan-paths.js';
export { summaryMarkdown } from './summary-markdown.js';
