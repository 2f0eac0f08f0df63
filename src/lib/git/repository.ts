/**
 * One git operation on a remote repository, without a working copy: a bare repository in a
 * temporary folder (removed by close()) that fetches one branch tip shallowly, reads its trees and
 * blobs, writes blobs, trees and a commit, and pushes it. Every request goes through the safe
 * request (src/lib/fetch); the credentials reach isomorphic-git through onAuth only, never a URL
 * or the repository's config. The operation's caps (GitLimits) and the job's signal bound it all.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import git, { type HttpClient } from 'isomorphic-git';
import { createSafeRequest } from '../fetch/safe-request.js';
import { GitBudget } from './budget.js';
import { GitError, unsafeTree } from './errors.js';
import { gitHttpClient } from './http-transport.js';
import type { GitLimits } from './limits.js';
import { operationFs } from './operation-fs.js';
import { operationSignal } from './operation-signal.js';
import { listProjectTree, type RawTreeEntry, type TreeEntry } from './list-tree.js';
import { redactCredentials, type GitRemote } from './remote.js';
import { isMovedBranch, libraryCode, toGitError } from './translate-error.js';
import { rewriteTree, type FileChange } from './write-tree.js';

export type { TreeEntry } from './list-tree.js';
export { blobOid } from './blob-oid.js';

export type Person = { name: string; email: string; /** seconds */ timestamp?: number };
export type CommitPerson = { name: string; email: string; timestamp: number };
export type CommitInfo = { oid: string; message: string; tree: string; parents: string[]; author: CommitPerson; committer: CommitPerson };

export type GitRepositoryOptions = {
  remote: GitRemote;
  /** '' or `docs/` (parseProjectDirectory). */
  projectDirectory: string;
  /** The folder under which the temporary repository is made. */
  tempRoot: string;
  limits: GitLimits;
  signal: AbortSignal;
  allowPrivateNetworks: boolean;
};

const GIT_ADDRESS_POLICY = 'git sync only reaches public addresses';
const BREATH_MS = 20;

export class GitRepository {
  /**
   * isomorphic-git's cache of parsed packs, shared by every call of the operation: the fetched
   * pack (read whole into memory at the first object read) and its index, until forgetObjects().
   */
  private cache = {};
  /** The file system of this repository alone (see operation-fs.ts). */
  private readonly fs: ReturnType<typeof operationFs>;
  private readonly budget: GitBudget;
  private readonly http: HttpClient;
  private readonly closeResponses: () => void;
  private closed = false;
  /** When the event loop last had its turn (see breathe()). */
  private lastBreath = performance.now();

  private constructor(
    private readonly options: GitRepositoryOptions,
    private readonly gitdir: string,
    private readonly signal: AbortSignal,
    private readonly release: () => void,
  ) {
    this.fs = operationFs(gitdir);
    this.budget = new GitBudget(options.limits);
    const transport = gitHttpClient(
      createSafeRequest({
        signal,
        allowPrivateNetworks: options.allowPrivateNetworks,
        idleTimeoutMs: options.limits.requestTimeoutMs,
        addressPolicy: GIT_ADDRESS_POLICY,
        userAgent: 'quire-git/1',
      }),
      this.budget,
    );
    this.http = transport.client;
    this.closeResponses = transport.closeAll;
  }

  /** A bare repository in a new temporary folder under `tempRoot` (removed by close()). */
  static async open(options: GitRepositoryOptions): Promise<GitRepository> {
    const { signal, release } = operationSignal(options.signal, options.limits.totalTimeMs);
    let gitdir: string | undefined;
    try {
      if (signal.aborted) throw signal.reason;
      await mkdir(options.tempRoot, { recursive: true });
      gitdir = await mkdtemp(path.join(options.tempRoot, 'quire-git-'));
      const repository = new GitRepository(options, gitdir, signal, release);
      await git.init({ fs: repository.fs, gitdir, bare: true, defaultBranch: 'main' });
      // The fetch refspec isomorphic-git needs; the URL is the remote's, which holds no credentials.
      await git.addRemote({ fs: repository.fs, gitdir, remote: 'origin', url: options.remote.url });
      return repository;
    } catch (error) {
      release();
      if (gitdir) await rm(gitdir, { recursive: true, force: true });
      throw toGitError(error, { url: options.remote.url, hasAuth: false, action: 'prepare the repository' });
    }
  }

  /** Fetches the branch tip (depth 1, that branch only, no checkout). null: the branch, or the whole repository, is empty or missing. */
  fetchBranch(ref: string): Promise<string | null> {
    return this.run('fetch the branch', async () => {
      try {
        const fetch = () => git.fetch({ ...this.transport(), ref, remoteRef: ref, singleBranch: true, depth: 1, tags: false });
        const result = await this.network(fetch);
        return result.fetchHead ?? null;
      } catch (error) {
        if (libraryCode(error) === 'NotFoundError' && (error as { data?: { what?: string } }).data?.what === ref) return null;
        throw error;
      }
    });
  }

  /**
   * The branch's tip on the server, without fetching anything (one small request: git's
   * ls-remote), or null when the branch does not exist: an operation whose commit is already
   * synced ends here instead of cloning.
   */
  remoteTip(ref: string): Promise<string | null> {
    return this.run('read the branch tip', async () => {
      const { url, http, onAuth, onAuthFailure } = this.transport();
      const refs = await this.network(() => git.listServerRefs({ http, url, onAuth, onAuthFailure, prefix: ref }));
      return refs.find((r) => r.ref === ref)?.oid ?? null;
    });
  }

  readCommit(oid: string): Promise<CommitInfo> {
    return this.run('read a commit', async () => {
      const { commit } = await git.readCommit({ fs: this.fs, gitdir: this.gitdir, oid, cache: this.cache });
      return {
        oid,
        message: commit.message,
        tree: commit.tree,
        parents: commit.parent,
        author: { name: commit.author.name, email: commit.author.email, timestamp: commit.author.timestamp },
        committer: { name: commit.committer.name, email: commit.committer.email, timestamp: commit.committer.timestamp },
      };
    });
  }

  /**
   * Every file under the project directory of the commit's tree, checked: a symlink, a submodule,
   * a path with `..`/`/`/`.git`, two paths equal ignoring case → GIT_UNSAFE_TREE naming the path;
   * more than maxEntries → GIT_TOO_LARGE.
   */
  listTree(commitOid: string): Promise<TreeEntry[]> {
    return this.run('read the files', async () => {
      const { tree } = await this.readCommit(commitOid);
      return listProjectTree(tree, this.options.projectDirectory, this.readTree, this.options.limits.maxEntries);
    });
  }

  /** A blob's bytes (at most maxBlobBytes; counted in maxTotalBytes). */
  readBlob(oid: string): Promise<Uint8Array> {
    return this.run('read a file', async () => {
      await this.breathe();
      const { blob } = await git.readBlob({ fs: this.fs, gitdir: this.gitdir, oid, cache: this.cache });
      this.budget.readBlob(oid, blob.byteLength);
      return blob;
    });
  }

  /** Writes a blob, answers its oid. */
  writeBlob(bytes: Uint8Array): Promise<string> {
    return this.run('write a file', () => git.writeBlob({ fs: this.fs, gitdir: this.gitdir, blob: bytes }));
  }

  /**
   * A commit whose tree is `parent`'s (or empty) with `changes` applied under the project
   * directory (project-relative path → blob, or null to delete); everything else of the parent's
   * tree kept as it was (its subtrees by oid). Answers the commit's oid.
   */
  writeCommit(input: {
    parent: string | null;
    changes: Map<string, FileChange>;
    message: string;
    author: Person;
    committer: Person;
  }): Promise<string> {
    return this.run('write the commit', async () => {
      const rootTree = input.parent ? (await this.readCommit(input.parent)).tree : null;
      const tree = await rewriteTree(rootTree, this.options.projectDirectory, input.changes, {
        readTree: this.readTree,
        writeTree: (entries) => git.writeTree({ fs: this.fs, gitdir: this.gitdir, tree: entries.map(asTreeObjectEntry) }),
      });
      return git.writeCommit({
        fs: this.fs,
        gitdir: this.gitdir,
        commit: {
          message: input.message.endsWith('\n') ? input.message : `${input.message}\n`,
          tree,
          parent: input.parent ? [input.parent] : [],
          author: commitPerson(input.author),
          committer: commitPerson(input.committer),
        },
      });
    });
  }

  /** Pushes `commit` to `ref`: 'rejected' when the remote branch moved (not a fast-forward), unless `force`. */
  push(ref: string, commit: string, options: { force?: boolean } = {}): Promise<'ok' | 'rejected'> {
    return this.run('push the commit', async () => {
      await git.writeRef({ fs: this.fs, gitdir: this.gitdir, ref, value: commit, force: true });
      try {
        await this.network(() => git.push({ ...this.transport(), ref, remoteRef: ref, force: options.force === true }));
        return 'ok';
      } catch (error) {
        const code = libraryCode(error);
        if (code === 'PushRejectedError') return 'rejected';
        if (code !== 'GitPushError') throw error;
        const reason = pushRefusal(error, ref);
        if (isMovedBranch(reason)) return 'rejected';
        throw new GitError('GIT_PUSH_REJECTED', `The git server refused the push to ${ref}${reason ? `: ${reason}` : ''}.`);
      }
    });
  }

  /**
   * Lets go of the pack held in memory (about 1.5 KB a markdown page: 14.5 MB at 10,000) once
   * the files were read; a later read loads it again from the temporary folder.
   */
  forgetObjects(): void {
    this.cache = {};
  }

  /** Removes the temporary repository and stops the operation's timer. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.release();
    await rm(this.gitdir, { recursive: true, force: true });
  }

  private readonly readTree = async (oid: string): Promise<RawTreeEntry[]> => {
    await this.breathe();
    this.throwIfStopped();
    return (await git.readTree({ fs: this.fs, gitdir: this.gitdir, oid, cache: this.cache })).tree;
  };

  /** What fetch and push share: the repository, the HTTP client, the URL, and the credentials through onAuth. */
  private transport() {
    const { auth, url } = this.options.remote;
    return {
      fs: this.fs,
      http: this.http,
      gitdir: this.gitdir,
      cache: this.cache,
      url,
      onAuth: () => (auth ? { username: auth.username, password: auth.password } : undefined),
      // The credentials were refused once: asking again would only repeat them.
      onAuthFailure: () => ({ cancel: true }),
    };
  }

  private async run<T>(action: string, work: () => Promise<T>): Promise<T> {
    const context = { url: this.options.remote.url, hasAuth: this.options.remote.auth !== undefined, action };
    try {
      if (this.closed) throw new GitError('GIT_PROTOCOL', `Could not ${action}: the repository was already closed.`);
      this.throwIfStopped();
      return await work();
    } catch (error) {
      // Once stopped (the job's signal, the total time), whatever broke is a consequence: answer why.
      throw toGitError(this.signal.aborted ? this.signal.reason : error, context);
    }
  }

  /** A fetch or push. isomorphic-git may stop reading an answer once it has what it needs: those requests end with it. */
  private async network<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      this.closeResponses();
    }
  }

  /**
   * Reads from the fetched pack are served from memory and resolve without any I/O: a loop of
   * them would never let the event loop run. Each read gives it a turn once 20 ms have passed.
   */
  private async breathe(): Promise<void> {
    if (performance.now() - this.lastBreath < BREATH_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.lastBreath = performance.now();
  }

  private throwIfStopped(): void {
    if (this.signal.aborted) throw this.signal.reason;
  }
}

function commitPerson(person: Person) {
  return { name: person.name, email: person.email, timestamp: person.timestamp ?? Math.floor(Date.now() / 1000), timezoneOffset: 0 };
}

function asTreeObjectEntry(entry: RawTreeEntry): { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' } {
  const { type } = entry;
  if (type !== 'blob' && type !== 'tree' && type !== 'commit') throw unsafeTree(entry.path, 'is neither a file nor a folder');
  return { mode: entry.mode, path: entry.path, oid: entry.oid, type };
}

/** The server's reason for refusing `ref` (credentials redacted), or ''. */
function pushRefusal(error: unknown, ref: string): string {
  const result = (error as { data?: { result?: { error?: string; refs?: Record<string, { error?: string }> } } }).data?.result;
  const reason = result?.refs?.[ref]?.error ?? result?.error ?? '';
  return redactCredentials(reason.replace(/[^\x20-\x7e]/g, ' ')).slice(0, 300);
}
