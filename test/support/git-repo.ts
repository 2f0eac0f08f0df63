/**
 * Commits and reads the bare repositories of the test git server with the git CLI's plumbing
 * (asynchronously, on the repository's folder: no HTTP, no working copy), and writes the hostile
 * trees a porcelain command refuses to make (symlinks, submodules, `..`, `.git`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gitText, runGit } from './git-cli.js';
import type { GitServer } from './git-server.js';

export const bareDir = (server: GitServer, name: string) => path.join(server.root, `${name}.git`);

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Upstream Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Upstream Committer',
  GIT_COMMITTER_EMAIL: 'committer@example.com',
};

/** The branch's commit, or null when it does not exist. */
export async function branchTip(server: GitServer, name: string, branch: string): Promise<string | null> {
  return gitText(bareDir(server, name), ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).catch(() => null);
}

/** A commit on `branch` changing `files` (null deletes; `{mode, content}` sets a mode); answers its oid. */
export async function commitFiles(
  server: GitServer,
  name: string,
  branch: string,
  files: Record<string, string | Uint8Array | null | { mode: string; content: string | Uint8Array }>,
  message: string,
): Promise<string> {
  const gitDir = bareDir(server, name);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'quire-git-index-'));
  const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
  try {
    const parent = await branchTip(server, name, branch);
    await gitText(gitDir, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env });
    for (const [file, content] of Object.entries(files)) {
      if (content === null) {
        // Mode 0 removes the path from the index (--force-remove needs a work tree).
        await gitText(gitDir, ['update-index', '--index-info'], { env, input: `0 ${'0'.repeat(40)}\t${file}\n` });
        continue;
      }
      const { mode, bytes } = typeof content === 'object' && 'mode' in content ? { mode: content.mode, bytes: content.content } : { mode: '100644', bytes: content };
      const oid = await hashObject(server, name, bytes);
      await gitText(gitDir, ['update-index', '--add', '--cacheinfo', `${mode},${oid},${file}`], { env });
    }
    const tree = await gitText(gitDir, ['write-tree'], { env });
    return commitTree(server, name, branch, tree, message);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Writes a blob; answers its oid. */
export function hashObject(server: GitServer, name: string, bytes: string | Uint8Array): Promise<string> {
  return gitText(bareDir(server, name), ['hash-object', '-w', '--stdin'], { input: bytes });
}

/** Writes a tree object as given, however hostile (`..`, `.git`, a gitlink), with no check; answers its oid. */
export function writeRawTree(server: GitServer, name: string, entries: { mode: string; name: string; oid: string }[]): Promise<string> {
  const bytes = Buffer.concat(entries.map((entry) => Buffer.concat([Buffer.from(`${entry.mode} ${entry.name}\0`), Buffer.from(entry.oid, 'hex')])));
  return gitText(bareDir(server, name), ['hash-object', '-t', 'tree', '-w', '--literally', '--stdin'], { input: bytes });
}

/** A commit of `tree` on top of the branch (when it exists), moved to it; answers its oid. */
export async function commitTree(server: GitServer, name: string, branch: string, tree: string, message: string): Promise<string> {
  const gitDir = bareDir(server, name);
  const parent = await branchTip(server, name, branch);
  const commit = await gitText(gitDir, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message], { env: IDENTITY });
  await gitText(gitDir, ['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}

/** Every file of the branch: path → bytes. */
export async function readFiles(server: GitServer, name: string, branch: string): Promise<Record<string, Buffer>> {
  const gitDir = bareDir(server, name);
  const listing = (await runGit(['--git-dir', gitDir, 'ls-tree', '-r', '-z', `refs/heads/${branch}`])).toString('utf8');
  const files: Record<string, Buffer> = {};
  for (const line of listing.split('\0').filter(Boolean)) {
    const [meta, file] = line.split('\t');
    const [, type, oid] = meta.split(' ');
    if (type === 'blob') files[file] = await runGit(['--git-dir', gitDir, 'cat-file', 'blob', oid]);
  }
  return files;
}

export type LoggedCommit = { oid: string; parents: string[]; author: string; committer: string; message: string };

/** The branch's commits, newest first. */
export async function log(server: GitServer, name: string, branch: string): Promise<LoggedCommit[]> {
  const text = await gitText(bareDir(server, name), ['log', '--format=%H%x00%P%x00%an <%ae>%x00%cn <%ce>%x00%B%x1e', `refs/heads/${branch}`]);
  return text
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter(Boolean)
    .map((record) => {
      const [oid, parents, author, committer, message] = record.split('\0');
      return { oid, parents: parents ? parents.split(' ') : [], author, committer, message: message.trim() };
    });
}

/** `git rev-parse <rev>` in the repository (`main:docs` is the oid of the docs folder's tree). */
export function revParse(server: GitServer, name: string, rev: string): Promise<string> {
  return gitText(bareDir(server, name), ['rev-parse', rev]);
}
