/**
 * Git sync end to end (issue 24), against git's own smart-HTTP server (test/support/git-server.ts)
 * with basic auth: import of a repository in the platform's layout, export of one edit with
 * nothing else in the commit changed, both sides editing different pages, the same block edited
 * on both sides parked in a change request, credentials never shown, another organization's token.
 */
import { describe, expect, it } from 'vitest';
import { gqlOk, http, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useGitSync } from './support/git-sync-client.js';
import { bareDir, commitFiles, log, readFiles } from './support/git-repo.js';
import { gitText } from './support/git-cli.js';

const PASSWORD = 's3cret-pass';
const { server, git, setup, sync, pages, edit } = useGitSync({ password: PASSWORD });

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const LAYOUT: Record<string, string | Uint8Array> = {
  'README.md': '# Welcome\n\nStart with the [install guide](guide/install.md#steps).\n',
  'SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](README.md)',
    '',
    '## Guides',
    '',
    '* [Guide](guide/README.md)',
    '  * [Install](guide/install.md)',
    '  * [Configure](guide/configure.md)',
    '* [FAQ](faq.md)',
    '',
  ].join('\n'),
  'guide/README.md': '---\ndescription: All the guides\n---\n\n# Guide\n\nRead on.\n',
  'guide/install.md': '# Install\n\n## Steps\n\nRun it.\n\n![logo](../.gitbook/assets/logo.png)\n\n{% include "../.gitbook/includes/note.md" %}\n',
  'guide/configure.md': '# Configure\n\nFirst paragraph.\n\nSecond paragraph.\n',
  'faq.md': '# FAQ\n\nAsk [us](README.md).\n',
  '.gitbook/assets/logo.png': PNG,
  '.gitbook/includes/note.md': '---\ntitle: Note\n---\n\nA shared note.\n',
};

/** Replaces one page's markdown through a change request, merged. */
const editPage = (api: ReturnType<typeof sdk>, spaceId: string, pageId: string, markdown: string) =>
  edit(api, spaceId, [{ operation: 'update_page', page: pageId, document: { markdown } }]);

const changedFiles = async (name: string, from: string, to: string) => (await gitText(bareDir(git, name), ['diff', '--name-only', from, to])).split('\n').filter(Boolean).sort();

describe('git sync', () => {
  it('imports a repository in the platform layout: groups, nesting, README pages, assets, includes, front matter, links', async () => {
    const { owner, space } = await setup('layout');
    const commit = await commitFiles(git, 'layout', 'main', LAYOUT, 'Docs');
    const info = await sync(owner.token, space.id, 'import', { url: git.url('layout'), ref: 'refs/heads/main', repoCommitURL: 'https://git.example/layout/commit' });
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(info).toMatchObject({ installationId: space.id, installationProvider: 'gitlab', installationStatus: 'active', provider: 'git', repoName: 'layout', commitId: commit });
    expect(JSON.stringify(info)).not.toContain(PASSWORD);
    expect(info.url).toBe(git.plainUrl('layout'));

    const all = await pages(owner.token, space.id);
    expect(all.map((p) => [p.title, p.type, p.path])).toEqual([
      ['Welcome', 'document', 'welcome'],
      ['Guides', 'group', 'guides'],
      ['Guide', 'document', 'guides/guide'],
      ['Install', 'document', 'guides/guide/install'],
      ['Configure', 'document', 'guides/guide/configure'],
      ['FAQ', 'document', 'guides/faq'],
    ]);
    expect(all.find((p) => p.title === 'Guide').description).toBe('All the guides');

    const gqlPages = await gqlOk(server.url, owner.token, `query($id: ID!) { space(id: $id) { gitSync { commitId } revision { git { oid createdByGitBook url ref } allPages { title git { path oid } } files { edges { node { name git { path } } } } reusableContents { title git { path } } } } }`, { id: space.id });
    const revision = gqlPages.space.revision;
    expect(revision.git).toEqual({ oid: commit, createdByGitBook: false, url: `https://git.example/layout/commit/${commit}`, ref: 'refs/heads/main' });
    expect(revision.allPages.map((p: any) => p.git?.path ?? null)).toEqual(['README.md', null, 'guide/README.md', 'guide/install.md', 'guide/configure.md', 'faq.md']);
    expect(revision.files.edges.map(({ node: f }: any) => [f.name, f.git.path])).toEqual([['logo.png', '.gitbook/assets/logo.png']]);
    expect(revision.reusableContents.map((r: any) => [r.title, r.git.path])).toEqual([['Note', '.gitbook/includes/note.md']]);

    // REST carries the same metadata; metadata=false leaves it out.
    const rest = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content`)).body;
    expect(rest.git).toMatchObject({ oid: commit, createdByGitBook: false, ref: 'refs/heads/main' });
    expect(rest.pages[0].git).toEqual({ oid: expect.any(String), path: 'README.md' });
    expect(rest.files[0].git.path).toBe('.gitbook/assets/logo.png');
    const bare = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content?metadata=false`)).body;
    expect(JSON.stringify(bare)).not.toContain('"git"');

    // Links resolved to what the commit holds: no broken relative link is left.
    const install = all.find((p) => p.title === 'Install');
    const welcome = all.find((p) => p.title === 'Welcome');
    const body = JSON.stringify((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/page/${welcome.id}?format=document`)).body.document);
    expect(body).toContain(`"kind":"anchor","page":"${install.id}","anchor":"steps"`);
    const installBody = JSON.stringify((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/page/${install.id}?format=document`)).body.document);
    expect(installBody).toContain('"kind":"file"');
    expect(installBody).toContain('"kind":"reusable-content"');
    expect(installBody).not.toContain('"kind":"url"');

    // The same commit again: nothing to do.
    const revisionBefore = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}`)).body.revision;
    await sync(owner.token, space.id, 'import', { url: git.url('layout'), ref: 'refs/heads/main' });
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}`)).body.revision).toBe(revisionBefore);
  });

  it('exports one edit as one commit changing that file only, authored by the editor, committed by the bot', async () => {
    const { owner, space, api } = await setup('export-one');
    const first = await commitFiles(git, 'export-one', 'main', LAYOUT, 'Docs');
    await sync(owner.token, space.id, 'import', { url: git.url('export-one'), ref: 'refs/heads/main' });
    const faq = (await pages(owner.token, space.id)).find((p) => p.title === 'FAQ');
    // In a synced space, relative links are the repository's paths: README.md from faq.md is Welcome.
    await editPage(api, space.id, faq.id, '# FAQ\n\nAsk [us](README.md) anything.\n');

    const info = await sync(owner.token, space.id, 'export', { url: git.url('export-one'), ref: 'refs/heads/main', commitMessage: 'Update the FAQ' });
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    const [head] = await log(git, 'export-one', 'main');
    expect(head!.parents).toEqual([first]);
    expect(head!.message.trim()).toBe('Update the FAQ');
    expect(head!.author).toContain(owner.email);
    expect(head!.committer).toContain('quire');
    expect(await changedFiles('export-one', first, head!.oid)).toEqual(['faq.md']);
    const files = await readFiles(git, 'export-one', 'main');
    expect(files['faq.md']!.toString()).toContain('anything');
    expect(files['faq.md']!.toString()).toContain('[us](README.md)');
    const faqMarkdown = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/page/${faq.id}?format=markdown`)).body.markdown;
    expect(faqMarkdown).toContain('[us](README.md)');
    // Every other file byte for byte.
    for (const [path, content] of Object.entries(LAYOUT)) if (path !== 'faq.md') expect(Buffer.compare(files[path]!, Buffer.from(content))).toBe(0);

    // Its own commit coming back is a no-op, and an export with nothing new writes no commit.
    await sync(owner.token, space.id, 'import', { url: git.url('export-one'), ref: 'refs/heads/main' });
    await sync(owner.token, space.id, 'export', { url: git.url('export-one'), ref: 'refs/heads/main', commitMessage: 'Nothing' });
    expect((await log(git, 'export-one', 'main'))[0]!.oid).toBe(head!.oid);
  });

  it('keeps an upstream edit and a quire edit of different pages', async () => {
    const { owner, space, api } = await setup('both-sides');
    await commitFiles(git, 'both-sides', 'main', LAYOUT, 'Docs');
    await sync(owner.token, space.id, 'import', { url: git.url('both-sides'), ref: 'refs/heads/main' });
    const faq = (await pages(owner.token, space.id)).find((p) => p.title === 'FAQ');
    await editPage(api, space.id, faq.id, '# FAQ\n\nEdited in quire.\n');
    await commitFiles(git, 'both-sides', 'main', { 'guide/configure.md': '# Configure\n\nFirst paragraph, edited upstream.\n\nSecond paragraph.\n' }, 'Upstream edit');

    const info = await sync(owner.token, space.id, 'import', { url: git.url('both-sides'), ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('success');
    const markdown = async (title: string) => {
      const page = (await pages(owner.token, space.id)).find((p) => p.title === title);
      return (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/page/${page.id}?format=markdown`)).body.markdown as string;
    };
    expect(await markdown('FAQ')).toContain('Edited in quire.');
    expect(await markdown('Configure')).toContain('edited upstream');

    // The export then carries quire's edit on top of the upstream one.
    await sync(owner.token, space.id, 'export', { url: git.url('both-sides'), ref: 'refs/heads/main', commitMessage: 'Sync' });
    const files = await readFiles(git, 'both-sides', 'main');
    expect(files['faq.md']!.toString()).toContain('Edited in quire.');
    expect(files['guide/configure.md']!.toString()).toContain('edited upstream');
  });

  it('parks the same block edited on both sides in a change request with conflicts; the space keeps its content', async () => {
    const { owner, space, api } = await setup('conflict');
    await commitFiles(git, 'conflict', 'main', LAYOUT, 'Docs');
    await sync(owner.token, space.id, 'import', { url: git.url('conflict'), ref: 'refs/heads/main' });
    const configure = (await pages(owner.token, space.id)).find((p) => p.title === 'Configure');
    await editPage(api, space.id, configure.id, '# Configure\n\nFirst paragraph, quire says.\n\nSecond paragraph.\n');
    await commitFiles(git, 'conflict', 'main', { 'guide/configure.md': '# Configure\n\nFirst paragraph, git says.\n\nSecond paragraph.\n' }, 'Upstream edit');

    const info = await sync(owner.token, space.id, 'import', { url: git.url('conflict'), ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('failure');
    expect(info.operation.error).toMatch(/change request #\d+/);
    expect(info.operation.changeRequestId).toBeTruthy();
    const current = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/page/${configure.id}?format=markdown`)).body.markdown;
    expect(current).toContain('quire says');
    const cr = await gqlOk(server.url, owner.token, `query($id: ID!) { node(id: $id) { ... on ChangeRequest { status conflicts { entityId } } } }`, { id: info.operation.changeRequestId });
    expect(cr.node.status).toBe('open');
    expect(cr.node.conflicts.map((c: any) => c.entityId)).toContain(configure.id);

    // The same commit again parks nothing new.
    const again = await sync(owner.token, space.id, 'import', { url: git.url('conflict'), ref: 'refs/heads/main' });
    expect(again.operation.changeRequestId).toBe(info.operation.changeRequestId);

    // Resolved in the request by taking the space's side of the page (its document, block keys
    // included), then merged: the next sync is clean and the export carries the resolution.
    const crId = info.operation.changeRequestId as string;
    const ours = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/page/${configure.id}?format=document`)).body.document;
    await api.spaces.updateChangeRequestContent(space.id, crId, { changes: [{ operation: 'update_page', page: configure.id, document: { document: ours } }] as never }, { compat: false } as never);
    expect((await api.spaces.mergeChangeRequest(space.id, crId)).data.result).toBe('merge');
    const resolved = await sync(owner.token, space.id, 'import', { url: git.url('conflict'), ref: 'refs/heads/main' });
    expect(resolved.operation.state, resolved.operation.error).toBe('success');
    await sync(owner.token, space.id, 'export', { url: git.url('conflict'), ref: 'refs/heads/main', commitMessage: 'Resolved' });
    const files = await readFiles(git, 'conflict', 'main');
    expect(files['guide/configure.md']!.toString()).toContain('quire says');
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/content/page/${configure.id}?format=markdown`)).body.markdown).toContain('quire says');
  });

  it('refuses unsafe URLs and refs naming the field, never echoing credentials; another organization gets 404', async () => {
    const { owner, space } = await setup('refusals');
    for (const url of ['file:///etc/passwd', 'ssh://git@example.com/x.git', 'git://example.com/x.git', 'ext::sh -c touch% /tmp/pwned', 'git@example.com:x.git']) {
      const answer = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/git/import`, { url, ref: 'refs/heads/main' });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error.message).toContain('url');
    }
    const badRef = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/git/import`, { url: git.url('refusals'), ref: 'main' });
    expect(badRef.status).toBe(400);
    expect(badRef.body.error.message).toContain('ref');
    expect(JSON.stringify(badRef.body)).not.toContain(PASSWORD);
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/git/info`)).status).toBe(404);

    const other = await createOrg(server.db);
    expect((await http(server.url, other.owner.token, 'POST', `/spaces/${space.id}/git/import`, { url: git.url('refusals'), ref: 'refs/heads/main' })).status).toBe(404);
    expect((await http(server.url, other.owner.token, 'GET', `/spaces/${space.id}/git/info`)).status).toBe(404);
  });

  it('fails a wrong password with an error that holds no credentials', async () => {
    const { owner, space } = await setup('auth');
    await commitFiles(git, 'auth', 'main', LAYOUT, 'Docs');
    const url = git.url('auth').replace(PASSWORD, 'wrong-pass');
    const info = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('failure');
    expect(info.installationStatus).toBe('unauthenticated');
    expect(JSON.stringify(info)).not.toContain('wrong-pass');
    // The sync's operation ends first; the job runner writes the job's failure a moment later.
    const jobsOf = () => gqlOk(server.url, owner.token, `query($id: ID!) { space(id: $id) { jobs(first: 5) { edges { node { kind state error { code message } } } } } }`, { id: space.id });
    await expect.poll(async () => (await jobsOf()).space.jobs.edges[0].node.state, { timeout: 10_000 }).toBe('failed');
    const jobs = await jobsOf();
    expect(jobs.space.jobs.edges[0].node).toMatchObject({ kind: 'git_import', state: 'failed', error: { code: 'GIT_AUTH_FAILED' } });
    expect(JSON.stringify(jobs)).not.toContain('wrong-pass');
    const secret = await server.db.job.findMany({ where: { spaceId: space.id }, select: { secret: true, input: true } });
    expect(secret.every((j) => j.secret === null)).toBe(true);
    expect(JSON.stringify(secret)).not.toContain('wrong-pass');
  });
});
