/**
 * Import runs the 0.202 way (`POST /org/{organizationId}/imports`, list, get, cancel), mapped onto
 * the import jobs: through the public SDK, answers validated against the public document; the run
 * imports a website into a change request (the given one, or one opened for it), shows its
 * progress and ends completed; cancelling stops it; roles and another organization's token.
 */
import { describe, expect, it } from 'vitest';
import { MemberRole } from '@gitbook/api';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { useSites } from './helpers/site.js';

const server = useServer({ worker: true });
const site = useSites();

const HTML = (title: string) => ({ type: 'text/html', body: `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>Welcome.</p></main></body></html>` });

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Imports' })).data;
  return { org, owner, api, space };
}

async function ended(token: string, orgId: string, runId: string) {
  let run: Record<string, any> = {};
  await expect
    .poll(
      async () => {
        run = (await http(server.url, token, 'GET', `/org/${orgId}/imports/${runId}`)).body;
        return ['completed', 'failed', 'cancelled'].includes(run.status);
      },
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true);
  return run;
}

describe('import runs', () => {
  it('imports a website into a change request opened for it, and ends completed; get and list as documented', async () => {
    const { org, owner, api, space } = await setup();
    const s = await site({ '/': HTML('Home') });
    const started = await api.org.startImportRun(org.id, { source: { type: 'website', url: `${s.url}/` }, target: { space: space.id } });
    expect(started.status).toBe(201);
    expectDocumented('POST', '/org/{organizationId}/imports', '201', started.data);
    expect(started.data).toMatchObject({ object: 'import-run', status: 'pending', source: { type: 'website', url: `${s.url}/` }, target: { space: space.id }, createdBy: owner.id });
    expect(started.data.urls!.location).toMatch(new RegExp(`/v1/org/${org.id}/imports/${started.data.id}$`));
    const changeRequest = started.data.target!.changeRequest!;
    expect(changeRequest).toMatch(/^cr_/);
    expect((await api.spaces.getChangeRequestById(space.id, changeRequest)).data.subject).toBe(`Import from ${s.url}/`);

    const run = await ended(owner.token, org.id, started.data.id);
    expect(run).toMatchObject({ status: 'completed', completedAt: expect.any(String), startedAt: expect.any(String) });
    const got = (await api.org.getImportRun(org.id, started.data.id)).data;
    expectDocumented('GET', '/org/{organizationId}/imports/{importRunId}', '200', got);
    const imported = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${changeRequest}/content/pages`)).body.pages;
    expect(imported.map((p: { title: string }) => p.title)).toEqual(['Home']);

    const list = (await api.org.listImportRuns(org.id)).data;
    expectDocumented('GET', '/org/{organizationId}/imports', '200', list);
    expect(list.items.map((r) => r.id)).toEqual([started.data.id]);
    expect((await api.org.listImportRuns(org.id, { status: 'completed' })).data.count).toBe(1);
    expect((await api.org.listImportRuns(org.id, { status: 'active' })).data.count).toBe(0);
    expect((await api.org.listImportRuns(org.id, { space: space.id, changeRequest })).data.count).toBe(1);
    expect((await api.org.listImportRuns(org.id, { space: 'spc_other' })).data.count).toBe(0);
    expect((await http(server.url, owner.token, 'GET', `/org/${org.id}/imports?status=done`)).status).toBe(400);

    // Into a given change request and page, and a run that fails shows its reason.
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Mine' })).data;
    const missing = await api.org.startImportRun(org.id, { source: { type: 'website', url: `${s.url}/missing` }, target: { space: space.id, changeRequest: cr.id } });
    expect(missing.data.target).toEqual({ space: space.id, changeRequest: cr.id });
    const failed = await ended(owner.token, org.id, missing.data.id);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/^HTTP_ERROR/);
    expectDocumented('GET', '/org/{organizationId}/imports/{importRunId}', '200', failed);
    const second = (await api.org.listImportRuns(org.id, { limit: 1 })).data;
    expect(second.items.map((r) => r.id)).toEqual([missing.data.id]);
    expect((await api.org.listImportRuns(org.id, { limit: 1, page: second.next!.page })).data.items.map((r) => r.id)).toEqual([started.data.id]);
  });

  it('cancels a run in progress; an ended run cannot be cancelled', async () => {
    const { org, owner, api, space } = await setup();
    const s = await site({ '/': { ...HTML('Slow'), delayMs: 4000 } });
    const started = (await api.org.startImportRun(org.id, { source: { type: 'website', url: `${s.url}/` }, target: { space: space.id } })).data;
    const cancelled = await api.org.cancelImportRun(org.id, started.id);
    expectDocumented('POST', '/org/{organizationId}/imports/{importRunId}/cancel', '200', cancelled.data);
    expect(['cancelled', 'pending', 'in-progress']).toContain(cancelled.data.status);
    expect((await ended(owner.token, org.id, started.id)).status).toBe('cancelled');
    const again = await sdkError(api.org.cancelImportRun(org.id, started.id));
    expect(again.status).toBe(400);
    // Nothing was written into the change request.
    const pages = (await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${started.target!.changeRequest}/content/pages`)).body.pages;
    expect(pages).toEqual([]);
  });

  it('refuses bad input naming the field, what this server does not import, and who may not edit the space', async () => {
    const { org, owner, api, space } = await setup();
    for (const [body, field] of [
      [{ target: { space: space.id } }, 'source'],
      [{ source: { type: 'website', url: 'ftp://example.test/' }, target: { space: space.id } }, 'url'],
      [{ source: { type: 'website' }, target: { space: space.id } }, 'url'],
      [{ source: { type: 'website', url: 'https://example.test/' } }, 'target'],
      [{ source: { type: 'website', url: 'https://example.test/' }, target: {} }, 'target.space'],
      [{ source: { type: 'file', files: ['key'] }, target: { space: space.id } }, 'source.type'],
      [{ source: { type: 'notion', url: 'https://example.test/' }, target: { space: space.id } }, 'type'],
      [{ source: { type: 'website', url: 'https://example.test/' }, target: { space: space.id }, enhance: 'yes' }, 'enhance'],
    ] as const) {
      const answer = await http(server.url, owner.token, 'POST', `/org/${org.id}/imports`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    const url = 'https://example.test/';
    // Accepted and without effect: this server has no AI to enhance with.
    expect((await api.org.startImportRun(org.id, { source: { type: 'website', url }, target: { space: space.id }, enhance: true })).status).toBe(201);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    expect((await sdkError(sdk(server.url, reader.token).org.startImportRun(org.id, { source: { type: 'website', url }, target: { space: space.id } }))).status).toBe(403);
    expect((await sdkError(api.org.startImportRun(org.id, { source: { type: 'website', url }, target: { space: 'spc_unknown' } }))).status).toBe(404);
    expect((await sdkError(api.org.getImportRun(org.id, 'job_unknown'))).status).toBe(404);
    // An unknown page is refused before any change request is opened for the run.
    const before = await server.db.changeRequest.count({ where: { spaceId: space.id } });
    expect((await sdkError(api.org.startImportRun(org.id, { source: { type: 'website', url }, target: { space: space.id, page: 'page_unknown' } }))).status).toBe(404);
    expect(await server.db.changeRequest.count({ where: { spaceId: space.id } })).toBe(before);
  });

  it('shows runs to who may see their space, and nothing to another organization', async () => {
    const { org, owner, api, space } = await setup();
    const hidden = (await api.orgs.createSpace(org.id, { title: 'Hidden' })).data;
    const url = 'https://example.test/';
    const visibleRun = (await api.org.startImportRun(org.id, { source: { type: 'website', url }, target: { space: space.id } })).data;
    const hiddenRun = (await api.org.startImportRun(org.id, { source: { type: 'website', url }, target: { space: hidden.id } })).data;
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    await api.spaces.inviteToSpace(space.id, { role: MemberRole.Read, users: [guest.id] });
    const guestApi = sdk(server.url, guest.token);
    expect((await guestApi.org.listImportRuns(org.id)).data.items.map((r) => r.id)).toEqual([visibleRun.id]);
    expect((await guestApi.org.getImportRun(org.id, visibleRun.id)).data.id).toBe(visibleRun.id);
    expect((await sdkError(guestApi.org.getImportRun(org.id, hiddenRun.id))).status).toBe(404);
    expect((await sdkError(guestApi.org.cancelImportRun(org.id, visibleRun.id))).status).toBe(403);
    expect((await api.org.listImportRuns(org.id)).data.items.map((r) => r.id)).toEqual([hiddenRun.id, visibleRun.id]);

    const other = await createOrg(server.db);
    const stranger = sdk(server.url, other.owner.token);
    for (const call of [() => stranger.org.listImportRuns(org.id), () => stranger.org.getImportRun(org.id, visibleRun.id), () => stranger.org.cancelImportRun(org.id, visibleRun.id), () => stranger.org.startImportRun(org.id, { source: { type: 'website', url }, target: { space: space.id } })]) {
      expect((await sdkError(call())).status).toBe(404);
    }
    // A run of this organization is not one of another's, even to its admin.
    expect((await sdkError(stranger.org.getImportRun(other.org.id, visibleRun.id))).status).toBe(404);
    const otherSpace = (await stranger.orgs.createSpace(other.org.id, { title: 'Theirs' })).data;
    expect((await sdkError(api.org.startImportRun(org.id, { source: { type: 'website', url }, target: { space: otherSpace.id } }))).status).toBe(404);
  });

  it('is Organization.importRuns, importRun, startImportRun and cancelImportRun in GraphQL', async () => {
    const { org, owner, space } = await setup();
    const started = await gqlOk(server.url, owner.token, 'mutation($org: ID!, $space: ID!) { startImportRun(organizationId: $org, source: { type: "website", url: "https://example.test/" }, target: { space: $space }) { id status target { space changeRequest } job { kind } } }', { org: org.id, space: space.id });
    expect(started.startImportRun).toMatchObject({ status: 'pending', target: { space: space.id }, job: { kind: 'import' } });
    const read = await gqlOk(server.url, owner.token, 'query($org: ID!, $id: ID!) { organization(id: $org) { importRun(id: $id) { id source { type url } } importRuns(first: 5) { totalCount } } }', { org: org.id, id: started.startImportRun.id });
    expect(read.organization).toEqual({ importRun: { id: started.startImportRun.id, source: { type: 'website', url: 'https://example.test/' } }, importRuns: { totalCount: 1 } });
  });
});
