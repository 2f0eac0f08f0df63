/**
 * Every object with an ID is reachable through `node(id)` / `nodes(ids)` (issue 23, part 3): to
 * whoever may read it through its own field, and to no one else (another organization's member,
 * a guest without access, a member without the right: NOT_FOUND, null in `nodes`). `nodes` over
 * many IDs of mixed kinds reads a number of statements that does not grow with the IDs. A site's
 * sections, section groups and site spaces are connections that page with cursors and a total.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/domain/kernel/ids.js';
import { gql, gqlOk, http, type GqlResult } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

type World = Awaited<ReturnType<typeof seed>>;

/** An organization with one of every kind of object, `copies` of each repeatable one. */
async function seed(copies = 1) {
  const { org, owner } = await createOrg(server.db, 'Reachable');
  const writer = await createActor(server.db, { org: org.id, role: 'review' });
  const reader = await createActor(server.db, { org: org.id, role: 'read' });
  const guest = await createActor(server.db, { org: org.id, role: 'guest' });
  const ids: Record<string, string[]> = {};
  const add = (typename: string, id: string) => (ids[typename] ??= []).push(id);

  for (let i = 0; i < copies; i++) {
    const { createSpace: space } = await gqlOk(server.url, owner.token, `mutation($org: ID!) { createSpace(organizationId: $org, input: { title: "S${i}" }) { id } }`, { org: org.id });
    add('Space', space.id);
    const { createChangeRequest: cr } = await gqlOk(server.url, owner.token, `mutation($s: ID!) { createChangeRequest(spaceId: $s, subject: "c") { id } }`, { s: space.id });
    const content = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nText.\n' } },
        { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('x').toString('base64') }] },
      ],
    });
    expect(content.status, JSON.stringify(content.body)).toBe(200);
    await gqlOk(server.url, owner.token, `mutation($s: ID!, $cr: ID!) { createReusableContent(spaceId: $s, id: $cr, title: "Snippet") { id } }`, { s: space.id, cr: cr.id });
    const read = await gqlOk(
      server.url,
      owner.token,
      `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { id revision { id allPages { id nodeId } allFiles { id nodeId } reusableContents { id nodeId } } } } }`,
      { s: space.id, cr: cr.id },
    );
    const revision = read.space.changeRequest.revision;
    add('ChangeRequest', cr.id);
    add('Revision', revision.id);
    add('Page', revision.allPages[0].nodeId);
    add('RevisionFile', revision.allFiles[0].nodeId);
    add('ReusableContent', revision.reusableContents[0].nodeId);
    const review = await gqlOk(server.url, writer.token, `mutation($s: ID!, $cr: ID!) { submitChangeRequestReview(spaceId: $s, id: $cr, status: approved) { id } }`, { s: space.id, cr: cr.id });
    add('ChangeRequestReview', review.submitChangeRequestReview.id);

    const { createSite: site } = await gqlOk(server.url, owner.token, `mutation($org: ID!) { createSite(organizationId: $org, input: { title: "Site ${i}" }) { id } }`, { org: org.id });
    add('Site', site.id);
    const { addSiteSection: section } = await gqlOk(server.url, owner.token, `mutation($site: ID!, $s: ID!) { addSiteSection(siteId: $site, spaceId: $s, title: "One") { id siteSpaces { id } } }`, { site: site.id, s: space.id });
    add('SiteSection', section.id);
    add('SiteSpace', section.siteSpaces[0].id);
    const { createSiteSectionGroup: group } = await gqlOk(server.url, owner.token, `mutation($site: ID!, $sec: ID!) { createSiteSectionGroup(siteId: $site, title: "G", sections: [$sec]) { id } }`, { site: site.id, sec: section.id });
    add('SiteSectionGroup', group.id);
    const { createSiteShareLink: link } = await gqlOk(server.url, owner.token, `mutation($site: ID!) { createSiteShareLink(siteId: $site, name: "L") { id } }`, { site: site.id });
    add('SiteShareLink', link.id);

    const job = { id: newId('Job'), organizationId: org.id, spaceId: space.id, kind: 'space_duplicate' as const, state: 'succeeded' as const, input: {}, createdById: owner.id };
    await server.db.job.create({ data: job });
    add('Job', job.id);
    const spec = { id: newId('OpenAPISpec'), organizationId: org.id, slug: `spec-${i}`, createdById: owner.id, processingState: 'complete' as const };
    await server.db.openAPISpec.create({ data: spec });
    add('OpenAPISpec', spec.id);
    const version = { id: newId('OpenAPISpecVersion'), specId: spec.id, contentHash: `h${i}`, text: '{}', format: 'json', title: 't', version: '1.0.0', openapi: '3.1.0', operations: 0 };
    await server.db.openAPISpecVersion.create({ data: version });
    add('OpenAPISpecVersion', version.id);
    const saml = { id: newId('SamlProvider'), organizationId: org.id, label: `IdP ${i}` };
    await server.db.samlProvider.create({ data: saml });
    add('SamlProvider', saml.id);
    const font = { id: newId('CustomFont'), organizationId: org.id, fontFamily: `F${i}`, faces: [] };
    await server.db.customFont.create({ data: font });
    add('CustomFont', font.id);
    const translation = { id: newId('TranslationSettings'), organizationId: org.id, title: `T${i}` };
    await server.db.translationSettings.create({ data: translation });
    add('TranslationSettings', translation.id);
    const expiresAt = new Date(Date.now() + 86_400_000);
    const invitee = await createActor(server.db);
    const memberInvite = { id: newId('MemberInvite'), organizationId: org.id, userId: invitee.id, role: 'read' as const, digest: newId('MemberInvite'), expiresAt };
    await server.db.memberInvite.create({ data: memberInvite });
    add('MemberInvite', memberInvite.id);
    const linkInvite = { id: newId('LinkInvite'), organizationId: org.id, kind: 'organization', role: 'read' as const, expiresAt };
    await server.db.linkInvite.create({ data: linkInvite });
    add('LinkInvite', linkInvite.id);
  }
  const { createApiToken } = await gqlOk(server.url, owner.token, `mutation { createApiToken(input: { name: "node" }) { apiToken { id } } }`);
  add('ApiToken', createApiToken.apiToken.id);
  add('Organization', org.id);
  add('User', owner.id);
  return { org, owner, writer, reader, guest, ids };
}

const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;
const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`;

/** What a member with an organization role but no admin right may not read (admins only: SSO, invites; a token: its owner only). */
const ADMIN_ONLY = new Set(['SamlProvider', 'MemberInvite', 'LinkInvite', 'ApiToken']);

describe('node(id) reaches every object with an ID', () => {
  let w: World;
  let outsider: Actor;
  beforeAll(async () => {
    w = await seed();
    outsider = (await createOrg(server.db, 'Outside')).owner;
  }, 120_000);

  it('answers each object to its owner, with its type, and its own `id`', async () => {
    for (const [typename, [id]] of Object.entries(w.ids)) {
      const { node } = await gqlOk(server.url, w.owner.token, NODE, { id });
      expect(node?.__typename, id).toBe(typename);
      // Revision-held objects: `id` is the entity's, the node ID carries the revision.
      expect(node.id, id).toBe(id.includes(':') ? id.split(':')[1] : id);
    }
  });

  it('answers NOT_FOUND to another organization and to a guest without access', async () => {
    for (const [typename, [id]] of Object.entries(w.ids)) {
      for (const [who, actor] of [['outsider', outsider], ['guest', w.guest]] as const) {
        if (who === 'guest' && typename === 'Organization') continue; // a guest is a member of the organization
        if (who === 'guest' && typename === 'User') continue; // a guest sees the users they share a space or team with (readers.test.ts)
        const result: GqlResult = await gql(server.url, actor.token, NODE, { id });
        expect(result.data?.node ?? null, `${who} ${typename}`).toBeNull();
        expect(result.errors?.[0].extensions?.code, `${who} ${typename}`).toBe('NOT_FOUND');
      }
    }
  });

  it('answers a member what their role lets them read, and NOT_FOUND for admin-only objects', async () => {
    for (const [typename, [id]] of Object.entries(w.ids)) {
      const result: GqlResult = await gql(server.url, w.reader.token, NODE, { id });
      if (ADMIN_ONLY.has(typename)) expect(result.errors?.[0].extensions?.code, typename).toBe('NOT_FOUND');
      else expect(result.data?.node?.__typename, `${typename}: ${JSON.stringify(result.errors)}`).toBe(typename);
    }
  });

  it('refuses a node ID naming a page of a revision it is not in, or of an unknown revision', async () => {
    const [, pageId] = w.ids.Page[0].split(':');
    const [revisionId] = w.ids.Revision;
    for (const id of [`rev_nothing:${pageId}`, `${revisionId}:page_nothing`, `${revisionId}:${w.ids.Site[0]}`, pageId, 'garbage']) {
      expect((await gql(server.url, w.owner.token, NODE, { id })).errors?.[0].extensions?.code, id).toBe('NOT_FOUND');
    }
  });

  it('nodes(ids) answers in order, null where node would be NOT_FOUND, and refuses more than 100 IDs', async () => {
    const ids = [w.ids.Site[0], 'spc_nothing', w.ids.Page[0], w.ids.SamlProvider[0]];
    const { nodes } = await gqlOk(server.url, w.reader.token, NODES, { ids });
    expect(nodes.map((n: { __typename: string } | null) => n?.__typename ?? null)).toEqual(['Site', null, 'Page', null]);
    const tooMany = await gql(server.url, w.owner.token, NODES, { ids: Array.from({ length: 101 }, () => w.ids.Site[0]) });
    expect(tooMany.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(tooMany.errors?.[0].message).toContain('"ids"');
  });
});

describe('nodes(ids) of mixed kinds', () => {
  it('reads a number of statements that does not grow with the IDs', async () => {
    const small = await seed(1);
    const large = await seed(3);
    const count = async (w: World) => {
      const ids = Object.values(w.ids).flat();
      server.queries.length = 0;
      const { nodes } = await gqlOk(server.url, w.owner.token, NODES, { ids });
      expect(nodes.every(Boolean), JSON.stringify(nodes)).toBe(true);
      return { n: server.queries.length, sql: [...server.queries] };
    };
    const a = await count(small);
    const b = await count(large);
    expect(b.n, `1 of each:\n${a.sql.join('\n')}\n\n3 of each:\n${b.sql.join('\n')}`).toBe(a.n);
  }, 180_000);
});

describe("a site's sections, section groups and site spaces", () => {
  it('are connections that page with cursors and a total', async () => {
    const { org, owner } = await createOrg(server.db, 'Paged sites');
    const spaces: string[] = [];
    for (let i = 0; i < 3; i++) spaces.push((await gqlOk(server.url, owner.token, `mutation($org: ID!) { createSpace(organizationId: $org, input: { title: "S${i}" }) { id } }`, { org: org.id })).createSpace.id);
    const { createSite: site } = await gqlOk(server.url, owner.token, `mutation($org: ID!, $s: [ID!]) { createSite(organizationId: $org, input: { title: "Root", spaces: $s }) { id } }`, { org: org.id, s: spaces });
    const { createSite: sectioned } = await gqlOk(server.url, owner.token, `mutation($org: ID!) { createSite(organizationId: $org, input: { title: "Sections" }) { id } }`, { org: org.id });
    const sections: string[] = [];
    for (const [i, s] of spaces.entries()) sections.push((await gqlOk(server.url, owner.token, `mutation($site: ID!, $s: ID!) { addSiteSection(siteId: $site, spaceId: $s, title: "Sec ${i}") { id } }`, { site: sectioned.id, s })).addSiteSection.id);
    for (const [i, sec] of sections.entries()) await gqlOk(server.url, owner.token, `mutation($site: ID!, $sec: ID!) { createSiteSectionGroup(siteId: $site, title: "G${i}", sections: [$sec]) { id } }`, { site: sectioned.id, sec });

    const page = (field: string, siteId: string, after: string | null) =>
      gqlOk(server.url, owner.token, `query($org: ID!, $site: ID!, $after: String) { organization(id: $org) { site(id: $site) { ${field}(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } } } } }`, {
        org: org.id,
        site: siteId,
        after,
      });
    for (const [field, siteId] of [['siteSpaces', site.id], ['sections', sectioned.id], ['sectionGroups', sectioned.id]] as const) {
      const first = (await page(field, siteId, null)).organization.site[field];
      expect(first.totalCount, field).toBe(3);
      expect(first.edges).toHaveLength(2);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = (await page(field, siteId, first.pageInfo.endCursor)).organization.site[field];
      expect(second.edges).toHaveLength(1);
      expect(second.pageInfo.hasNextPage).toBe(false);
      const ids = [...first.edges, ...second.edges].map((e: { node: { id: string } }) => e.node.id);
      expect(new Set(ids).size).toBe(3);
      if (field === 'sections') expect(ids).toEqual(sections);
    }
    // Backwards with last/before; a cursor of another site's list is refused; paging stays put while a section is added in front.
    const all = (await gqlOk(server.url, owner.token, `query($org: ID!, $site: ID!) { organization(id: $org) { site(id: $site) { sections(first: 10) { edges { cursor node { id } } } } } }`, { org: org.id, site: sectioned.id }))
      .organization.site.sections.edges;
    const back = await gqlOk(server.url, owner.token, `query($org: ID!, $site: ID!, $before: String) { organization(id: $org) { site(id: $site) { sections(last: 1, before: $before) { pageInfo { hasPreviousPage } edges { node { id } } } } } }`, {
      org: org.id,
      site: sectioned.id,
      before: all[2].cursor,
    });
    expect(back.organization.site.sections.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([sections[1]]);
    expect(back.organization.site.sections.pageInfo.hasPreviousPage).toBe(true);
    const foreign = await gql(server.url, owner.token, `query($org: ID!, $site: ID!, $after: String) { organization(id: $org) { site(id: $site) { sections(first: 1, after: $after) { totalCount } } } }`, {
      org: org.id,
      site: site.id,
      after: all[0].cursor,
    });
    expect(foreign.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(foreign.errors?.[0].message).toContain('"after"');
    const { createSpace: extra } = await gqlOk(server.url, owner.token, `mutation($org: ID!) { createSpace(organizationId: $org, input: { title: "Extra" }) { id } }`, { org: org.id });
    const added = (await gqlOk(server.url, owner.token, `mutation($site: ID!, $s: ID!) { addSiteSection(siteId: $site, spaceId: $s, title: "Front") { id } }`, { site: sectioned.id, s: extra.id })).addSiteSection.id;
    await gqlOk(server.url, owner.token, `mutation($site: ID!, $sec: ID!, $first: ID!) { moveSiteSection(siteId: $site, sectionId: $sec, position: { before: $first }) { id } }`, { site: sectioned.id, sec: added, first: sections[0] });
    const rest = (await page('sections', sectioned.id, all[0].cursor)).organization.site.sections;
    expect(rest.totalCount).toBe(4);
    expect(rest.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([sections[1], sections[2]]);

    // REST keeps its shapes: the structure and the site's site-space count.
    const got = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/sites/${sectioned.id}`);
    expect(got.body.siteSpaces).toBe(4);
    const structure = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/sites/${sectioned.id}/structure`);
    expect(structure.body.type).toBe('sections');
    expect(structure.body.structure.map((s: { id: string }) => s.id)).toEqual([added, ...sections]);
  }, 120_000);
});
