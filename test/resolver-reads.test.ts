/**
 * Reads that left the resolvers for the domain and its loaders: a site's section groups and an
 * OpenAPI specification's versions, last version and processing job cost a fixed number of SQL
 * statements whatever the number of parents; the versions are a connection with its total; and
 * the one REST parser of `position` answers every ordered list alike.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../src/domain/kernel/ids.js';
import { gqlOk, http } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const SITES = /* GraphQL */ `
  query Sites($id: ID!) {
    organization(id: $id) { sites(first: 50) { totalCount edges { node { id title sectionGroups { edges { node { id title } } } } } } }
  }
`;

/** An organization with `n` sites, each with three section groups stored out of order. */
async function seedSites(n: number) {
  const { org, owner } = await createOrg(server.db, `Sites ${n}`);
  const sites = Array.from({ length: n }, (_, i) => ({ id: newId('Site'), organizationId: org.id, title: `Site ${i}`, basename: `site-${i}`, customization: {}, visitorAuthKey: 'k' }));
  await server.db.site.createMany({ data: sites });
  await server.db.siteSectionGroup.createMany({
    data: sites.flatMap((s) => ['c', 'a', 'b'].map((key) => ({ id: newId('SiteSectionGroup'), siteId: s.id, title: `${s.title} ${key}`, position: key }))),
  });
  return { org, owner };
}

const SPECS = /* GraphQL */ `
  query Specs($id: ID!) {
    organization(id: $id) {
      openAPISpecs(first: 50) {
        totalCount
        edges { node { slug lastVersion { version } versions(first: 2) { totalCount edges { cursor node { version } } pageInfo { hasNextPage } } processingJob { id state } } }
      }
    }
  }
`;

/** An organization with `n` specifications, each with three versions and two processing jobs (the later one succeeded). */
async function seedSpecs(n: number) {
  const { org, owner } = await createOrg(server.db, `Specs ${n}`);
  const specs = Array.from({ length: n }, (_, i) => ({ id: newId('OpenAPISpec'), organizationId: org.id, slug: `spec-${i}`, createdById: owner.id, processingState: 'complete' as const }));
  await server.db.openAPISpec.createMany({ data: specs });
  const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
  const versions = specs.flatMap((s) =>
    [1, 2, 3].map((v) => ({ id: newId('OpenAPISpecVersion'), specId: s.id, contentHash: `${s.id}-${v}`, text: '{}', format: 'json', title: s.slug, version: `${v}.0.0`, openapi: '3.1.0', operations: v, createdAt: at(v) })),
  );
  await server.db.openAPISpecVersion.createMany({ data: versions });
  for (const spec of specs) await server.db.openAPISpec.update({ where: { id: spec.id }, data: { lastVersionId: versions.find((v) => v.specId === spec.id && v.version === '3.0.0')!.id } });
  const jobs = specs.flatMap((s) =>
    (['failed', 'succeeded'] as const).map((state, i) => ({ id: newId('Job'), organizationId: org.id, kind: 'openapi_process' as const, state, input: { specId: s.id }, createdById: owner.id, createdAt: at(10 + i) })),
  );
  await server.db.job.createMany({ data: jobs });
  return { org, owner, specs, jobs };
}

async function statements(query: string, org: { id: string }, token: string) {
  server.queries.length = 0;
  const data = await gqlOk(server.url, token, query, { id: org.id });
  return { data, count: server.queries.length, sql: [...server.queries] };
}

describe('reads of the domain, batched by loaders', () => {
  it("reads every site's section groups, in order, in a number of statements that does not grow with the sites", async () => {
    const small = await seedSites(2);
    const large = await seedSites(8);
    const a = await statements(SITES, small.org, small.owner.token);
    const b = await statements(SITES, large.org, large.owner.token);
    expect(b.data.organization.sites.totalCount).toBe(8);
    for (const edge of b.data.organization.sites.edges) {
      expect(edge.node.sectionGroups.edges.map((e: { node: { title: string } }) => e.node.title)).toEqual(['a', 'b', 'c'].map((k) => `${edge.node.title} ${k}`));
    }
    expect(b.count, `2 sites:\n${a.sql.join('\n')}\n\n8 sites:\n${b.sql.join('\n')}`).toBe(a.count);
  }, 60_000);

  it("pages each specification's versions newest first with their total, and reads last versions and processing jobs, in a fixed number of statements", async () => {
    const small = await seedSpecs(2);
    const large = await seedSpecs(8);
    const a = await statements(SPECS, small.org, small.owner.token);
    const b = await statements(SPECS, large.org, large.owner.token);
    expect(b.count, `2 specs:\n${a.sql.join('\n')}\n\n8 specs:\n${b.sql.join('\n')}`).toBe(a.count);
    const latestJob = new Map(large.specs.map((s) => [s.slug, large.jobs.filter((j) => j.input.specId === s.id)[1].id]));
    for (const { node } of b.data.organization.openAPISpecs.edges) {
      expect(node.lastVersion).toEqual({ version: '3.0.0' });
      expect(node.versions.totalCount).toBe(3);
      expect(node.versions.edges.map((e: { node: { version: string } }) => e.node.version)).toEqual(['3.0.0', '2.0.0']);
      expect(node.versions.pageInfo.hasNextPage).toBe(true);
      expect(node.processingJob).toEqual({ id: latestJob.get(node.slug), state: 'succeeded' });
    }

    // The next page, from the cursor of the second version.
    const first = b.data.organization.openAPISpecs.edges[0].node;
    const next = await gqlOk(server.url, large.owner.token, `query($id: ID!, $slug: String!, $after: String) { organization(id: $id) { openAPISpec(slug: $slug) { versions(first: 2, after: $after) { edges { node { version } } pageInfo { hasNextPage } } } } }`, {
      id: large.org.id,
      slug: first.slug,
      after: first.versions.edges[1].cursor,
    });
    expect(next.organization.openAPISpec.versions).toEqual({ edges: [{ node: { version: '1.0.0' } }], pageInfo: { hasNextPage: false } });
  }, 60_000);
});

describe('one REST parser of positions', () => {
  it('reads pointers or plain IDs for spaces as for site spaces, and refuses the same malformed positions with the same 400', async () => {
    const { org, owner } = await createOrg(server.db, 'Positions');
    const space = async (title: string) => (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title })).body.id as string;
    const [a, b] = [await space('A'), await space('B')];
    expect((await http(server.url, owner.token, 'POST', `/spaces/${b}/move`, { position: { before: { type: 'space', space: a } } })).status).toBe(200);
    expect((await http(server.url, owner.token, 'POST', `/spaces/${a}/move`, { position: { before: b } })).status).toBe(200);

    const site = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites`, { title: 'Docs' })).body.id as string;
    const siteSpace = async (spaceId: string) => (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites/${site}/site-spaces`, { spaceId })).body.id as string;
    const [sa, sb] = [await siteSpace(a), await siteSpace(b)];
    expect((await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites/${site}/site-spaces/${sb}/move`, { position: { before: { type: 'site-space', siteSpace: sa } } })).status).toBe(200);

    const malformed: [unknown, string][] = [ // the position, what the message says
      ['first', '"position"'],
      [{ before: a, beside: a }, '"position.beside"'],
      [{ before: { type: 'space' } }, '"position.before"'],
      [{ before: a, after: b }, 'not both'],
    ];
    for (const [position, says] of malformed) {
      const content = await http(server.url, owner.token, 'POST', `/spaces/${a}/move`, { position });
      const sited = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites/${site}/site-spaces/${sa}/move`, { position });
      for (const res of [content, sited]) {
        expect(res.status, JSON.stringify({ position, body: res.body })).toBe(400);
        expect(res.body.error.message).toContain(says);
      }
    }
  }, 60_000);
});
