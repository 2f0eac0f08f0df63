/**
 * The repository layout git sync reads and writes (../shared/reference/git-sync.md): what a commit's
 * tree says about pages, files and reusable contents, before any markdown is converted.
 */

/** A problem of the repository, named by file (project-relative) and line where there is one. */
export type LayoutProblem = { severity: 'error' | 'warning'; path: string; line?: number; message: string };

export type GitLayoutConfig = {
  /** The content folder, project-relative: `''` or `docs/`. Every other path is relative to it. */
  root: string;
  /** The first page's file (root-relative). */
  readme: string;
  /** The page tree's file (root-relative). */
  summary: string;
  /** Old root-relative path → root-relative page file, both without a leading slash. */
  redirects: Record<string, string>;
};

export type GitPageNode = {
  /**
   * Root-relative path of its markdown file; null for a group, a link page, and a page made for a
   * nested folder without README (no file of its own).
   */
  path: string | null;
  /** The file's blob; null without a file, or when SUMMARY.md names a file that is missing (an error problem). */
  oid: string | null;
  type: 'document' | 'group' | 'link';
  /** From SUMMARY.md's entry text (or the group heading); undefined: the file's own `# ` title decides. */
  title?: string;
  /** SUMMARY.md's `[Title](page.md "Nav label")`. */
  navLabel?: string;
  /** A title from the file or folder name (`setup-guide.md` → `Setup guide`), for a page with neither a `# ` title nor `title`. */
  fallbackTitle: string;
  /**
   * A slug hint: SUMMARY group anchor `<a … id="slug">`, else from the file/folder name
   * (`install.md` → `install`, `guide/README.md` → `guide`); the root README from its title.
   */
  slug: string;
  /** Link pages: the URL. */
  href?: string;
  children: GitPageNode[];
};

export type GitAsset = { path: string /* root-relative */; oid: string; name: string; contentType: string };

export type GitInclude = { path: string /* root-relative, under .gitbook/includes/ */; oid: string };

export type GitLayout = {
  config: GitLayoutConfig;
  pages: GitPageNode[];
  files: GitAsset[];
  includes: GitInclude[];
  /** Every markdown path of the root that is a page (for link resolution): root-relative path → node. */
  pagesByPath: Map<string, GitPageNode>;
  problems: LayoutProblem[];
};

/** A tree entry the layout reads: project-relative path and blob id. */
export type LayoutEntry = { path: string; oid: string };
