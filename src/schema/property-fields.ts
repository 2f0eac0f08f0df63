/**
 * Fields whose resolver only reads the parent's property of the same name lose the resolver:
 * graphql-jit inlines a field only when it has none (a plain property read); with one, every
 * value costs a call, a resolve info with its response path, and for an async resolver a promise
 * and a microtask. The answers are the same. Two kinds:
 *
 * - The Prisma node types' `id`. Pothos's global-ID field answers it through an async resolver (it
 *   awaits the node's own, then encodes), and this server's encoding keeps the ID as it is
 *   (builder.ts `encodeGlobalID`): the answer is the row's `id`. Checked per type with a probe row.
 * - Resolvers written `(x) => x.<the field's name>`: Pothos relay's `edges`, `node` and
 *   `pageInfo`, and fields of ours. Recognized by their source text, exactly that form only.
 *
 * In B (organization → 20 collections → 20 spaces) these were 860 resolver calls a request, 420
 * of them async.
 */
import type { GraphQLObjectType, GraphQLSchema } from 'graphql';

/** `(x) => x.name` or `x => x.name`, nothing else. */
const PROPERTY_READ = /^\(?\s*([A-Za-z_$][\w$]*)\s*\)?\s*=>\s*\1\.([A-Za-z_$][\w$]*)$/;

function isNodeIdOfRow(type: GraphQLObjectType): boolean {
  if (!type.extensions.pothosPrismaModel || !type.getInterfaces().some((i) => i.name === 'Node')) return false;
  const own = (type.extensions.pothosOptions as { id?: { resolve?: (row: object) => unknown } }).id?.resolve;
  return !!own && own({ id: 'probe' }) === 'probe';
}

/** Clears those resolvers in `schema`; returns the fields changed (`Type.field`). */
export function answerPropertyFieldsInline(schema: GraphQLSchema): string[] {
  const changed: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!('getInterfaces' in type) || type.name.startsWith('__') || ('resolveType' in type && type.resolveType)) continue;
    const object = type as GraphQLObjectType;
    for (const field of Object.values(object.getFields())) {
      if (!field.resolve) continue;
      const read = PROPERTY_READ.exec(String(field.resolve));
      if ((read && read[2] === field.name) || (field.name === 'id' && isNodeIdOfRow(object))) {
        field.resolve = undefined;
        changed.push(`${object.name}.${field.name}`);
      }
    }
  }
  return changed;
}
