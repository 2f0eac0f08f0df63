/**
 * Space lists read only the columns the selected fields need: every field of Space answers the
 * same when selected alone as when every field is selected (so a field whose columns were left
 * out of SPACE_FIELD_COLUMNS cannot go unnoticed), and every field is listed there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemberRole } from '@gitbook/api';
import { SPACE_FIELD_COLUMNS } from '../src/schema/types/space.js';
import { gqlOk, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const spaceType = /^type Space implements[^{]*\{([\s\S]*?)^\}/m.exec(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'))![1];
const FIELDS = [...spaceType.matchAll(/^ {2}(\w+)[(:]/gm)].map((m) => m[1]);
const SELECTABLE = () => FIELDS.filter((f) => !LOOKUPS.has(f));

/** A selection of each field (sub-fields for objects, the count for connections). */
const SUBSELECTION: Record<string, string> = {
  organization: '{ id }',
  parent: '{ id }',
  permissions: '{ access admin edit comment merge review }',
  urls: '{ location app }',
  users: '{ totalCount }',
  teams: '{ totalCount }',
  aggregatedUsers: '{ totalCount }',
  links: '{ totalCount }',
  changeRequests: '{ totalCount }',
  commentThreads: '{ totalCount }',
  commenters: '{ totalCount }',
  jobs: '{ totalCount }',
  revision: '{ id }',
  gitSync: '{ repoName }',
};
/** Lookups by argument rather than fields of the row, and signed URLs made afresh: nothing to compare alone. */
const LOOKUPS = new Set(['changeRequest', 'comment', 'revisionById', 'document', 'search', 'pdfURL']);
const select = (field: string) => `${field} ${SUBSELECTION[field] ?? ''}`;

describe('column selection of space lists', () => {
  it('maps every field of Space to the columns it reads', () => {
    expect(FIELDS.length).toBeGreaterThan(20);
    for (const field of FIELDS) expect(Object.hasOwn(SPACE_FIELD_COLUMNS, field), field).toBe(true);
  });

  it('answers each field alone exactly as with every field selected, in both space lists', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const collection = (await api.orgs.createCollection(org.id, { title: 'Shelf' })).data;
    await api.orgs.createSpace(org.id, { title: 'Inside', emoji: '📘', parent: collection.id });
    const all = SELECTABLE().map(select).join(' ');
    const list = (fields: string) => `query($id: ID!, $c: ID!) {
      organization(id: $id) { spaces(first: 5) { edges { node { ${fields} } } } }
      collection(id: $c) { spaces(first: 5) { edges { node { ${fields} } } } } }`;
    const full = await gqlOk(server.url, owner.token, list(all), { id: org.id, c: collection.id });
    for (const field of SELECTABLE()) {
      const alone = await gqlOk(server.url, owner.token, list(select(field)), { id: org.id, c: collection.id });
      for (const path of ['organization', 'collection'] as const) {
        const expected = full[path].spaces.edges.map((e: { node: Record<string, unknown> }) => ({ [field]: e.node[field] }));
        expect(alone[path].spaces.edges.map((e: { node: unknown }) => e.node), `${path}.spaces { ${field} }`).toEqual(expected);
      }
    }
  });

  it('reads the spaces of many collections at once (one JSON array each) exactly as of one', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const shelves = [];
    for (const title of ['One', 'Two', 'Three']) {
      const collection = (await api.orgs.createCollection(org.id, { title })).data;
      for (const name of ['a', 'b']) await api.orgs.createSpace(org.id, { title: `${title} ${name}`, emoji: '📘', parent: collection.id });
      shelves.push(collection.id);
    }
    const all = SELECTABLE().map(select).join(' ');
    const page = `spaces(first: 5) { edges { cursor node { ${all} } } pageInfo { hasNextPage endCursor } }`;
    const nested = await gqlOk(server.url, owner.token, `query($id: ID!) { organization(id: $id) { collections(first: 10) { edges { node { id ${page} } } } } }`, { id: org.id });
    const batched = nested.organization.collections.edges.map((e: { node: { id: string } }) => e.node);
    expect(batched.map((c: { id: string }) => c.id)).toEqual(shelves);
    for (const collection of batched) {
      const alone = await gqlOk(server.url, owner.token, `query($id: ID!) { collection(id: $id) { ${page} } }`, { id: collection.id });
      expect(collection.spaces.edges).toHaveLength(2);
      expect(collection.spaces).toEqual(alone.collection.spaces);
    }
  });

  it('reads organization → collections → spaces in one statement, for members and guests alike', async () => {
    const { org, owner } = await createOrg(server.db);
    const { createActor } = await import('./helpers/factories.js');
    const api = sdk(server.url, owner.token);
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const shelves: string[] = [];
    const granted: string[] = [];
    for (const title of ['One', 'Two', 'Three']) {
      const collection = (await api.orgs.createCollection(org.id, { title })).data;
      shelves.push(collection.id);
      // A guest sees a collection through a grant on it (then all its spaces), not through its spaces'.
      if (title === 'One') await api.collections.inviteToCollection(collection.id, { role: MemberRole.Read, users: [guest.id] });
      for (const name of ['a', 'b', 'c']) {
        const space = (await api.orgs.createSpace(org.id, { title: `${title} ${name}`, emoji: '📘', parent: collection.id })).data;
        if (title === 'One') granted.push(space.id);
        else if (name !== 'b') await api.spaces.inviteToSpace(space.id, { role: MemberRole.Read, users: [guest.id] });
      }
    }
    // Variables, a fragment and an alias: the nested page is found as its own resolver would see it.
    const nested = `query($id: ID!, $n: Int) { organization(id: $id) { collections(first: 10) { edges { node { id ...Shelf } } } } }
      fragment Shelf on Collection { inside: spaces(first: $n) { totalCount edges { cursor node { id title viewerRole } } pageInfo { hasNextPage endCursor } } }`;
    const alone = `query($id: ID!, $n: Int) { collection(id: $id) { inside: spaces(first: $n) { totalCount edges { cursor node { id title viewerRole } } pageInfo { hasNextPage endCursor } } } }`;
    for (const [reader, expected] of [[owner, 9], [guest, 3]] as const) {
      // One statement: the organization (with the caller's membership), its collections and their
      // spaces, as a member or as a guest sees them (beside the token's lookup, on a token's first
      // use); a guest's `totalCount`s are one COUNT more. The first time a guest reads it, the
      // statement made for a member finds a guest and the guest's is read after it.
      for (const first of [true, false]) {
        server.queries.length = 0;
        await gqlOk(server.url, reader.token, nested, { id: org.id, n: 2 });
        const reads = server.queries.filter((q) => !q.includes('"ApiToken"'));
        expect(reads.length, reads.join('\n')).toBe(reader === guest ? (first ? 3 : 2) : 1);
      }
      const data = await gqlOk(server.url, reader.token, nested, { id: org.id, n: 2 });
      const edges = data.organization.collections.edges.map((e: { node: { id: string; inside: unknown } }) => e.node);
      let seen = 0;
      for (const collection of edges) {
        const one = await gqlOk(server.url, reader.token, alone, { id: collection.id, n: 2 });
        expect(collection.inside).toEqual(one.collection.inside);
        seen += collection.inside.totalCount;
        // The page's cursor reads the rest of that collection's list.
        const rest = await gqlOk(server.url, reader.token, `query($id: ID!, $after: String) { collection(id: $id) { spaces(first: 5, after: $after) { edges { node { id } } } } }`, {
          id: collection.id,
          after: collection.inside.pageInfo.endCursor,
        });
        expect(rest.collection.spaces.edges.length).toBe(collection.inside.totalCount - collection.inside.edges.length);
      }
      expect(seen).toBe(expected);
      const listed = edges.flatMap((c: { inside: { edges: { node: { id: string } }[] } }) => c.inside.edges.map((e) => e.node.id));
      if (reader === guest) expect(listed.every((id: string) => granted.includes(id)) && edges.length === 1).toBe(true);
    }
  });

  it('answers a page of collections read with their organization exactly as one read on its own', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const top = (await api.orgs.createCollection(org.id, { title: 'Top' })).data;
    await api.orgs.createCollection(org.id, { title: 'Child', parent: top.id } as never);
    for (const title of ['Second', 'Third']) await api.orgs.createCollection(org.id, { title });
    await api.orgs.createSpace(org.id, { title: 'Inside', emoji: '📘', parent: top.id });
    const fields = `id title description defaultLevel createdAt updatedAt organizationId parentId viewerRole permissions { view admin create }
      urls { location app } parent { id } organization { id } spaces(first: 2) { totalCount edges { cursor node { id title } } } collections(first: 2) { totalCount }`;
    const page = (args: string) => `collections(${args}) { totalCount edges { cursor node { ${fields} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }`;
    for (const args of ['first: 2', 'first: 10', 'first: 2, nested: false']) {
      // organization(id) reads the page in its own statement; node(id) reaches the same field without.
      const ahead = await gqlOk(server.url, owner.token, `query($id: ID!) { organization(id: $id) { ${page(args)} } }`, { id: org.id });
      const alone = await gqlOk(server.url, owner.token, `query($id: ID!) { node(id: $id) { ... on Organization { ${page(args)} } } }`, { id: org.id });
      expect(ahead.organization.collections, args).toEqual(alone.node.collections);
      // Its cursors carry on in the list.
      const after = ahead.organization.collections.pageInfo.endCursor;
      const rest = (query: string) => gqlOk(server.url, owner.token, query, { id: org.id, after });
      const nested = args.includes('nested') ? ', nested: false' : '';
      const next = await rest(`query($id: ID!, $after: String) { organization(id: $id) { collections(first: 10, after: $after${nested}) { edges { node { id } } } } }`);
      const expected = await rest(`query($id: ID!, $after: String) { node(id: $id) { ... on Organization { collections(first: 10, after: $after${nested}) { edges { node { id } } } } } }`);
      expect(next.organization.collections).toEqual(expected.node.collections);
    }
    // Not a member: not found, read ahead or not.
    const { owner: stranger } = await createOrg(server.db, 'Elsewhere');
    const { gql } = await import('./helpers/clients.js');
    const refused = await gql(server.url, stranger.token, `query($id: ID!) { organization(id: $id) { ${page('first: 2')} } }`, { id: org.id });
    expect(refused.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
  it('answers a page of spaces read with their organization exactly as one read on its own, in one statement', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const { createActor } = await import('./helpers/factories.js');
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const shelf = (await api.orgs.createCollection(org.id, { title: 'Shelf' })).data;
    const ids: string[] = [];
    for (const title of ['One', 'Two', 'Three', 'Four']) ids.push((await api.orgs.createSpace(org.id, { title, emoji: '📘', parent: title === 'Two' ? shelf.id : undefined })).data.id);
    for (const id of [ids[1], ids[3]]) await api.spaces.inviteToSpace(id, { role: MemberRole.Edit, users: [guest.id] });
    const fields = 'id title emoji visibility editMode defaultLevel createdAt updatedAt viewerRole permissions { access admin edit } parent { id } organization { id } urls { location app }';
    const page = `spaces(first: 2) { totalCount edges { cursor node { ${fields} } } pageInfo { hasNextPage endCursor } }`;
    for (const [reader, count] of [[owner, 4], [guest, 2]] as const) {
      await gqlOk(server.url, reader.token, `query($id: ID!) { organization(id: $id) { ${page} } }`, { id: org.id }); // a guest's first read learns it is one
      server.queries.length = 0;
      const ahead = await gqlOk(server.url, reader.token, `query($id: ID!) { organization(id: $id) { spaces(first: 2) { totalCount edges { node { id } } } } }`, { id: org.id });
      const reads = server.queries.filter((q) => !q.includes('"ApiToken"'));
      expect(reads.length, reads.join('\n')).toBe(reader === guest ? 2 : 1); // a guest's totalCount is a COUNT
      expect(ahead.organization.spaces.totalCount).toBe(count);
      const [withOrg, alone] = await Promise.all([
        gqlOk(server.url, reader.token, `query($id: ID!) { organization(id: $id) { ${page} } }`, { id: org.id }),
        gqlOk(server.url, reader.token, `query($id: ID!) { node(id: $id) { ... on Organization { ${page} } } }`, { id: org.id }),
      ]);
      expect(withOrg.organization.spaces).toEqual(alone.node.spaces);
    }
  });
});
