/**
 * A new root tree: the parent's with changes applied under the project directory. Only the trees
 * on a changed path are rebuilt; every other entry (and every subtree, by its oid) is kept as it
 * was, so a commit changes nothing but what quire wrote. A folder left empty disappears.
 */
import { GitError, unsafeTree } from './errors.js';
import type { RawTreeEntry, ReadTree } from './list-tree.js';
import { checkedSegments, TREE_MODE } from './tree-paths.js';

export type FileChange = { oid: string; mode?: '100644' | '100755' } | null;
export type WriteTree = (entries: RawTreeEntry[]) => Promise<string>;

/** A folder of the changes: files changed in it, and folders below it with changes. */
type ChangeNode = { files: Map<string, FileChange>; folders: Map<string, ChangeNode> };

const emptyNode = (): ChangeNode => ({ files: new Map(), folders: new Map() });

export async function rewriteTree(
  rootTree: string | null,
  projectDirectory: string,
  changes: ReadonlyMap<string, FileChange>,
  io: { readTree: ReadTree; writeTree: WriteTree },
): Promise<string> {
  const root = changeTrie(projectDirectory, changes);
  const rewrite = async (treeOid: string | null, node: ChangeNode, prefix: string): Promise<string | null> => {
    const entries = new Map((treeOid ? await io.readTree(treeOid) : []).map((entry) => [entry.path, entry]));
    let changed = false;
    for (const [name, change] of node.files) {
      const existing = entries.get(name);
      if (existing?.mode === TREE_MODE) throw unsafeTree(`${prefix}${name}`, 'is a folder of the repository, not a file');
      if (change === null) {
        changed = entries.delete(name) || changed;
      } else if (!existing || existing.oid !== change.oid || existing.mode !== (change.mode ?? '100644')) {
        entries.set(name, { mode: change.mode ?? '100644', path: name, oid: change.oid, type: 'blob' });
        changed = true;
      }
    }
    for (const [name, child] of node.folders) {
      const existing = entries.get(name);
      if (existing && existing.mode !== TREE_MODE) throw unsafeTree(`${prefix}${name}`, 'is a file of the repository, not a folder');
      const oid = await rewrite(existing?.oid ?? null, child, `${prefix}${name}/`);
      if (oid === (existing?.oid ?? null)) continue;
      changed = true;
      if (oid === null) entries.delete(name);
      else entries.set(name, { mode: TREE_MODE, path: name, oid, type: 'tree' });
    }
    if (!changed) return treeOid;
    return entries.size === 0 ? null : io.writeTree([...entries.values()]);
  };
  return (await rewrite(rootTree, root, '')) ?? io.writeTree([]);
}

/** The changes as folders of the repository (project directory included), every path checked. */
function changeTrie(projectDirectory: string, changes: ReadonlyMap<string, FileChange>): ChangeNode {
  const root = emptyNode();
  for (const [path, change] of changes) {
    const segments = [...projectDirectory.split('/').filter(Boolean), ...checkedSegments(path)];
    const name = segments.pop() as string;
    let node = root;
    for (const segment of segments) {
      if (node.files.has(segment)) throw conflictingPaths(path);
      let next = node.folders.get(segment);
      if (!next) node.folders.set(segment, (next = emptyNode()));
      node = next;
    }
    if (node.folders.has(name)) throw conflictingPaths(path);
    node.files.set(name, change);
  }
  return root;
}

const conflictingPaths = (path: string) => new GitError('GIT_UNSAFE_TREE', `The changes write ${JSON.stringify(path)} both as a file and as a folder.`);
