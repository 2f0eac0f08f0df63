/**
 * The Prisma node types' `id` is a plain property of the row (schema/plain-node-ids.ts), so that
 * graphql-jit reads it inline: no resolver, no promise for each node of a list. A Pothos upgrade
 * that changed how a node states its ID would leave the resolvers in place; this says so.
 */
import type { GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/schema/index.js';

describe('node IDs', () => {
  it('are read as properties on every Prisma node type', () => {
    // (Told apart by shape: the schema's graphql module is not the test's, for instanceof.)
    const objects = Object.values(schema.getTypeMap()).filter((type): type is GraphQLObjectType => 'getInterfaces' in type && !('resolveType' in type && type.resolveType));
    const prismaNodes = objects.filter((type) => type.extensions.pothosPrismaModel && type.getInterfaces().some((i) => i.name === 'Node'));
    expect(prismaNodes.map((type) => type.name).sort()).toEqual(['ChangeRequest', 'Collection', 'Organization', 'Space', 'Team', 'User']);
    for (const type of prismaNodes) expect(type.getFields().id.resolve, type.name).toBeUndefined();
  });
});
