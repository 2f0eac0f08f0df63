/**
 * The `id` of the Prisma node types read as a plain property. Pothos's global-ID field answers a
 * node's `id` through an async resolver (it awaits the node's own, then encodes), and this
 * server's encoding keeps the ID as it is (builder.ts `encodeGlobalID`): the answer is the row's
 * `id`. Without a resolver graphql-jit reads the property inline (it inlines only a field with none); with one, every node of a list
 * cost a resolve info with its path, a promise and a microtask (in B, organization → 20
 * collections → 20 spaces: 420 a request, ~40% of what a request allocated).
 */
import type { GraphQLSchema } from 'graphql';

export function readNodeIdsAsProperties(schema: GraphQLSchema): string[] {
  const node = schema.getType('Node');
  const changed: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!('getInterfaces' in type) || !type.getInterfaces().some((i) => i === node) || !type.extensions.pothosPrismaModel) continue;
    const field = type.getFields().id;
    const own = (type.extensions.pothosOptions as { id?: { resolve?: (row: object) => unknown } }).id?.resolve;
    // Only where the node's ID is its row's `id` (`id: { field: 'id' }`), as a probe row shows.
    if (!own || own({ id: 'probe' }) !== 'probe') continue;
    field.resolve = undefined;
    changed.push(type.name);
  }
  return changed;
}
