/**
 * The organization the throughput and memory benchmarks read (bench-throughput.ts,
 * bench-memory.ts): 20 collections × 20 spaces, 20 extra members, 5 user grants per space; and the
 * GraphQL documents of their requests A (one space) and B (organization → collections → spaces).
 */
import { createPrismaClient } from '../src/db/client.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { newId } from '../src/domain/kernel/ids.js';

export const SIZE = 20;

export type Seed = { orgId: string; spaceId: string; token: string };
export async function seed(url: string): Promise<Seed> {
  const db = createPrismaClient(url, { poolMax: 10 });
  const { organization: org, token } = await createOrganizationWithOwner(db, { title: 'Bench', ownerEmail: `bench-${Date.now()}@example.test` });
  const users = Array.from({ length: SIZE }, (_, i) => ({ id: newId('User'), email: `${newId('User')}@bench.test`, displayName: `U${i}` }));
  await db.user.createMany({ data: users });
  await db.member.createMany({ data: users.map((u) => ({ organizationId: org.id, userId: u.id, role: 'read' as const })) });
  const collections = Array.from({ length: SIZE }, (_, i) => ({ id: newId('Collection'), organizationId: org.id, title: `C${i}`, position: i }));
  await db.collection.createMany({ data: collections });
  const spaces = collections.flatMap((c) =>
    Array.from({ length: SIZE }, (_, i) => ({ id: newId('Space'), organizationId: org.id, parentId: c.id, title: `S${i}`, position: i, revisionId: newId('Revision') })),
  );
  await db.space.createMany({ data: spaces });
  await db.revision.createMany({ data: spaces.map((s) => ({ id: s.revisionId, spaceId: s.id, lineId: s.id, seq: 1 })) });
  await db.contentPermission.createMany({
    data: spaces.flatMap((s) => users.slice(0, 5).map((u) => ({ id: newId('ContentPermission'), organizationId: org.id, spaceId: s.id, userId: u.id, role: 'edit' as const }))),
  });
  await db.$disconnect();
  return { orgId: org.id, spaceId: spaces[0].id, token };
}

export const SPACE_QUERY = `query($id: ID!) { space(id: $id) { id title emoji visibility createdAt updatedAt permissions { access admin edit } } }`;
export const NESTED_QUERY = `query($id: ID!) { organization(id: $id) { collections(first: ${SIZE}) { edges { node { id title spaces(first: ${SIZE}) { edges { node { id title } } } } } } } }`;
