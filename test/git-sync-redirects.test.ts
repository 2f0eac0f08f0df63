/**
 * Git sync writes site redirects: `.gitbook.yaml`'s `redirects` become live redirects of every site
 * that publishes the synced space (the source scoped to that site space's path), and a page an
 * import renames keeps its old URL — the published site follows both over plain HTTP.
 */
import { describe, expect, it } from 'vitest';
import { useGitSync } from './support/git-sync-client.js';
import { commitFiles } from './support/git-repo.js';

const { server, git, setup, sync, pages } = useGitSync({ password: 'pw-redirects' });

const FILES: Record<string, string> = {
  '.gitbook.yaml': 'redirects:\n  old/setup: setup.md\n  legacy: missing.md\n',
  'README.md': '# Home\n\nWelcome.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Setup](setup.md)\n',
  'setup.md': '# Setup\n\nInstall the tool.\n',
};

describe('git sync and site redirects', () => {
  it('writes .gitbook.yaml redirects into every site publishing the space, and a redirect for a renamed page', async () => {
    const { org, owner, space, api } = await setup('yaml-redirects');
    const other = (await api.orgs.createSpace(org.id, { title: 'Other' })).data;
    const root = (await api.orgs.createSite(org.id, { title: 'Root', spaces: [space.id] } as never)).data;
    const sectioned = (await api.orgs.createSite(org.id, { title: 'Sectioned' })).data;
    await api.orgs.addSectionToSite(org.id, sectioned.id, { spaceId: other.id, title: 'Intro' } as never);
    const guide = (await api.orgs.addSectionToSite(org.id, sectioned.id, { spaceId: space.id, title: 'Guide' } as never)).data;
    for (const site of [root, sectioned]) await api.orgs.publishSite(org.id, site.id);

    await commitFiles(git, 'yaml-redirects', 'main', FILES, 'Docs');
    const url = git.url('yaml-redirects');
    const info = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('success');
    const setupPage = (await pages(owner.token, space.id)).find((p) => p.title === 'Setup');
    const rootSiteSpace = (await api.orgs.listSiteSpaces(org.id, root.id)).data.items[0];
    const guideSiteSpace = guide.siteSpaces[0];

    const rootRedirects = (await api.orgs.listSiteRedirects(org.id, root.id)).data.items;
    expect(rootRedirects.map((r) => [r.source, r.destination])).toEqual([['/old/setup', { kind: 'site-page', siteSpaceId: rootSiteSpace.id, pageId: setupPage.id }]]);
    const sectionRedirects = (await api.orgs.listSiteRedirects(org.id, sectioned.id)).data.items;
    expect(sectionRedirects.map((r) => [r.source, r.destination])).toEqual([[`/${guide.path}/old/setup`, { kind: 'site-page', siteSpaceId: guideSiteSpace.id, pageId: setupPage.id }]]);

    const followed = await fetch(`${server.url}/sites/${root.id}/old/setup`, { redirect: 'manual' });
    expect([followed.status, followed.headers.get('location')]).toEqual([307, `/sites/${root.id}/setup`]);
    const inSection = await fetch(`${server.url}/sites/${sectioned.id}/${guide.path}/old/setup`, { redirect: 'manual' });
    expect(inSection.headers.get('location')).toBe(`/sites/${sectioned.id}/${guide.path}/setup`);

    // The same commit again writes nothing new (no events either).
    const events = () => server.db.outboxEvent.count({ where: { organizationId: org.id, kind: { startsWith: 'siteRedirect' } } });
    const before = await events();
    await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main', force: true });
    expect(await events()).toBe(before);

    // Upstream renames setup.md to install.md: the page keeps its ID, and its old path redirects to it.
    await commitFiles(git, 'yaml-redirects', 'main', { 'setup.md': null, 'install.md': FILES['setup.md']!, 'SUMMARY.md': FILES['SUMMARY.md']!.replace('setup.md', 'install.md'), '.gitbook.yaml': 'redirects:\n  old/setup: install.md\n' }, 'Rename');
    expect((await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' })).operation.state).toBe('success');
    const renamed = (await pages(owner.token, space.id)).find((p) => p.title === 'Setup');
    expect(renamed.id).toBe(setupPage.id);
    expect(renamed.path).toBe('install');
    const after = (await api.orgs.listSiteRedirects(org.id, root.id, { orderBy: 'source' as never })).data.items.map((r) => r.source);
    expect(after).toEqual(['/old/setup', '/setup']);
    const old = await fetch(`${server.url}/sites/${root.id}/setup`, { redirect: 'manual' });
    expect([old.status, old.headers.get('location')]).toEqual([307, `/sites/${root.id}/install`]);
    expect((await fetch(`${server.url}/sites/${root.id}/old/setup`, { redirect: 'manual' })).headers.get('location')).toBe(`/sites/${root.id}/install`);
  });
});
