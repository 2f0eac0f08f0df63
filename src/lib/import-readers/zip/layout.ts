/**
 * Where the content sits in the archive: a single wrapping folder (GitHub's `repo-main/`) is
 * stripped, then `.gitbook.yaml`'s `root` is applied. Paths come out relative to that root.
 */
import { GITBOOK_YAML, readLayoutConfig } from '../../git-layout/config.js';
import type { GitLayoutConfig } from '../../git-layout/types.js';
import { decodeText } from './pages.js';
import type { ZipEntry } from './read-entries.js';

export type ArchiveContent = {
  /** The entries read (root-relative path → bytes), in archive order. */
  files: Map<string, Uint8Array>;
  /** `.gitbook.yaml`'s, read as git sync reads it; a file that does not parse leaves the defaults. */
  config: GitLayoutConfig;
  /** A file's bytes read again from the archive (for a page whose body is read when it is written). */
  reread: (path: string) => Uint8Array;
};

export function layOut(entries: ZipEntry[]): ArchiveContent {
  const wrapper = wrappingFolder(entries);
  const paths = entries.map((entry) => ({ path: entry.path.slice(wrapper.length), bytes: entry.bytes, reread: entry.reread }));
  const yaml = paths.find((entry) => entry.path === GITBOOK_YAML)?.bytes;
  const { config } = readLayoutConfig(yaml && decodeText(yaml));
  const files = new Map<string, Uint8Array>();
  const rereads = new Map<string, () => Uint8Array>();
  for (const { path, bytes, reread } of paths) {
    if (!bytes || !path.startsWith(config.root) || path === GITBOOK_YAML) continue;
    files.set(path.slice(config.root.length), bytes);
    if (reread) rereads.set(path.slice(config.root.length), reread);
  }
  // Not `files`: the page bytes it holds go once the tree is read.
  return { files, config, reread: (path) => rereads.get(path)!() };
}

/** `top/` when every entry sits under that one folder, else ''. */
function wrappingFolder(entries: ZipEntry[]): string {
  const first = entries[0]?.path;
  const slash = first?.indexOf('/') ?? -1;
  if (slash < 0) return '';
  const folder = first!.slice(0, slash + 1);
  return entries.every((entry) => entry.path.startsWith(folder)) ? folder : '';
}
