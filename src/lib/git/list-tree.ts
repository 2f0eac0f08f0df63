/**
 * Every file under the project directory of a tree, checked against hostile repositories: a
 * symlink or a submodule is never followed, names that escape (`..`, `/`, `.git`) and paths equal
 * ignoring case are refused, and the number of entries is capped. It yields to the event loop
 * every few hundred entries, so a huge tree never holds the process for long.
 */
import { tooLarge, unsafeTree } from './errors.js';
import { libraryCode } from './translate-error.js';
import { foldedPath, SUBMODULE_MODE, SYMLINK_MODE, TREE_MODE, unsafeNameReason } from './tree-paths.js';

/** One entry of a tree object as read (mode as git writes it, 6 digits). */
export type RawTreeEntry = { mode: string; path: string; oid: string; type: string };
export type ReadTree = (oid: string) => Promise<RawTreeEntry[]>;

export type TreeEntry = { path: string /* relative to the project directory */; oid: string; mode: '100644' | '100755' };

const YIELD_EVERY = 256;

export async function listProjectTree(rootTree: string, projectDirectory: string, readTree: ReadTree, maxEntries: number): Promise<TreeEntry[]> {
  const projectTree = await findProjectTree(rootTree, projectDirectory, readTree);
  if (!projectTree) return [];
  const files: TreeEntry[] = [];
  const seen = new Map<string, string>();
  let count = 0;

  const visit = async (treeOid: string, prefix: string): Promise<void> => {
    for (const entry of await readNamed(readTree, treeOid, `${projectDirectory}${prefix}`)) {
      const path = `${prefix}${entry.path}`;
      const repositoryPath = `${projectDirectory}${path}`;
      if (++count > maxEntries) {
        throw tooLarge(`The project directory holds more than ${maxEntries} files and folders (maxEntries).`);
      }
      if (count % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      checkEntry(entry, repositoryPath);
      const other = seen.get(foldedPath(path));
      if (other !== undefined) throw unsafeTree(repositoryPath, `has the same name as ${JSON.stringify(`${projectDirectory}${other}`)} ignoring case`);
      seen.set(foldedPath(path), path);
      if (entry.mode === TREE_MODE) await visit(entry.oid, `${path}/`);
      else files.push({ path, oid: entry.oid, mode: entry.mode === '100755' ? '100755' : '100644' });
    }
  };
  await visit(projectTree, '');
  return files;
}

/** A tree's entries; a name the reader itself refuses (`..`, `.git`) is reported with its path. */
async function readNamed(readTree: ReadTree, oid: string, folder: string): Promise<RawTreeEntry[]> {
  try {
    return await readTree(oid);
  } catch (error) {
    if (libraryCode(error) !== 'UnsafeFilepathError') throw error;
    const name = String((error as { data?: { filepath?: unknown } }).data?.filepath ?? '');
    throw unsafeTree(`${folder}${name}`, unsafeNameReason(name) ?? 'is not a safe file name');
  }
}

function checkEntry(entry: RawTreeEntry, repositoryPath: string): void {
  const reason = unsafeNameReason(entry.path);
  if (reason) throw unsafeTree(repositoryPath, reason);
  if (entry.mode === SYMLINK_MODE) throw unsafeTree(repositoryPath, 'is a symbolic link, which git sync does not follow');
  if (entry.mode === SUBMODULE_MODE) throw unsafeTree(repositoryPath, 'is a submodule, which git sync does not follow');
  if (entry.mode !== TREE_MODE && entry.type !== 'blob') throw unsafeTree(repositoryPath, 'is neither a file nor a folder');
}

/** The tree of the project directory; null when the repository has no such folder. */
async function findProjectTree(rootTree: string, projectDirectory: string, readTree: ReadTree): Promise<string | null> {
  let oid = rootTree;
  let walked = '';
  for (const segment of projectDirectory.split('/').filter(Boolean)) {
    const entry = (await readNamed(readTree, oid, walked)).find((candidate) => candidate.path === segment);
    const path = `${walked}${segment}`;
    if (!entry) return null;
    if (entry.mode !== TREE_MODE) {
      checkEntry(entry, path);
      throw unsafeTree(path, 'is a file where the project directory should be a folder');
    }
    oid = entry.oid;
    walked = `${path}/`;
  }
  return oid;
}
