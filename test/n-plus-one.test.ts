/**
 * No N+1: the same nested query over 2 and over 20 children per level runs the same number of
 * SQL statements (organization → collections → spaces → permissions/users).
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../src/domain/kernel/ids.js';
import { gqlOk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const NESTED = /* GraphQL */ `
  query Nested($id: ID!) {
    organization(id: $id) {
      id
      permissions { admin }
      collections(first: 20) {
        totalCount
        edges { node {
          id title permissions { admin create } parent { id }
          spaces(first: 20) {
            totalCount
            edges { node {
              id title viewerRole permissions { access admin edit } parent { id } organization { id } comments changeRequestCount changeRequestsOpen
              users(first: 20) { totalCount edges { node { permission user { id displayName } } } }
            } }
          }
        } }
      }
    }
  }
`;

/** An organization with `n` collections of `n` spaces, each granted to `n` members. */
async function seed(n: number) {
  const { org, owner } = await createOrg(server.db, `Fan-out ${n}`);
  const users = Array.from({ length: n }, (_, i) => ({ id: newId('User'), email: `${newId('User')}@n${n}.test`, displayName: `User ${i}` }));
  await server.db.user.createMany({ data: users });
  await server.db.member.createMany({ data: users.map((u) => ({ organizationId: org.id, userId: u.id, role: 'read' as const })) });
  const collections = Array.from({ length: n }, (_, i) => ({ id: newId('Collection'), organizationId: org.id, title: `C${i}`, position: i }));
  await server.db.collection.createMany({ data: collections });
  const spaces = collections.flatMap((c) =>
    Array.from({ length: n }, (_, i) => ({ id: newId('Space'), organizationId: org.id, parentId: c.id, title: `S${i}`, position: i, revisionId: newId('Revision') })),
  );
  await server.db.space.createMany({ data: spaces });
  await server.db.revision.createMany({ data: spaces.map((s) => ({ id: s.revisionId, spaceId: s.id, lineId: s.id, seq: 1 })) });
  await server.db.contentPermission.createMany({
    data: spaces.flatMap((s) => users.map((u) => ({ id: newId('ContentPermission'), organizationId: org.id, spaceId: s.id, userId: u.id, role: 'edit' as const }))),
  });
  return { org, owner };
}

async function statementsFor(n: number) {
  const { org, owner } = await seed(n);
  server.queries.length = 0;
  const data = await gqlOk(server.url, owner.token, NESTED, { id: org.id });
  const count = server.queries.length;
  expect(data.organization.collections.totalCount).toBe(n);
  for (const edge of data.organization.collections.edges) {
    expect(edge.node.spaces.totalCount).toBe(n);
    for (const space of edge.node.spaces.edges) expect(space.node.users.totalCount).toBe(n);
  }
  return { count, sql: [...server.queries] };
}

describe('nested reads', () => {
  it('run a number of SQL statements that does not grow with list sizes', async () => {
    const small = await statementsFor(2);
    const large = await statementsFor(20);
    expect(small.count).toBeGreaterThan(0);
    expect(large.count, `2 children:\n${small.sql.join('\n')}\n\n20 children:\n${large.sql.join('\n')}`).toBe(small.count);
  }, 120_000);
});
