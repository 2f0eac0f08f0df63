/**
 * The git transport of git sync (src/lib/git) against a real git server: git's own
 * git-http-backend behind node:http with basic auth on 127.0.0.1. Cloning and reading, writing
 * and pushing (untouched files and folders kept identical, as the git CLI sees them), a remote
 * that moved, branch creation, credentials and addresses, hostile trees and caps.
 */
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/lib/errors.js';
import { createSafeRequest } from '../src/lib/fetch/index.js';
import { ImportError } from '../src/lib/import-readers/import-error.js';
import {
  blobOid,
  DEFAULT_GIT_LIMITS,
  GitError,
  GitRepository,
  parseBranchRef,
  parseGitRemote,
  parseProjectDirectory,
  redactCredentials,
  type GitLimits,
} from '../src/lib/git/index.js';
import { runGit } from './support/git-cli.js';
import { startGitServer, type GitServer } from './support/git-server.js';
import { bareDir, branchTip, commitFiles, commitTree, hashObject, log, readFiles, revParse, writeRawTree } from './support/git-repo.js';

// One test makes 127.0.0.1 count as public, to show that a redirect's target is checked again.
const addressPolicy = vi.hoisted(() => ({ loopbackIsPublic: false }));
vi.mock('../src/lib/fetch/addresses.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/lib/fetch/addresses.js')>();
  return { ...original, isPublicAddress: (ip: string) => (addressPolicy.loopbackIsPublic && ip === '127.0.0.1') || original.isPublicAddress(ip) };
});

const USER = 'quire-bot';
const PASSWORD = 's3cret:p@ss';
let server: GitServer;
let tempRoot: string;
let repoCount = 0;
const opened: GitRepository[] = [];

beforeAll(async () => {
  server = await startGitServer({ user: USER, password: PASSWORD });
  tempRoot = await mkdtemp(path.join(os.tmpdir(), 'quire-git-test-'));
});

afterAll(async () => {
  for (const repository of opened) await repository.close();
  await server?.close();
  await rm(tempRoot, { recursive: true, force: true });
});

async function newRepo(): Promise<string> {
  const name = `repo${++repoCount}`;
  await server.createRepo(name);
  return name;
}

async function open(
  name: string,
  options: { projectDirectory?: string; limits?: Partial<GitLimits>; url?: string; allowPrivateNetworks?: boolean; signal?: AbortSignal } = {},
): Promise<GitRepository> {
  const allowPrivateNetworks = options.allowPrivateNetworks ?? true;
  const repository = await GitRepository.open({
    remote: parseGitRemote(options.url ?? server.url(name), { allowPrivateNetworks: true }),
    projectDirectory: options.projectDirectory ?? '',
    tempRoot,
    limits: { ...DEFAULT_GIT_LIMITS, requestTimeoutMs: 5_000, ...options.limits },
    signal: options.signal ?? new AbortController().signal,
    allowPrivateNetworks,
  });
  opened.push(repository);
  return repository;
}

/** The error of class `type` a promise rejects with (fails the test when it resolves or throws anything else). */
async function rejection<E extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

const gitFailure = (promise: Promise<unknown>) => rejection(promise, GitError);

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const person = (name: string, timestamp = 1_700_000_000) => ({ name, email: `${name.toLowerCase().replace(/ /g, '.')}@example.com`, timestamp });

describe('parsing the inputs', () => {
  it('takes https (and http where private networks are allowed) and moves the credentials apart', () => {
    expect(parseGitRemote('https://u%40x:p%3Ass@git.example.com/team/docs.git/#frag', { allowPrivateNetworks: false })).toEqual({
      url: 'https://git.example.com/team/docs.git',
      auth: { username: 'u@x', password: 'p:ss' },
    });
    expect(parseGitRemote('https://git.example.com/docs', { allowPrivateNetworks: false })).toEqual({ url: 'https://git.example.com/docs' });
    expect(parseGitRemote('http://intranet/docs.git', { allowPrivateNetworks: true }).url).toBe('http://intranet/docs.git');
  });

  it('refuses other schemes, scp-like addresses and http without private networks, naming url and never echoing a password', () => {
    for (const raw of [
      'http://git.example.com/docs.git',
      'file:///etc/passwd',
      'ssh://git@example.com/docs.git',
      'git://example.com/docs.git',
      'ext::sh -c touch% /tmp/pwned',
      'git@github.com:team/docs.git',
      'ftp://user:hunter2@example.com/x',
      '',
      42,
    ]) {
      let error: unknown;
      try {
        parseGitRemote(raw, { allowPrivateNetworks: false });
      } catch (e) {
        error = e;
      }
      expect(error, String(raw)).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).field).toBe('url');
      expect((error as AppError).message).not.toContain('hunter2');
    }
  });

  it('takes refs/heads/<branch> only, by git check-ref-format', () => {
    expect(parseBranchRef('refs/heads/main')).toBe('refs/heads/main');
    expect(parseBranchRef('refs/heads/feature/docs-2')).toBe('refs/heads/feature/docs-2');
    for (const raw of ['main', 'refs/tags/v1', 'refs/heads/', 'refs/heads/a..b', 'refs/heads/.hidden', 'refs/heads/a.lock', 'refs/heads/a b', 'refs/heads/a~1', 'refs/heads/x@{1}', 'refs/heads/a//b', 'refs/heads/end.', 'refs/heads/@', null]) {
      expect(() => parseBranchRef(raw), String(raw)).toThrowError(expect.objectContaining({ field: 'ref', status: 400 }));
    }
  });

  it('normalizes the project directory and refuses escapes', () => {
    expect(parseProjectDirectory(undefined)).toBe('');
    expect(parseProjectDirectory('/')).toBe('');
    expect(parseProjectDirectory('/docs/')).toBe('docs/');
    expect(parseProjectDirectory('packages//site/./docs')).toBe('packages/site/docs/');
    for (const raw of ['../x', 'docs/../../x', '.git', 'a/.GIT/b', 'a\\b', 3]) {
      expect(() => parseProjectDirectory(raw), String(raw)).toThrowError(expect.objectContaining({ field: 'repoProjectDirectory' }));
    }
  });

  it('redacts credentials from any URL in a text', () => {
    expect(redactCredentials('fetch https://user:p%40ss@host/a.git and http://tok@h2/b failed')).toBe('fetch https://host/a.git and http://h2/b failed');
  });
});

describe('blob ids', () => {
  it('equal git hash-object', async () => {
    const name = await newRepo();
    for (const content of ['', 'hello\n', Buffer.from([0, 255, 10, 13])]) {
      expect(blobOid(typeof content === 'string' ? Buffer.from(content) : content)).toBe(await hashObject(server, name, content));
    }
  });
});

describe('reading a branch', () => {
  it('fetches the tip and lists and reads the files of the project directory only', async () => {
    const name = await newRepo();
    const tip = await commitFiles(
      server,
      name,
      'main',
      {
        'README.md': '# Repository\n',
        'docs/README.md': '# Docs\n',
        'docs/guide/install.md': '# Install\n',
        'docs/run.sh': { mode: '100755', content: '#!/bin/sh\n' },
        'src/link': { mode: '120000', content: '../docs' }, // outside the project directory: ignored
      },
      'Upstream docs',
    );
    const repository = await open(name, { projectDirectory: 'docs/' });
    expect(await repository.fetchBranch('refs/heads/main')).toBe(tip);

    const commit = await repository.readCommit(tip);
    expect(commit).toMatchObject({ oid: tip, message: 'Upstream docs\n', parents: [], author: { name: 'Upstream Author', email: 'author@example.com' } });
    expect(commit.tree).toBe(await revParse(server, name, 'main^{tree}'));

    const entries = await repository.listTree(tip);
    expect(entries.map((entry) => [entry.path, entry.mode]).sort()).toEqual([
      ['README.md', '100644'],
      ['guide/install.md', '100644'],
      ['run.sh', '100755'],
    ]);
    const install = entries.find((entry) => entry.path === 'guide/install.md');
    expect(install?.oid).toBe(await revParse(server, name, 'main:docs/guide/install.md'));
    expect(text(await repository.readBlob(install!.oid))).toBe('# Install\n');
  });

  it('answers null for an empty repository and for a missing branch', async () => {
    const name = await newRepo();
    expect(await (await open(name)).fetchBranch('refs/heads/main')).toBeNull();
    await commitFiles(server, name, 'main', { 'a.md': 'a' }, 'first');
    expect(await (await open(name)).fetchBranch('refs/heads/other')).toBeNull();
  });

  it('lists nothing when the project directory does not exist', async () => {
    const name = await newRepo();
    const tip = await commitFiles(server, name, 'main', { 'a.md': 'a' }, 'first');
    const repository = await open(name, { projectDirectory: 'docs/' });
    await repository.fetchBranch('refs/heads/main');
    expect(await repository.listTree(tip)).toEqual([]);
  });

  it('removes its temporary repository on close', async () => {
    const name = await newRepo();
    const before = await readdir(tempRoot);
    const repository = await GitRepository.open({
      remote: parseGitRemote(server.url(name), { allowPrivateNetworks: true }),
      projectDirectory: '',
      tempRoot,
      limits: DEFAULT_GIT_LIMITS,
      signal: new AbortController().signal,
      allowPrivateNetworks: true,
    });
    const created = (await readdir(tempRoot)).filter((entry) => !before.includes(entry));
    expect(created).toHaveLength(1);
    await repository.close();
    await expect(access(path.join(tempRoot, created[0]))).rejects.toThrow();
    expect((await gitFailure(repository.fetchBranch('refs/heads/main'))).code).toBe('GIT_PROTOCOL');
  });
});

describe('writing and pushing', () => {
  it('commits changes under the project directory, keeping every untouched file and folder identical', async () => {
    const name = await newRepo();
    const base = await commitFiles(
      server,
      name,
      'main',
      {
        'README.md': 'outside\n',
        'src/index.ts': 'export {};\n',
        'docs/README.md': '# Docs\n',
        'docs/keep/a.md': '# A\n',
        'docs/keep/deep/b.md': '# B\n',
        'docs/edit/c.md': '# C\n',
        'docs/edit/d.md': '# D\n',
        'docs/gone/only.md': '# Only\n',
      },
      'base',
    );
    const repository = await open(name, { projectDirectory: 'docs/' });
    expect(await repository.fetchBranch('refs/heads/main')).toBe(base);
    const edited = await repository.writeBlob(Buffer.from('# C, edited\n'));
    const added = await repository.writeBlob(Buffer.from('# New\n'));
    expect(edited).toBe(blobOid(Buffer.from('# C, edited\n')));
    expect(text(await repository.readBlob(edited))).toBe('# C, edited\n'); // a loose object written by this operation
    const commit = await repository.writeCommit({
      parent: base,
      changes: new Map([
        ['edit/c.md', { oid: edited }],
        ['new/page.md', { oid: added }],
        ['gone/only.md', null],
        ['never-existed.md', null],
      ]),
      message: 'Edit from quire',
      author: person('Ada Writer'),
      committer: person('Quire Bot'),
    });
    expect(await repository.push('refs/heads/main', commit)).toBe('ok');

    expect(await branchTip(server, name, 'main')).toBe(commit);
    const [latest] = await log(server, name, 'main');
    expect(latest).toEqual({ oid: commit, parents: [base], author: 'Ada Writer <ada.writer@example.com>', committer: 'Quire Bot <quire.bot@example.com>', message: 'Edit from quire' });
    for (const kept of ['README.md', 'src', 'docs/README.md', 'docs/keep', 'docs/keep/deep', 'docs/edit/d.md']) {
      expect(await revParse(server, name, `main:${kept}`), kept).toBe(await revParse(server, name, `${base}:${kept}`));
    }
    const files = await readFiles(server, name, 'main');
    expect(Object.keys(files).sort()).toEqual(['README.md', 'docs/README.md', 'docs/edit/c.md', 'docs/edit/d.md', 'docs/keep/a.md', 'docs/keep/deep/b.md', 'docs/new/page.md', 'src/index.ts']);
    expect(files['docs/edit/c.md'].toString()).toBe('# C, edited\n');
    // The folder whose last file was deleted is gone; git itself finds the repository sound.
    await expect(revParse(server, name, 'main:docs/gone')).rejects.toThrow();
    await runGit(['--git-dir', bareDir(server, name), 'fsck', '--strict', '--no-dangling']);
  });

  it('creates the branch on an empty repository with a root commit', async () => {
    const name = await newRepo();
    const repository = await open(name, { projectDirectory: 'site/docs/' });
    expect(await repository.fetchBranch('refs/heads/main')).toBeNull();
    const readme = await repository.writeBlob(Buffer.from('# Hello\n'));
    const commit = await repository.writeCommit({
      parent: null,
      changes: new Map([['README.md', { oid: readme }]]),
      message: 'First export',
      author: person('Ada Writer'),
      committer: person('Quire Bot'),
    });
    expect(await repository.push('refs/heads/main', commit)).toBe('ok');
    expect(Object.keys(await readFiles(server, name, 'main'))).toEqual(['site/docs/README.md']);
    expect((await log(server, name, 'main'))[0].parents).toEqual([]);
  });

  it('creates a missing branch of a repository that has others', async () => {
    const name = await newRepo();
    const base = await commitFiles(server, name, 'main', { 'a.md': 'a' }, 'first');
    const repository = await open(name);
    expect(await repository.fetchBranch('refs/heads/main')).toBe(base);
    const blob = await repository.writeBlob(Buffer.from('b'));
    const commit = await repository.writeCommit({ parent: base, changes: new Map([['b.md', { oid: blob }]]), message: 'branch', author: person('A'), committer: person('B') });
    expect(await repository.push('refs/heads/quire/export', commit)).toBe('ok');
    expect(await branchTip(server, name, 'quire/export')).toBe(commit);
    expect(await branchTip(server, name, 'main')).toBe(base);
  });

  it('answers rejected when the remote branch moved, and force-pushes over it when asked', async () => {
    const name = await newRepo();
    const base = await commitFiles(server, name, 'main', { 'a.md': 'a', 'b.md': 'b' }, 'base');
    const repository = await open(name);
    await repository.fetchBranch('refs/heads/main');
    const moved = await commitFiles(server, name, 'main', { 'b.md': 'b, upstream' }, 'upstream edit');
    const blob = await repository.writeBlob(Buffer.from('a, quire'));
    const commit = await repository.writeCommit({ parent: base, changes: new Map([['a.md', { oid: blob }]]), message: 'quire edit', author: person('A'), committer: person('B') });

    expect(await repository.push('refs/heads/main', commit)).toBe('rejected');
    expect(await branchTip(server, name, 'main')).toBe(moved);

    expect(await repository.push('refs/heads/main', commit, { force: true })).toBe('ok');
    expect(await branchTip(server, name, 'main')).toBe(commit);
  });

  it('fetches again after a rejection and pushes on top of the new tip', async () => {
    const name = await newRepo();
    const base = await commitFiles(server, name, 'main', { 'a.md': 'a', 'b.md': 'b' }, 'base');
    const repository = await open(name);
    await repository.fetchBranch('refs/heads/main');
    const blob = await repository.writeBlob(Buffer.from('a, quire'));
    const commit = (parent: string) =>
      repository.writeCommit({ parent, changes: new Map([['a.md', { oid: blob }]]), message: 'quire edit', author: person('A'), committer: person('B') });
    const moved = await commitFiles(server, name, 'main', { 'b.md': 'b, upstream' }, 'upstream edit');
    expect(await repository.push('refs/heads/main', await commit(base))).toBe('rejected');

    expect(await repository.fetchBranch('refs/heads/main')).toBe(moved);
    const onTop = await commit(moved);
    expect(await repository.push('refs/heads/main', onTop)).toBe('ok');
    expect((await log(server, name, 'main')).map((entry) => entry.oid)).toEqual([onTop, moved, base]);
    const files = await readFiles(server, name, 'main');
    expect([files['a.md'].toString(), files['b.md'].toString()]).toEqual(['a, quire', 'b, upstream']);
  });

  it("answers rejected when the branch moves between the push's discovery and its upload", async () => {
    const name = await newRepo();
    const base = await commitFiles(server, name, 'main', { 'a.md': 'a' }, 'base');
    const repository = await open(name);
    await repository.fetchBranch('refs/heads/main');
    const blob = await repository.writeBlob(Buffer.from('a, quire'));
    const commit = await repository.writeCommit({ parent: base, changes: new Map([['a.md', { oid: blob }]]), message: 'quire edit', author: person('A'), committer: person('B') });
    let moved: string | null = null;
    server.intercept = async (req) => {
      if (req.method === 'POST' && req.url?.endsWith('/git-receive-pack') && !moved) {
        moved = await commitFiles(server, name, 'main', { 'other.md': 'another pusher' }, 'raced');
      }
      return false;
    };
    try {
      expect(await repository.push('refs/heads/main', commit)).toBe('rejected');
    } finally {
      server.intercept = null;
    }
    expect(moved).not.toBeNull();
    expect(await branchTip(server, name, 'main')).toBe(moved);
  });

  it('refuses to write a file over a folder, a folder over a file, or one path as both', async () => {
    const name = await newRepo();
    const base = await commitFiles(server, name, 'main', { 'guide/a.md': 'a', 'page.md': 'p' }, 'base');
    const repository = await open(name);
    await repository.fetchBranch('refs/heads/main');
    const blob = await repository.writeBlob(Buffer.from('x'));
    for (const changes of [{ guide: blob }, { 'page.md/child.md': blob }, { 'x.md': blob, 'x.md/y.md': blob }]) {
      const error = await gitFailure(
        repository.writeCommit({
          parent: base,
          changes: new Map(Object.entries(changes).map(([file, oid]) => [file, { oid }])),
          message: 'x',
          author: person('A'),
          committer: person('B'),
        }),
      );
      expect(error.code, Object.keys(changes).join()).toBe('GIT_UNSAFE_TREE');
    }
  });

  it('refuses to write a path that escapes the project directory', async () => {
    const name = await newRepo();
    const repository = await open(name, { projectDirectory: 'docs/' });
    const blob = await repository.writeBlob(Buffer.from('x'));
    for (const bad of ['../escape.md', '/abs.md', 'a/.git/config', 'a//b.md']) {
      const error = await gitFailure(
        repository.writeCommit({ parent: null, changes: new Map([[bad, { oid: blob }]]), message: 'x', author: person('A'), committer: person('B') }),
      );
      expect(error.code, bad).toBe('GIT_UNSAFE_TREE');
    }
  });
});

describe('credentials and addresses', () => {
  it('fails with GIT_AUTH_FAILED on a wrong password, with no credentials in the message', async () => {
    const name = await newRepo();
    await commitFiles(server, name, 'main', { 'a.md': 'a' }, 'first');
    const wrong = `http://${USER}:not-the-password-42@127.0.0.1:${server.port}/${name}.git`;
    const error = await gitFailure((await open(name, { url: wrong })).fetchBranch('refs/heads/main'));
    expect(error.code).toBe('GIT_AUTH_FAILED');
    expect(error.message).toContain(server.plainUrl(name));
    expect(error.message).not.toMatch(/not-the-password-42|quire-bot|Error:/);

    const none = await gitFailure((await open(name, { url: server.plainUrl(name) })).fetchBranch('refs/heads/main'));
    expect(none.code).toBe('GIT_AUTH_FAILED');
    expect(none.message).toMatch(/asks for a user name and password/);
  });

  it("sends the credentials as basic auth, never in a URL nor in the repository's config", async () => {
    const name = await newRepo();
    await commitFiles(server, name, 'main', { 'a.md': 'a' }, 'first');
    const before = server.requests.length;
    const repository = await open(name);
    await repository.fetchBranch('refs/heads/main');
    const requests = server.requests.slice(before);
    expect(requests.some((request) => request.authorized)).toBe(true);
    expect(requests.every((request) => !request.path.includes(USER))).toBe(true);
    for (const folder of await readdir(tempRoot)) {
      const config = await readFile(path.join(tempRoot, folder, 'config'), 'utf8').catch(() => '');
      expect(config).not.toContain(PASSWORD);
      expect(config).not.toContain(USER);
    }
  });

  it('refuses a private address unless private networks are allowed, before any request', async () => {
    const name = await newRepo();
    const before = server.requests.length;
    const error = await gitFailure((await open(name, { allowPrivateNetworks: false })).fetchBranch('refs/heads/main'));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(error.message).toMatch(/127\.0\.0\.1 is a private or otherwise non-public address; git sync only reaches public addresses/);
    expect(server.requests.length).toBe(before);
  });

  it("checks a redirect's target again: a redirect to a private address is refused", async () => {
    const name = await newRepo();
    addressPolicy.loopbackIsPublic = true;
    server.intercept = (req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${server.port}${req.url}` }).end();
      return true;
    };
    try {
      const error = await gitFailure((await open(name, { allowPrivateNetworks: false })).fetchBranch('refs/heads/main'));
      expect(error.code).toBe('BLOCKED_ADDRESS');
      expect(error.message).toMatch(/^127\.0\.0\.2 is a private/);
    } finally {
      server.intercept = null;
      addressPolicy.loopbackIsPublic = false;
    }
  });

  it('never forwards the credentials to another origin on a redirect', async () => {
    const name = await newRepo();
    await commitFiles(server, name, 'main', { 'a.md': 'a' }, 'first');
    const before = server.requests.length;
    server.intercept = (req, res) => {
      if (req.headers.host?.startsWith('localhost')) return false;
      res.writeHead(307, { location: `http://localhost:${server.port}${req.url}` }).end();
      return true;
    };
    try {
      const error = await gitFailure((await open(name)).fetchBranch('refs/heads/main'));
      expect(error.code).toBe('GIT_AUTH_FAILED');
    } finally {
      server.intercept = null;
    }
    const requests = server.requests.slice(before);
    expect(requests.some((request) => request.host.startsWith('127.0.0.1') && request.authorization)).toBe(true);
    const redirected = requests.filter((request) => request.host.startsWith('localhost'));
    expect(redirected.length).toBeGreaterThan(0);
    expect(redirected.every((request) => !request.authorization)).toBe(true);
  });

  it('follows a redirect within the same origin, re-sending a POST with its body and credentials', async () => {
    const name = await newRepo();
    const tip = await commitFiles(server, name, 'main', { 'a.md': 'a' }, 'first');
    server.intercept = (req, res) => {
      if (!req.url?.startsWith('/moved.git/')) return false;
      res.writeHead(req.method === 'POST' ? 308 : 301, { location: req.url.replace('/moved.git/', `/${name}.git/`) }).end();
      return true;
    };
    const before = server.requests.length;
    try {
      const moved = `http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${server.port}/moved.git`;
      expect(await (await open(name, { url: moved })).fetchBranch('refs/heads/main')).toBe(tip);
    } finally {
      server.intercept = null;
    }
    expect(server.requests.slice(before).some((request) => request.method === 'POST' && request.path === `/${name}.git/git-upload-pack`)).toBe(true);
  });
});

describe('hostile trees', () => {
  async function hostileCommit(name: string, entries: { mode: string; name: string; content?: string; oid?: string }[]): Promise<string> {
    const written = await Promise.all(
      entries.map(async (entry) => ({ mode: entry.mode, name: entry.name, oid: entry.oid ?? (await hashObject(server, name, entry.content ?? '')) })),
    );
    const docs = await writeRawTree(server, name, written);
    const root = await writeRawTree(server, name, [{ mode: '40000', name: 'docs', oid: docs }]);
    return commitTree(server, name, 'main', root, 'hostile');
  }

  async function listFailure(name: string, tip: string): Promise<GitError> {
    const repository = await open(name, { projectDirectory: 'docs/' });
    expect(await repository.fetchBranch('refs/heads/main')).toBe(tip);
    return gitFailure(repository.listTree(tip));
  }

  it.each([
    ['a symlink', [{ mode: '120000', name: 'link.md', content: '/etc/passwd' }], 'docs/link.md', /symbolic link/],
    ['a submodule', [{ mode: '160000', name: 'vendor', oid: 'a'.repeat(40) }], 'docs/vendor', /submodule/],
    ['a .git folder', [{ mode: '100644', name: '.GIT', content: 'x' }], 'docs/.GIT', /\.git/],
    ['a .. entry', [{ mode: '100644', name: '..', content: 'x' }], 'docs/..', /not a valid file name/],
  ])('refuses %s, naming the path', async (_what, entries, named, reason) => {
    const name = await newRepo();
    const tip = await hostileCommit(name, entries);
    const error = await listFailure(name, tip);
    expect(error.code).toBe('GIT_UNSAFE_TREE');
    expect(error.message).toContain(JSON.stringify(named));
    expect(error.message).toMatch(reason);
  });

  it('refuses two paths equal ignoring case', async () => {
    const name = await newRepo();
    const tip = await commitFiles(server, name, 'main', { 'docs/Guide/a.md': 'a', 'docs/guide/b.md': 'b' }, 'case');
    const error = await listFailure(name, tip);
    expect(error.code).toBe('GIT_UNSAFE_TREE');
    expect(error.message).toMatch(/"docs\/guide" has the same name as "docs\/Guide" ignoring case/);
  });

  it('refuses a symlink in place of the project directory', async () => {
    const name = await newRepo();
    const link = await hashObject(server, name, '/etc');
    const tip = await commitTree(server, name, 'main', await writeRawTree(server, name, [{ mode: '120000', name: 'docs', oid: link }]), 'link');
    expect((await listFailure(name, tip)).code).toBe('GIT_UNSAFE_TREE');
  });
});

describe('caps', () => {
  it('stops at maxEntries', async () => {
    const name = await newRepo();
    const tip = await commitFiles(server, name, 'main', Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}.md`, `${i}`])), 'many');
    const repository = await open(name, { limits: { maxEntries: 10 } });
    await repository.fetchBranch('refs/heads/main');
    const error = await gitFailure(repository.listTree(tip));
    expect(error.code).toBe('GIT_TOO_LARGE');
    expect(error.message).toMatch(/maxEntries/);
  });

  it('stops at maxBlobBytes, and at maxTotalBytes of blobs read', async () => {
    const name = await newRepo();
    await commitFiles(server, name, 'main', { 'big.md': 'x'.repeat(3_000), 'a.md': 'a'.repeat(1_500), 'b.md': 'b'.repeat(1_500) }, 'sizes');
    const repository = await open(name, { limits: { maxBlobBytes: 2_000, maxTotalBytes: 2_500 } });
    const tip = (await repository.fetchBranch('refs/heads/main'))!; // what the server sends compresses well: under 2,500 bytes
    const entries = new Map((await repository.listTree(tip)).map((entry) => [entry.path, entry.oid]));
    const big = await gitFailure(repository.readBlob(entries.get('big.md')!));
    expect(big.code).toBe('GIT_TOO_LARGE');
    expect(big.message).toMatch(/maxBlobBytes/);
    expect(text(await repository.readBlob(entries.get('a.md')!))).toBe('a'.repeat(1_500));
    const total = await gitFailure(repository.readBlob(entries.get('b.md')!));
    expect(total.code).toBe('GIT_TOO_LARGE');
    expect(total.message).toMatch(/files read from the repository exceed 2.4 KB in total \(maxTotalBytes\)/);
  });

  it('stops a transfer at maxTotalBytes', async () => {
    const name = await newRepo();
    await commitFiles(server, name, 'main', { 'noise.bin': randomBytes(20_000) }, 'incompressible');
    const error = await gitFailure((await open(name, { limits: { maxTotalBytes: 10_000 } })).fetchBranch('refs/heads/main'));
    expect(error.code).toBe('GIT_TOO_LARGE');
    expect(error.message).toMatch(/sent more than 9\.8 KB \(maxTotalBytes\)/);
    expect(await (await open(name, { limits: { maxTotalBytes: 100_000 } })).fetchBranch('refs/heads/main')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('times out a server that does not answer, and stops when the job is cancelled', async () => {
    const name = await newRepo();
    server.intercept = () => true; // never answers
    try {
      const error = await gitFailure((await open(name, { limits: { requestTimeoutMs: 300 } })).fetchBranch('refs/heads/main'));
      expect(error.code).toBe('FETCH_TIMEOUT');
      const total = await gitFailure((await open(name, { limits: { totalTimeMs: 300 } })).fetchBranch('refs/heads/main'));
      expect(total.code).toBe('FETCH_TIMEOUT');
      expect(total.message).toMatch(/did not finish within 0\.3 s/);
      const controller = new AbortController();
      const pending = (await open(name, { signal: controller.signal })).fetchBranch('refs/heads/main');
      setTimeout(() => controller.abort(), 100);
      expect((await gitFailure(pending)).code).toBe('CANCELLED');
    } finally {
      server.intercept = null;
    }
  });
});

describe('the general safe request', () => {
  const request = (options: { idleTimeoutMs?: number; allowPrivateNetworks?: boolean } = {}) =>
    createSafeRequest({ idleTimeoutMs: options.idleTimeoutMs ?? 2_000, allowPrivateNetworks: options.allowPrivateNetworks ?? true });
  const at = (route: string) => `http://127.0.0.1:${server.port}${route}`;

  const importFailure = (promise: Promise<unknown>) => rejection(promise, ImportError);

  async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }

  it('sends a body with its length and streams the answer', async () => {
    server.intercept = async (req, res) => {
      const body = await readAll(req);
      res.writeHead(200, { 'content-type': 'text/plain', 'x-length': req.headers['content-length'] ?? '' }).end(`got ${body}`);
      return true;
    };
    try {
      const response = await request()({ url: at('/echo'), method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: Buffer.from('hello') });
      expect(response.status).toBe(200);
      expect(response.headers['x-length']).toBe('5');
      expect(await readAll(response.body)).toBe('got hello');
    } finally {
      server.intercept = null;
    }
  });

  it('refuses a 303 that would turn a POST into a GET, other schemes, and private addresses unless allowed', async () => {
    server.intercept = (_req, res) => {
      res.writeHead(303, { location: '/elsewhere' }).end();
      return true;
    };
    try {
      expect((await importFailure(request()({ url: at('/post'), method: 'POST', body: Buffer.from('x') }))).message).toMatch(/redirects a POST request to a GET/);
    } finally {
      server.intercept = null;
    }
    expect((await importFailure(request()({ url: 'file:///etc/passwd', method: 'GET' }))).code).toBe('FETCH_ERROR');
    expect((await importFailure(request({ allowPrivateNetworks: false })({ url: at('/x'), method: 'GET' }))).code).toBe('BLOCKED_ADDRESS');
  });

  it('times out a body that stops arriving', async () => {
    server.intercept = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first bytes, then nothing');
      return true;
    };
    try {
      const response = await request({ idleTimeoutMs: 300 })({ url: at('/slow'), method: 'GET' });
      expect((await importFailure(readAll(response.body))).code).toBe('FETCH_TIMEOUT');
    } finally {
      server.intercept = null;
    }
  });
});
