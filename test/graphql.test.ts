import { describe, expect, it } from 'vitest';
import { gql, gqlOk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

describe('GraphQL graph', () => {
  it('walks viewer → organizations → spaces, with the same ids as REST', async () => {
    const { org, owner } = await createOrg(server.db, 'Graph');
    const created = await gqlOk(server.url, owner.token, `mutation { createSpace(organizationId: "${org.id}", input: { title: "One" }) { id title organization { id } } }`);
    expect(created.createSpace.organization.id).toBe(org.id);
    const rest = await fetch(`${server.url}/v1/spaces/${created.createSpace.id}`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect((await rest.json()).id).toBe(created.createSpace.id);

    const data = await gqlOk(
      server.url,
      owner.token,
      `{ viewer { id email } organizations { totalCount edges { cursor node { id title viewerRole permissions { admin createContent }
         spaces(first: 10) { totalCount edges { node { id title viewerRole permissions { access admin } organization { id } } } } } } } }`,
    );
    expect(data.viewer).toEqual({ id: owner.id, email: owner.email });
    const node = data.organizations.edges.map((e: any) => e.node).find((o: any) => o.id === org.id);
    expect(node).toMatchObject({ title: 'Graph', viewerRole: 'admin', permissions: { admin: true, createContent: true } });
    expect(node.spaces.totalCount).toBe(1);
    expect(node.spaces.edges[0].node).toMatchObject({ id: created.createSpace.id, viewerRole: 'admin', organization: { id: org.id } });
  });

  it('resolves node(id) for organizations, spaces and users through access checks', async () => {
    const { org, owner } = await createOrg(server.db);
    const { createSpace } = await gqlOk(server.url, owner.token, `mutation { createSpace(organizationId: "${org.id}") { id } }`);
    const data = await gqlOk(
      server.url,
      owner.token,
      `query($o: ID!, $s: ID!, $u: ID!) {
        o: node(id: $o) { __typename id ... on Organization { title } }
        s: node(id: $s) { __typename id ... on Space { title } }
        u: node(id: $u) { __typename id ... on User { email } } }`,
      { o: org.id, s: createSpace.id, u: owner.id },
    );
    expect(data.o).toMatchObject({ __typename: 'Organization', id: org.id });
    expect(data.s).toMatchObject({ __typename: 'Space', id: createSpace.id, title: 'Untitled' });
    expect(data.u).toMatchObject({ __typename: 'User', email: owner.email });

    const outsider = (await createOrg(server.db, 'Outside')).owner;
    for (const id of [org.id, createSpace.id, owner.id, 'spc_doesnotexist', 'garbage']) {
      const result = await gql(server.url, outsider.token, `query($id: ID!) { node(id: $id) { id } }`, { id });
      expect(result.errors?.[0].extensions?.code, id).toBe('NOT_FOUND');
    }
  });

  it('isolates organizations: another organization sees NOT_FOUND, never data', async () => {
    const { org, owner } = await createOrg(server.db);
    const { createSpace } = await gqlOk(server.url, owner.token, `mutation { createSpace(organizationId: "${org.id}") { id } }`);
    const outsider = (await createOrg(server.db, 'Outside')).owner;
    const queries = [
      [`{ organization(id: "${org.id}") { id title } }`, 'NOT_FOUND'],
      [`{ space(id: "${createSpace.id}") { id } }`, 'NOT_FOUND'],
      [`mutation { updateSpace(id: "${createSpace.id}", input: { title: "x" }) { id } }`, 'NOT_FOUND'],
      [`mutation { deleteSpace(id: "${createSpace.id}") }`, 'NOT_FOUND'],
      [`mutation { createSpace(organizationId: "${org.id}") { id } }`, 'NOT_FOUND'],
      [`mutation { updateOrganization(id: "${org.id}", input: { title: "Hijacked" }) { id } }`, 'NOT_FOUND'],
    ] as const;
    for (const [query, code] of queries) {
      const result = await gql(server.url, outsider.token, query);
      expect(result.errors?.[0].extensions?.code, query).toBe(code);
      expect(result.data ?? null, query).toBeNull();
    }
    const lists = await gqlOk(server.url, outsider.token, `{ organizations { edges { node { id } } } }`);
    expect(lists.organizations.edges.map((e: any) => e.node.id)).not.toContain(org.id);
  });

  it('answers 401 without a token, and FORBIDDEN for a member without the role', async () => {
    const { org } = await createOrg(server.db);
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    expect(response.status).toBe(401);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const denied = await gql(server.url, reader.token, `mutation { updateOrganization(id: "${org.id}", input: { title: "Nope" }) { id } }`);
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it('validates input with BAD_USER_INPUT / BAD_REQUEST codes naming the field', async () => {
    const { org, owner } = await createOrg(server.db);
    const typed = await gql(server.url, owner.token, `mutation($i: CreateSpaceInput) { createSpace(organizationId: "${org.id}", input: $i) { id } }`, { i: { title: 3 } });
    expect(typed.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(typed.errors?.[0].message).toContain('title');
    const long = await gql(server.url, owner.token, `mutation { updateOrganization(id: "${org.id}", input: { title: "x" }) { id } }`);
    expect(long.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(long.errors?.[0].message).toContain('title');
    const page = await gql(server.url, owner.token, `{ organization(id: "${org.id}") { spaces(first: 1001) { totalCount } } }`);
    expect(page.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(page.errors?.[0].message).toContain('first');
  });

  it('rejects documents beyond the depth and alias limits', async () => {
    const { owner } = await createOrg(server.db);
    let deep = 'id';
    for (let i = 0; i < 5; i++) deep = `parent { spaces { edges { node { ${deep} } } } }`; // 20 levels below space
    const tooDeep = await gql(server.url, owner.token, `{ viewer { id } space(id: "x") { ${deep} } }`);
    expect(tooDeep.errors?.[0].message).toMatch(/depth/i);
    const aliases = Array.from({ length: 25 }, (_, i) => `a${i}: viewer { id }`).join(' ');
    const tooMany = await gql(server.url, owner.token, `{ ${aliases} }`);
    expect(tooMany.errors?.[0].message).toMatch(/alias/i);
  });
});
