/**
 * Space lists read only the columns the selected fields need: every field of Space answers the
 * same when selected alone as when every field is selected (so a field whose columns were left
 * out of SPACE_FIELD_COLUMNS cannot go unnoticed), and every field is listed there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SPACE_FIELD_COLUMNS } from '../src/schema/types/space.js';
import { gqlOk, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const spaceType = /^type Space implements[^{]*\{([\s\S]*?)^\}/m.exec(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'))![1];
const FIELDS = [...spaceType.matchAll(/^ {2}(\w+)[(:]/gm)].map((m) => m[1]);

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
};
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
    const all = FIELDS.map(select).join(' ');
    const list = (fields: string) => `query($id: ID!, $c: ID!) {
      organization(id: $id) { spaces(first: 5) { edges { node { ${fields} } } } }
      collection(id: $c) { spaces(first: 5) { edges { node { ${fields} } } } } }`;
    const full = await gqlOk(server.url, owner.token, list(all), { id: org.id, c: collection.id });
    for (const field of FIELDS) {
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
    const all = FIELDS.map(select).join(' ');
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
});
