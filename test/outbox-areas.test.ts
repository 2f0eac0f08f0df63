/**
 * Every committed write of change requests, sites, invites, SAML providers, OpenAPI
 * specifications, translations and fonts records its event in the outbox, in its own
 * transaction: each write is made through the real server (REST or GraphQL) and the rows of
 * `OutboxEvent` it added are read back (kind, subject, space or site, actor, data). A write that
 * fails — refused input, a conflicting state, a rollback after part of it was written — adds
 * none. The import and the OpenAPI processing run by the worker record theirs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAPIProcessGivenUp } from '../src/jobs/handlers/openapi.js';
import { gqlOk, http } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { serveSite, type Site } from './helpers/site.js';

const server = useServer({ worker: true });

let site: Site | undefined;
afterAll(() => site?.close());

type Event = { kind: string; subjectId: string; spaceId: string | null; siteId: string | null; actorId: string | null; data: unknown };

/**
 * The events of the organization recorded since the previous call, oldest first, of the kinds
 * `family` keeps (the organization's and spaces' own kinds are another suite's).
 */
function outbox(organizationId: string, family: RegExp) {
  let after = -1n;
  return async (): Promise<Event[]> => {
    const rows = await server.db.outboxEvent.findMany({ where: { organizationId, seq: { gt: after } }, orderBy: { seq: 'asc' } });
    if (rows.length) after = rows[rows.length - 1].seq;
    return rows.filter((r) => family.test(r.kind)).map(({ kind, subjectId, spaceId, siteId, actorId, data }) => ({ kind, subjectId, spaceId, siteId, actorId, data }));
  };
}

/** Runs a REST call that must answer `status`, and answers its body. */
async function rest(token: string, method: string, url: string, status: number, body?: unknown) {
  const answer = await http(server.url, token, method, url, body);
  expect(answer.status, `${method} ${url}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

describe('outbox: change requests', () => {
  it('records created, updated, status, content, reviewers, reviews, update from the space and merge; failures record nothing', async () => {
    const { org, owner } = await createOrg(server.db);
    const reviewer = await createActor(server.db, { org: org.id, role: 'review' });
    const space = await rest(owner.token, 'POST', `/orgs/${org.id}/spaces`, 201, { title: 'Handbook' });
    const next = outbox(org.id, /^changeRequest/);
    const crPath = (id: string) => `/spaces/${space.id}/change-requests/${id}`;
    const inSpace = (changeRequestId: string, kind: string, data: unknown, actorId = owner.id) => ({ kind, subjectId: changeRequestId, spaceId: space.id, siteId: null, actorId, data });
    const write = async (id: string, title: string) =>
      (await rest(owner.token, 'POST', `${crPath(id)}/content?compat=false`, 200, { changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n\nText.\n` } }] })).changes[0].page.id as string;

    const cr = await rest(owner.token, 'POST', `/spaces/${space.id}/change-requests`, 201, { subject: 'First' });
    expect(await next()).toEqual([inSpace(cr.id, 'changeRequestCreated', { number: cr.number })]);

    await rest(owner.token, 'PATCH', crPath(cr.id), 200, { subject: 'Renamed', status: 'open' });
    expect(await next()).toEqual([inSpace(cr.id, 'changeRequestUpdated', { fields: ['subject'] }), inSpace(cr.id, 'changeRequestStatusChanged', { status: 'open', previous: 'draft' })]);
    await rest(owner.token, 'PATCH', crPath(cr.id), 400, { subject: 'x'.repeat(101) });
    await rest(owner.token, 'PATCH', crPath(cr.id), 400, { status: 'merged' });
    expect(await next()).toEqual([]);

    const page = await write(cr.id, 'Intro');
    const head = (await rest(owner.token, 'GET', crPath(cr.id), 200)).revision;
    expect(await next()).toEqual([inSpace(cr.id, 'changeRequestContentUpdated', { revisionId: head, pageIds: [page], pageCount: 1, fileIds: [], fileCount: 0 })]);
    // A batch whose second change fails writes nothing, the first change included.
    await rest(owner.token, 'POST', `${crPath(cr.id)}/content`, 404, { changes: [{ operation: 'insert_page', title: 'Kept?' }, { operation: 'update_page', page: 'page_nope', title: 'x' }] });
    expect(await next()).toEqual([]);

    await rest(owner.token, 'POST', `${crPath(cr.id)}/requested-reviewers`, 200, { users: [reviewer.id] });
    expect(await next()).toEqual([inSpace(cr.id, 'changeRequestReviewersChanged', { added: [reviewer.id] })]);
    await rest(owner.token, 'POST', `${crPath(cr.id)}/requested-reviewers`, 200, { users: [reviewer.id] }); // asked already: no change
    await rest(owner.token, 'POST', `${crPath(cr.id)}/requested-reviewers`, 400, { users: [owner.id] }); // the author
    expect(await next()).toEqual([]);
    await rest(owner.token, 'DELETE', `${crPath(cr.id)}/requested-reviewers/${reviewer.id}`, 205);
    await rest(owner.token, 'DELETE', `${crPath(cr.id)}/requested-reviewers/${reviewer.id}`, 204); // none left: nothing written
    expect(await next()).toEqual([inSpace(cr.id, 'changeRequestReviewersChanged', { removed: [reviewer.id] })]);

    const review = await rest(reviewer.token, 'POST', `${crPath(cr.id)}/reviews`, 201, { status: 'approved' });
    expect(await next()).toEqual([inSpace(cr.id, 'changeRequestReviewSubmitted', { reviewId: review.id, status: 'approved' }, reviewer.id)]);
    await rest(owner.token, 'POST', `${crPath(cr.id)}/reviews`, 403, { status: 'approved' }); // the author cannot review
    expect(await next()).toEqual([]);

    // Another request merged first: the space moved on, so the first is updated from it.
    const other = await rest(owner.token, 'POST', `/spaces/${space.id}/change-requests`, 201, { subject: 'Other' });
    const otherPage = await write(other.id, 'Elsewhere');
    const merged = await rest(owner.token, 'POST', `${crPath(other.id)}/merge`, 200, {});
    expect(merged.result).toBe('merge');
    expect((await next()).slice(-1)).toEqual([inSpace(other.id, 'changeRequestMerged', { revisionId: merged.revision, pageIds: [otherPage], pageCount: 1, fileIds: [], fileCount: 0 })]);

    const updated = await rest(owner.token, 'POST', `${crPath(cr.id)}/update`, 200, {});
    expect(updated.result).toBe('update');
    const [fromSpace, ...rest1] = await next();
    expect(rest1).toEqual([]);
    expect(fromSpace).toMatchObject(inSpace(cr.id, 'changeRequestUpdatedFromSpace', { revisionId: updated.revision, fileIds: [], fileCount: 0 }));
    expect((fromSpace.data as { pageIds: string[] }).pageIds).toContain(otherPage);
    await rest(owner.token, 'POST', `${crPath(cr.id)}/update`, 200, {}); // up to date: nothing written
    expect(await next()).toEqual([]);

    await rest(owner.token, 'PATCH', crPath(cr.id), 200, { status: 'archived' });
    await rest(owner.token, 'POST', `${crPath(cr.id)}/merge`, 409, {}); // archived
    expect(await next()).toEqual([inSpace(cr.id, 'changeRequestStatusChanged', { status: 'archived', previous: 'open' })]);
    await rest(owner.token, 'PATCH', crPath(cr.id), 200, { status: 'open' });
    const final = await rest(owner.token, 'POST', `${crPath(cr.id)}/merge`, 200, {});
    expect(await next()).toEqual([
      inSpace(cr.id, 'changeRequestStatusChanged', { status: 'open', previous: 'archived' }),
      inSpace(cr.id, 'changeRequestMerged', { revisionId: final.revision, pageIds: [page], pageCount: 1, fileIds: [], fileCount: 0 }),
    ]);
    await rest(owner.token, 'PATCH', crPath(cr.id), 409, { subject: 'After' }); // merged: final
    expect(await next()).toEqual([]);

    // Files uploaded over GraphQL multipart are a new revision of the request's content.
    const third = await rest(owner.token, 'POST', `/spaces/${space.id}/change-requests`, 201, {});
    await next();
    const form = new FormData();
    const query = `mutation($s: ID!, $c: ID!, $files: [File!]!) { uploadChangeRequestFiles(spaceId: $s, id: $c, files: $files) { id } }`;
    form.set('operations', JSON.stringify({ query, variables: { s: space.id, c: third.id, files: [null] } }));
    form.set('map', JSON.stringify({ 0: ['variables.files.0'] }));
    form.set('0', new Blob(['plain notes'], { type: 'text/plain' }), 'notes.txt');
    const uploaded = (await (await fetch(`${server.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form })).json()) as any;
    expect(uploaded.errors).toBeUndefined();
    const thirdHead = (await rest(owner.token, 'GET', crPath(third.id), 200)).revision;
    expect(await next()).toEqual([inSpace(third.id, 'changeRequestContentUpdated', { revisionId: thirdHead, pageIds: [], pageCount: 0, fileIds: [uploaded.data.uploadChangeRequestFiles[0].id], fileCount: 1 })]);

    const reusable = `mutation($s: ID!, $c: ID!) { createReusableContent(spaceId: $s, id: $c, title: "Warning", document: { markdown: "Careful." }) { id } }`;
    const content = (await gqlOk(server.url, owner.token, reusable, { s: space.id, c: third.id })).createReusableContent.id;
    const afterReusable = (await rest(owner.token, 'GET', crPath(third.id), 200)).revision;
    expect(await next()).toEqual([
      inSpace(third.id, 'changeRequestContentUpdated', { revisionId: afterReusable, pageIds: [], pageCount: 0, fileIds: [], fileCount: 0, reusableContentIds: [content], reusableContentCount: 1 }),
    ]);
  });

  it('records the content an import writes, in the job that writes it, by the job\'s creator; a failed import records nothing', async () => {
    const { org, owner } = await createOrg(server.db);
    const space = await rest(owner.token, 'POST', `/orgs/${org.id}/spaces`, 201, { title: 'Imports' });
    const cr = await rest(owner.token, 'POST', `/spaces/${space.id}/change-requests`, 201, { subject: 'Import' });
    const next = outbox(org.id, /^changeRequest/);
    await next();
    site = await serveSite({ '/guide.md': { type: 'text/markdown', body: '# Setup guide\n\nInstall it.\n' } });
    const base = `/spaces/${space.id}/change-requests/${cr.id}/content`;
    const answer = await rest(owner.token, 'POST', `${base}/import`, 200, { url: `${site.url}/guide.md`, source: 'markdown' });
    const pages = (await rest(owner.token, 'GET', `${base}/pages`, 200)).pages as { id: string }[];
    expect(await next()).toEqual([
      { kind: 'changeRequestContentUpdated', subjectId: cr.id, spaceId: space.id, siteId: null, actorId: owner.id, data: { revisionId: answer.revision, pageIds: pages.map((p) => p.id), pageCount: 1, fileIds: [], fileCount: 0 } },
    ]);
    const failed = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${site.url}/missing.md`, source: 'markdown' });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(await next()).toEqual([]);
  });
});

describe('outbox: sites', () => {
  it('records the site, its site spaces, sections, groups, customization and share links; refused and rolled-back writes record nothing', async () => {
    const { org, owner } = await createOrg(server.db);
    const spaces: { id: string }[] = [];
    for (const title of ['Guide', 'API', 'Changelog']) spaces.push(await rest(owner.token, 'POST', `/orgs/${org.id}/spaces`, 201, { title }));
    const next = outbox(org.id, /^(site|shareLink)/);
    const sites = `/orgs/${org.id}/sites`;

    // The site is written, then its second space is refused: the whole write rolls back.
    await rest(owner.token, 'POST', sites, 400, { title: 'Docs', spaces: [spaces[0].id, 'space_nope'] });
    expect(await next()).toEqual([]);

    const created = await rest(owner.token, 'POST', sites, 201, { title: 'Docs', spaces: [spaces[0].id] });
    const s = `${sites}/${created.id}`;
    const of = (kind: string, subjectId: string, data?: unknown) => ({ kind, subjectId, spaceId: null, siteId: created.id, actorId: owner.id, data: data ?? null });
    const [root] = (await rest(owner.token, 'GET', `${s}/site-spaces`, 200)).items;
    expect(await next()).toEqual([of('siteCreated', created.id), of('siteSpaceAdded', root.id, { spaceId: spaces[0].id, sectionId: null })]);

    const steps: [string, () => Promise<unknown>, (ids: Record<string, string>) => unknown[]][] = [];
    const ids: Record<string, string> = { root: root.id };
    const step = (label: string, run: () => Promise<unknown>, expected: (ids: Record<string, string>) => unknown[]) => steps.push([label, run, expected]);

    step('update', () => rest(owner.token, 'PATCH', s, 200, { title: 'Handbook', visibility: 'share-link' }), () => [of('siteUpdated', created.id, { fields: ['title', 'visibility'] })]);
    step('bad update', () => rest(owner.token, 'PATCH', s, 400, { title: 'x' }), () => []);
    step('publish', () => rest(owner.token, 'POST', `${s}/publish`, 200, {}), () => [of('siteUpdated', created.id, { fields: ['published'], published: true })]);
    step('add site space', async () => (ids.api = (await rest(owner.token, 'POST', `${s}/site-spaces`, 201, { spaceId: spaces[1].id })).id), (i) => [of('siteSpaceAdded', i.api, { spaceId: spaces[1].id, sectionId: null })]);
    step('taken path', () => rest(owner.token, 'PATCH', `${s}/site-spaces/${ids.api}`, 400, { path: root.path }), () => []);
    step('site space path', () => rest(owner.token, 'PATCH', `${s}/site-spaces/${ids.api}`, 200, { path: 'reference' }), (i) => [of('siteSpaceUpdated', i.api, { fields: ['path'] })]);
    step('move site space', () => rest(owner.token, 'POST', `${s}/site-spaces/${ids.api}/move`, 200, { position: { before: { type: 'site-space', siteSpace: root.id } } }), (i) => [of('siteSpaceUpdated', i.api, { fields: ['position'] })]);
    step('override', () => rest(owner.token, 'PATCH', `${s}/site-spaces/${ids.api}/customization`, 200, { title: 'API site' }), (i) => [of('siteCustomizationUpdated', i.api, { target: 'siteSpace' })]);
    step('remove override', () => rest(owner.token, 'DELETE', `${s}/site-spaces/${ids.api}/customization`, 205), (i) => [of('siteCustomizationUpdated', i.api, { target: 'siteSpace', removed: true })]);
    step('remove site space', () => rest(owner.token, 'DELETE', `${s}/site-spaces/${ids.api}`, 205), (i) => [of('siteSpaceRemoved', i.api, { spaceId: spaces[1].id })]);
    step('customization', async () => {
      const current = await rest(owner.token, 'GET', `${s}/customization`, 200);
      await rest(owner.token, 'PUT', `${s}/customization`, 400, { ...current, styling: { ...current.styling, theme: 'no-such-theme' } });
      await rest(owner.token, 'PUT', `${s}/customization`, 200, { ...current, title: 'Custom title' });
    }, () => [of('siteCustomizationUpdated', created.id, { target: 'site' })]);
    step('add section', async () => {
      ids.section = (await rest(owner.token, 'POST', `${s}/sections`, 201, { spaceId: spaces[2].id, title: 'Changes' })).id;
      ids.sectionSpace = (await server.db.siteSpace.findFirstOrThrow({ where: { sectionId: ids.section, spaceId: spaces[2].id } })).id;
    }, (i) => [of('siteSectionCreated', i.section), of('siteSpaceAdded', i.sectionSpace, { spaceId: spaces[2].id, sectionId: i.section })]);
    step('section title', () => rest(owner.token, 'PATCH', `${s}/sections/${ids.section}`, 200, { title: 'Releases' }), (i) => [of('siteSectionUpdated', i.section, { fields: ['title'] })]);
    step('move section', () => rest(owner.token, 'POST', `${s}/sections/${ids.section}/move`, 200, {}), (i) => [of('siteSectionUpdated', i.section, { fields: ['position'] })]);
    step('create group', async () => (ids.group = (await rest(owner.token, 'POST', `${s}/section-groups`, 201, { title: 'Products', sections: [ids.section] })).id), (i) => [of('siteSectionGroupCreated', i.group)]);
    step('nested group', () => rest(owner.token, 'POST', `${s}/section-groups`, 400, { title: 'Nested', parent: ids.group }), () => []);
    step('group title', () => rest(owner.token, 'PATCH', `${s}/section-groups/${ids.group}`, 200, { title: 'Our products' }), (i) => [of('siteSectionGroupUpdated', i.group, { fields: ['title'] })]);
    step('move group', () => rest(owner.token, 'POST', `${s}/section-groups/${ids.group}/move`, 200, {}), (i) => [of('siteSectionGroupUpdated', i.group, { fields: ['position'] })]);
    step('delete group', () => rest(owner.token, 'DELETE', `${s}/section-groups/${ids.group}`, 205), (i) => [of('siteSectionGroupDeleted', i.group)]);
    step('delete section', () => rest(owner.token, 'DELETE', `${s}/sections/${ids.section}`, 205), (i) => [of('siteSectionDeleted', i.section)]);
    step('share link', async () => (ids.link = (await rest(owner.token, 'POST', `${s}/share-links`, 201, { name: 'Partners' })).id), (i) => [of('shareLinkCreated', i.link)]);
    step('share link off', () => rest(owner.token, 'PATCH', `${s}/share-links/${ids.link}`, 200, { active: false }), (i) => [of('shareLinkUpdated', i.link, { fields: ['active'] })]);
    step('share link gone', () => rest(owner.token, 'DELETE', `${s}/share-links/${ids.link}`, 205), (i) => [of('shareLinkDeleted', i.link)]);
    step('no such share link', () => rest(owner.token, 'DELETE', `${s}/share-links/${ids.link}`, 404), () => []);
    step('delete site', () => rest(owner.token, 'DELETE', s, 205), () => [{ ...of('siteDeleted', created.id), siteId: null }]);

    for (const [label, run, expected] of steps) {
      await run();
      expect(await next(), label).toEqual(expected(ids));
    }
  });
});

/** The Inter faces of @fontsource/inter (real WOFF2 files). */
const inter = (file: string) => readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/inter/package.json')), 'files', file));

async function uploadFont(token: string, orgId: string, bytes: Buffer): Promise<string> {
  const started = await rest(token, 'POST', `/orgs/${orgId}/storage/upload`, 201, { file: { name: 'font.woff2', type: 'font/woff2', size: bytes.length }, kind: 'customization_font' });
  const put = await fetch(`${server.url}${new URL(started.url).pathname}`, { method: 'PUT', body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  return started.key;
}

/** A valid specification, as JSON. */
const SPEC = JSON.stringify({ openapi: '3.1.0', info: { title: 'Pets', version: '1.0.0' }, paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'The pets' } } } } } });

describe('outbox: organization-level objects', () => {
  it('records invites, link invites, SAML providers, translations and fonts without space or site; refused writes record nothing', async () => {
    const { org, owner } = await createOrg(server.db);
    const space = await rest(owner.token, 'POST', `/orgs/${org.id}/spaces`, 201, { title: 'Shared' });
    const next = outbox(org.id, /^(memberInvite|linkInvite|ssoProvider|translation|customFont)/);
    const of = (kind: string, subjectId: string, data?: unknown) => ({ kind, subjectId, spaceId: null, siteId: null, actorId: owner.id, data: data ?? null });
    const o = `/orgs/${org.id}`;

    const invitees = await rest(owner.token, 'POST', `${o}/invites`, 200, { emails: [`a-${Date.now()}@example.test`, { email: `b-${Date.now()}@example.test`, role: null }], role: 'edit' });
    const invites = await server.db.memberInvite.findMany({ where: { organizationId: org.id } });
    const inviteOf = (userId: string) => invites.find((i) => i.userId === userId)!.id;
    expect(await next()).toEqual([
      of('memberInviteCreated', inviteOf(invitees.users[0]), { userId: invitees.users[0], role: 'edit' }),
      of('memberInviteCreated', inviteOf(invitees.users[1]), { userId: invitees.users[1], role: null }),
    ]);
    await rest(owner.token, 'POST', `${o}/invites`, 400, { emails: ['not an address'] });
    const revoke = `mutation($org: ID!, $id: ID!) { revokeMemberInvite(organizationId: $org, id: $id) }`;
    await gqlOk(server.url, owner.token, revoke, { org: org.id, id: inviteOf(invitees.users[0]) });
    expect(await next()).toEqual([of('memberInviteRevoked', inviteOf(invitees.users[0]))]);

    const link = await rest(owner.token, 'POST', `${o}/link-invites`, 201, { level: 'read', space: space.id });
    await rest(owner.token, 'POST', `${o}/link-invites`, 404, { level: 'read', space: 'space_nope' });
    await rest(owner.token, 'PATCH', `${o}/link-invites/${link.id}`, 400, { role: 'edit' }); // a content invite has a level
    await rest(owner.token, 'PATCH', `${o}/link-invites/${link.id}`, 200, { level: 'comment' });
    await rest(owner.token, 'DELETE', `${o}/link-invites/${link.id}`, 205);
    await rest(owner.token, 'DELETE', `${o}/link-invites/${link.id}`, 204);
    expect(await next()).toEqual([of('linkInviteCreated', link.id, { kind: 'space' }), of('linkInviteUpdated', link.id), of('linkInviteDeleted', link.id)]);

    const provider = await rest(owner.token, 'POST', `${o}/saml`, 201, { label: 'Okta' });
    await rest(owner.token, 'POST', `${o}/saml`, 400, { label: 'Bad', certificate: 'not a certificate' });
    await rest(owner.token, 'PATCH', `${o}/saml/${provider.id}`, 200, { label: 'Okta EU', defaultRole: 'edit' });
    await rest(owner.token, 'DELETE', `${o}/saml/${provider.id}`, 205);
    await rest(owner.token, 'DELETE', `${o}/saml/${provider.id}`, 404);
    expect(await next()).toEqual([of('ssoProviderCreated', provider.id), of('ssoProviderUpdated', provider.id, { fields: ['label', 'defaultRole'] }), of('ssoProviderDeleted', provider.id)]);

    const translation = await rest(owner.token, 'POST', `${o}/translations`, 201, { title: 'French', languages: ['fr'] });
    await rest(owner.token, 'POST', `${o}/translations`, 400, { title: 'Klingon', languages: ['tlh'] });
    await rest(owner.token, 'PUT', `${o}/translations/${translation.id}`, 200, { title: 'French (France)' });
    await rest(owner.token, 'DELETE', `${o}/translations/${translation.id}`, 205);
    expect(await next()).toEqual([of('translationCreated', translation.id), of('translationUpdated', translation.id), of('translationDeleted', translation.id)]);

    const regular = await uploadFont(owner.token, org.id, inter('inter-latin-400-normal.woff2'));
    const bold = await uploadFont(owner.token, org.id, inter('inter-latin-700-normal.woff2'));
    const font = await rest(owner.token, 'PUT', `${o}/fonts`, 201, { fontFamily: 'Inter', fontFaces: [{ weight: 400, storageKey: regular }] });
    await rest(owner.token, 'PUT', `${o}/fonts`, 400, { fontFamily: 'Nope', fontFaces: [{ weight: 400, storageKey: 'upload_nope' }] });
    await rest(owner.token, 'POST', `${o}/fonts/${font.id}`, 201, { fontFaces: [{ weight: 700, storageKey: bold }] });
    await rest(owner.token, 'DELETE', `${o}/fonts/${font.id}`, 205);
    expect(await next()).toEqual([of('customFontCreated', font.id), of('customFontUpdated', font.id), of('customFontDeleted', font.id)]);
  });

  it('records OpenAPI specifications and the end of each processing by the worker, succeeded or failed, and a processing given up', async () => {
    const { org, owner } = await createOrg(server.db);
    const next = outbox(org.id, /^openApiSpec/);
    const o = `/orgs/${org.id}/openapi`;
    const of = (kind: string, subjectId: string, data: unknown, actorId: string | null = owner.id) => ({ kind, subjectId, spaceId: null, siteId: null, actorId, data });
    /** The events once the processing queued last has ended. */
    const processed = async (count: number) => {
      const seen: Event[] = [];
      await expect.poll(async () => (seen.push(...(await next())), seen.filter((e) => e.kind === 'openApiSpecProcessed').length), { timeout: 30_000, interval: 200 }).toBe(count);
      return seen;
    };
    const jobs = async () => (await server.db.job.findMany({ where: { organizationId: org.id, kind: 'openapi_process' }, orderBy: { createdAt: 'asc' } })).map((j) => j.id);

    const spec = await rest(owner.token, 'POST', o, 201, { slug: 'pets', source: { text: SPEC } });
    await rest(owner.token, 'POST', o, 409, { slug: 'pets', source: { text: SPEC } });
    const first = await processed(1);
    const version = (await server.db.openAPISpec.findUniqueOrThrow({ where: { id: spec.id } })).lastVersionId;
    expect(first).toEqual([
      of('openApiSpecCreated', spec.id, { slug: 'pets' }),
      of('openApiSpecProcessed', spec.id, { jobId: (await jobs())[0], outcome: 'succeeded', versionId: version, newVersion: true, errorCount: 0 }),
    ]);

    await rest(owner.token, 'PUT', `${o}/pets`, 200, { source: { text: 'openapi: 3.1.0\ninfo: {title: 1}\n' } });
    const second = await processed(1);
    expect(second[0]).toEqual(of('openApiSpecUpdated', spec.id, { slug: 'pets' }));
    expect(second[1]).toMatchObject(of('openApiSpecProcessed', spec.id, { jobId: (await jobs())[1], outcome: 'failed', errorCode: 'PARSE_ERROR' }));

    // A job given up outside its handler ends the specification still in progress, and says so.
    const job = await server.db.job.findUniqueOrThrow({ where: { id: (await jobs())[1] } });
    await server.db.openAPISpec.update({ where: { id: spec.id }, data: { processingState: 'progress' } });
    await openAPIProcessGivenUp(server.db, { ...job, errorMessage: 'stopped 3 times' });
    await openAPIProcessGivenUp(server.db, job); // no longer in progress: nothing to end
    expect(await next()).toEqual([of('openApiSpecProcessed', spec.id, { jobId: job.id, outcome: 'failed', errorCode: 'PARSE_ERROR' })]);

    await rest(owner.token, 'DELETE', `${o}/pets`, 205);
    await rest(owner.token, 'DELETE', `${o}/pets`, 404);
    expect(await next()).toEqual([of('openApiSpecDeleted', spec.id, { slug: 'pets' })]);
  });
});
