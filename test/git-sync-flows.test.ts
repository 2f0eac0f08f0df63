/**
 * Git sync's harder paths (issue 24): a branch that moves while an export pushes, renames that
 * keep page IDs, a page that gains children, a first export that creates its branch in a
 * monorepo's project directory leaving the rest untouched, hostile trees and broken layouts
 * named by file and line, `timestamp` ordering, `standalone`, GraphQL, events, and who may sync.
 */
import { describe, expect, it } from 'vitest';
import { gqlOk, http } from './helpers/clients.js';
import { createActor } from './helpers/factories.js';
import { useGitSync } from './support/git-sync-client.js';
import { bareDir, branchTip, commitFiles, hashObject, log, readFiles, writeRawTree, commitTree } from './support/git-repo.js';
import { gitText } from './support/git-cli.js';

const { server, git, setup, settled, sync, pages, edit } = useGitSync({ password: 'pw-flows' });

const BASE: Record<string, string> = {
  'README.md': '# Home\n\nWelcome.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Setup](setup.md)\n* [Usage](usage.md)\n',
  'setup.md': '# Setup\n\nInstall the tool.\n\nThen configure it.\n',
  'usage.md': '# Usage\n\nRun it.\n',
};

const names = async (name: string, from: string, to: string) => (await gitText(bareDir(git, name), ['diff', '--no-renames', '--name-status', from, to])).split('\n').filter(Boolean).sort();

describe('git sync flows', () => {
  it('merges a branch that moved since the last sync before pushing on top of it, never forcing', async () => {
    const { owner, space, api } = await setup('moved');
    await commitFiles(git, 'moved', 'main', BASE, 'Docs');
    const url = git.url('moved');
    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    const usage = (await pages(owner.token, space.id)).find((p) => p.title === 'Usage');
    await edit(api, space.id, [{ operation: 'update_page', page: usage.id, document: { markdown: '# Usage\n\nRun it with care.\n' } }]);
    const upstream = await commitFiles(git, 'moved', 'main', { 'setup.md': '# Setup\n\nInstall the tool twice.\n\nThen configure it.\n' }, 'Upstream');

    const info = await sync(owner.token, space.id, 'export', { url, ref: 'refs/heads/main', commitMessage: 'From quire' });
    expect(info.operation.state).toBe('success');
    const [head] = await log(git, 'moved', 'main');
    expect(head!.parents).toEqual([upstream]);
    expect(await names('moved', upstream, head!.oid)).toEqual(['M\tusage.md']);
    const files = await readFiles(git, 'moved', 'main');
    expect(files['setup.md']!.toString()).toContain('twice');
    expect(files['usage.md']!.toString()).toContain('with care');
    // The space has the upstream edit too.
    const setupPage = (await pages(owner.token, space.id)).find((p) => p.title === 'Setup');
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/page/${setupPage.id}?format=markdown`)).body.markdown).toContain('twice');
  });

  it('retries a push refused because the branch moved during the export', async () => {
    const { owner, space, api } = await setup('race');
    await commitFiles(git, 'race', 'main', BASE, 'Docs');
    const url = git.url('race');
    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    const usage = (await pages(owner.token, space.id)).find((p) => p.title === 'Usage');
    await edit(api, space.id, [{ operation: 'update_page', page: usage.id, document: { markdown: '# Usage\n\nRun it fast.\n' } }]);
    // The first push of the export finds another commit landed just before it.
    let raced = false;
    git.intercept = async (req) => {
      if (!raced && req.method === 'POST' && req.url?.includes('git-receive-pack')) {
        raced = true;
        await commitFiles(git, 'race', 'main', { 'README.md': '# Home\n\nWelcome, racer.\n' }, 'Racer');
      }
      return false;
    };
    try {
      const info = await sync(owner.token, space.id, 'export', { url, ref: 'refs/heads/main', commitMessage: 'From quire' });
      expect(info.operation.state).toBe('success');
    } finally {
      git.intercept = null;
    }
    expect(raced).toBe(true);
    const files = await readFiles(git, 'race', 'main');
    expect(files['README.md']!.toString()).toContain('racer');
    expect(files['usage.md']!.toString()).toContain('fast');
    const [head, racer] = await log(git, 'race', 'main');
    expect(head!.parents).toEqual([racer!.oid]);
  });

  it('keeps page IDs across renames and moves a page that gained children to its README without leaving the old file', async () => {
    const { owner, space, api } = await setup('renames');
    await commitFiles(git, 'renames', 'main', BASE, 'Docs');
    const url = git.url('renames');
    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    const before = await pages(owner.token, space.id);
    const setupId = before.find((p) => p.title === 'Setup').id;
    // Upstream renames setup.md to install.md (same blob).
    await commitFiles(git, 'renames', 'main', { 'setup.md': null, 'install.md': BASE['setup.md']!, 'SUMMARY.md': BASE['SUMMARY.md']!.replace('setup.md', 'install.md') }, 'Rename');
    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    const renamed = (await pages(owner.token, space.id)).find((p) => p.title === 'Setup');
    expect(renamed.id).toBe(setupId);
    expect(renamed.slug).toBe('install');

    // Renamed and edited (not the same blob): recognized by its text.
    await commitFiles(git, 'renames', 'main', { 'install.md': null, 'installing.md': '# Setup\n\nInstall the tool.\n\nThen configure it, carefully.\n', 'SUMMARY.md': BASE['SUMMARY.md']!.replace('setup.md', 'installing.md') }, 'Rename and edit');
    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    const edited = (await pages(owner.token, space.id)).find((p) => p.title === 'Setup');
    expect(edited.id).toBe(setupId);
    expect(edited.slug).toBe('installing');

    // In quire, Usage gains a child: usage.md becomes usage/README.md.
    const usage = (await pages(owner.token, space.id)).find((p) => p.title === 'Usage');
    await edit(api, space.id, [{ operation: 'insert_page', into: usage.id, title: 'Advanced', slug: 'advanced', document: { markdown: '# Advanced\n\nMore.\n' } }]);
    const tip = await branchTip(git, 'renames', 'main');
    await sync(owner.token, space.id, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Children' });
    const files = await readFiles(git, 'renames', 'main');
    expect(files['usage.md']).toBeUndefined();
    expect(files['usage/README.md']!.toString()).toBe(BASE['usage.md']);
    expect(files['usage/advanced.md']!.toString()).toContain('More.');
    expect(files['SUMMARY.md']!.toString()).toContain('usage/README.md');
    expect(await names('renames', tip!, (await branchTip(git, 'renames', 'main'))!)).toEqual(['A\tusage/README.md', 'A\tusage/advanced.md', 'D\tusage.md', 'M\tSUMMARY.md']);
  });

  it('creates the branch on a first export into a project directory, leaving files outside it untouched', async () => {
    const { owner, space, api } = await setup('mono');
    const other = await commitFiles(git, 'mono', 'main', { 'src/index.js': 'console.log(1)\n', 'README.md': '# The app\n' }, 'App');
    await edit(api, space.id, [{ operation: 'insert_page', title: 'Intro', slug: 'intro', document: { markdown: '# Intro\n\nHello.\n' } }]);
    const url = git.url('mono');
    const info = await sync(owner.token, space.id, 'export', { url, ref: 'refs/heads/docs', repoProjectDirectory: '/docs/', commitMessage: 'Docs from quire' });
    expect(info.operation.state).toBe('success');
    expect(await branchTip(git, 'mono', 'docs')).toBeTruthy();
    expect(await branchTip(git, 'mono', 'main')).toBe(other);
    const files = await readFiles(git, 'mono', 'docs');
    expect(Object.keys(files).sort()).toEqual(['docs/README.md', 'docs/SUMMARY.md']);
    expect(files['docs/README.md']!.toString()).toContain('Hello.');

    // The same space exporting to main's docs/ keeps main's other files.
    await sync(owner.token, space.id, 'export', { url, ref: 'refs/heads/main', repoProjectDirectory: 'docs', commitMessage: 'Docs' });
    const main = await readFiles(git, 'mono', 'main');
    expect(main['src/index.js']!.toString()).toBe('console.log(1)\n');
    expect(main['README.md']!.toString()).toBe('# The app\n');
    expect(main['docs/README.md']!.toString()).toContain('Hello.');
  });

  it('refuses hostile trees and names the file and line of a broken layout; the next operation starts clean', async () => {
    const { owner, space } = await setup('hostile');
    const url = git.url('hostile');
    const target = await hashObject(git, 'hostile', '/etc/passwd');
    const readme = await hashObject(git, 'hostile', '# Home\n');
    const tree = await writeRawTree(git, 'hostile', [
      { mode: '100644', name: 'README.md', oid: readme },
      { mode: '120000', name: 'secrets.md', oid: target },
    ]);
    await commitTree(git, 'hostile', 'main', tree, 'Symlink');
    let info = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('failure');
    expect(info.operation.error).toContain('secrets.md');

    await commitFiles(git, 'hostile', 'main', { 'secrets.md': null, 'SUMMARY.md': '# Contents\n\n* [Home](README.md)\n* [Gone](gone.md)\n' }, 'Broken summary');
    info = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('failure');
    expect(info.operation.error).toMatch(/SUMMARY\.md:4/);

    await commitFiles(git, 'hostile', 'main', { 'SUMMARY.md': '# Contents\n\n* [Home](README.md)\n' }, 'Fixed');
    info = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('success');
    expect((await pages(owner.token, space.id)).map((p) => p.title)).toEqual(['Home']);

    // A SUMMARY.md past the layout files' cap (read on the event loop) is refused, not parsed.
    await commitFiles(git, 'hostile', 'main', { 'SUMMARY.md': `# Contents\n\n${'  '.repeat(2).concat('* [Home](README.md)\n').repeat(250_000)}` }, 'Huge summary');
    info = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('failure');
    expect(info.operation.error).toContain('SUMMARY.md');
  });

  it('drops an import older than the last applied; standalone writes a revision that is not the content', async () => {
    const { owner, space } = await setup('order');
    await commitFiles(git, 'order', 'main', BASE, 'Docs');
    const url = git.url('order');
    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main', timestamp: '2026-11-20T10:00:00Z' });
    await commitFiles(git, 'order', 'main', { 'usage.md': '# Usage\n\nNewer.\n' }, 'Newer');
    const revision = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}`)).body.revision;
    const older = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main', timestamp: '2026-11-19T10:00:00Z' });
    expect(older.operation.state).toBe('success');
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}`)).body.revision).toBe(revision);

    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main', standalone: true });
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}`)).body.revision).toBe(revision);
    const job = await server.db.job.findFirst({ where: { spaceId: space.id, kind: 'git_import' }, orderBy: { createdAt: 'desc' } });
    const standalone = (job!.result as { revisionId: string }).revisionId;
    const read = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/revisions/${standalone}/page/${(await pages(owner.token, space.id)).find((p) => p.title === 'Usage').id}?format=markdown`);
    expect(read.body.markdown).toContain('Newer.');
  });

  it('propagates deletions both ways through the public SDK, and runs queued operations of a space one at a time in order', async () => {
    const { owner, space, api } = await setup('deletions');
    await commitFiles(git, 'deletions', 'main', { ...BASE, 'notes.txt': 'not docs\n' }, 'Docs');
    const url = git.url('deletions');
    // Queued back to back: the export waits for the import.
    await api.spaces.importGitRepository(space.id, { url, ref: 'refs/heads/main' });
    await api.spaces.exportToGitRepository(space.id, { url, ref: 'refs/heads/main', commitMessage: 'Nothing new' });
    const info = await settled(owner.token, space.id);
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    expect((await api.spaces.getSpaceGitInfo(space.id)).data).toMatchObject({ repoName: 'deletions', installationStatus: 'active' });
    const jobs = await server.db.job.findMany({ where: { spaceId: space.id }, orderBy: { createdAt: 'asc' }, select: { kind: true, state: true, startedAt: true, finishedAt: true } });
    expect(jobs.map((j) => [j.kind, j.state])).toEqual([['git_import', 'succeeded'], ['git_export', 'succeeded']]);
    expect(jobs[1]!.startedAt!.getTime()).toBeGreaterThanOrEqual(jobs[0]!.finishedAt!.getTime());

    // Deleted in quire: only its file goes (notes.txt, which quire never wrote, stays).
    const usage = (await pages(owner.token, space.id)).find((p) => p.title === 'Usage');
    await edit(api, space.id, [{ operation: 'delete_page', page: usage.id }]);
    const tip = await branchTip(git, 'deletions', 'main');
    await sync(owner.token, space.id, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Remove usage' });
    expect(await names('deletions', tip!, (await branchTip(git, 'deletions', 'main'))!)).toEqual(['D\tusage.md', 'M\tSUMMARY.md']);
    expect((await readFiles(git, 'deletions', 'main'))['notes.txt']!.toString()).toBe('not docs\n');

    // Deleted upstream: the page goes from the space.
    await commitFiles(git, 'deletions', 'main', { 'setup.md': null, 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n' }, 'Remove setup');
    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect((await pages(owner.token, space.id)).map((p) => p.title)).toEqual(['Home']);
  });

  it('GraphQL: mutations answer the job, Space.gitSync, events; readers may not sync and triggerGitSync says so', async () => {
    const { org, owner, space } = await setup('graph');
    await commitFiles(git, 'graph', 'main', BASE, 'Docs');
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const denied = await http(server.url, reader.token, 'POST', `/spaces/${space.id}/git/import`, { url: git.url('graph'), ref: 'refs/heads/main' });
    expect(denied.status).toBe(403);
    const flags = async (token: string) => (await http(server.url, token, 'GET', `/spaces/${space.id}`)).body.permissions.triggerGitSync;
    expect(await flags(reader.token)).toBe(false);
    expect(await flags(owner.token)).toBe(true);

    const started = await gqlOk(server.url, owner.token, `mutation($s: ID!, $i: ImportGitRepositoryInput!) { importGitRepository(spaceId: $s, input: $i) { id kind } }`, {
      s: space.id,
      i: { url: git.url('graph'), ref: 'refs/heads/main' },
    });
    expect(started.importGitRepository.kind).toBe('git_import');
    await settled(owner.token, space.id);
    const state = await gqlOk(server.url, owner.token, `query($id: ID!) { space(id: $id) { gitSync { url repoName operation { state direction } } } }`, { id: space.id });
    expect(state.space.gitSync).toEqual({ url: git.plainUrl('graph'), repoName: 'graph', operation: { state: 'success', direction: 'import' } });
    const events = await server.db.outboxEvent.findMany({ where: { subjectId: space.id, kind: { in: ['spaceGitSyncStarted', 'spaceGitSyncCompleted'] } }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.kind)).toEqual(['spaceGitSyncStarted', 'spaceGitSyncCompleted']);
    expect(events[1]!.data).toMatchObject({ direction: 'import', state: 'success' });
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain('pw-flows');

    // Pointing the space at another repository is the space's configuration (admin).
    const editor = await createActor(server.db, { org: org.id, role: 'edit' });
    await git.createRepo('graph-other');
    const retarget = await http(server.url, editor.token, 'POST', `/spaces/${space.id}/git/import`, { url: git.url('graph-other'), ref: 'refs/heads/main' });
    expect(retarget.status).toBe(403);
    const same = await http(server.url, editor.token, 'POST', `/spaces/${space.id}/git/import`, { url: git.url('graph'), ref: 'refs/heads/main' });
    expect(same.status).toBe(204);
    await settled(owner.token, space.id);
  });
});
