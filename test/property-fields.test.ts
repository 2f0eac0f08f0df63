/**
 * Fields answered as plain properties (schema/property-fields.ts): a resolver that only reads the
 * parent's property of the field's name goes, so that graphql-jit reads it inline; any other
 * resolver stays. A Pothos upgrade that changed how it writes those resolvers would leave them in
 * place; this says so.
 */
import { GraphQLObjectType, GraphQLSchema, GraphQLString, graphql } from 'graphql';
import { describe, expect, it } from 'vitest';
import { answerPropertyFieldsInline } from '../src/schema/property-fields.js';
import { schema } from '../src/schema/index.js';

const field = (name: string) => {
  const [type, fieldName] = name.split('.');
  return (schema.getType(type) as GraphQLObjectType).getFields()[fieldName];
};

describe('fields answered as properties', () => {
  it("reads the Prisma node types' IDs and the connections' edges, nodes and page info inline", () => {
    const prismaNodes = Object.values(schema.getTypeMap()).filter((type) => type.extensions.pothosPrismaModel && 'getInterfaces' in type && type.getInterfaces().some((i) => i.name === 'Node'));
    expect(prismaNodes.map((type) => type.name).sort()).toEqual(['ChangeRequest', 'Collection', 'Organization', 'Space', 'Team', 'User']);
    for (const type of prismaNodes) expect(field(`${type.name}.id`).resolve, type.name).toBeUndefined();
    for (const name of ['CollectionSpacesConnection.edges', 'CollectionSpacesConnection.pageInfo', 'CollectionSpacesConnectionEdge.node']) expect(field(name).resolve, name).toBeUndefined();
    // A resolver that does more stays.
    expect(field('Collection.spaces').resolve).toBeTypeOf('function');
  });

  it('keeps every resolver but an exact read of the same property, with the same answers', async () => {
    const Thing = new GraphQLObjectType<{ name: string; loud: string }>({
      name: 'Thing',
      fields: {
        name: { type: GraphQLString, resolve: (thing) => thing.name },
        other: { type: GraphQLString, resolve: (thing) => thing.name },
        loud: { type: GraphQLString, resolve: (thing) => thing.loud.toUpperCase() },
      },
    });
    const small = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { thing: { type: Thing, resolve: () => ({ name: 'a', loud: 'b' }) } } }) });
    expect(answerPropertyFieldsInline(small)).toEqual(['Thing.name']);
    expect((await graphql({ schema: small, source: '{ thing { name other loud } }' })).data).toEqual({ thing: { name: 'a', other: 'a', loud: 'B' } });
  });
});
