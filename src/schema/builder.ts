/** The Pothos schema builder: Prisma-backed object types and Relay nodes/connections. */
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import { kindOfId } from '../domain/kernel/ids.js';
import type { Context } from './context.js';
import { loadNode, loadNodes } from './node-loaders.js';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    File: { Input: File; Output: never };
  };
}>({
  defaultFieldNullability: false,
  plugins: [PrismaPlugin, RelayPlugin, SimpleObjectsPlugin],
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  relay: {
    // IDs are the same strings as in REST; their prefix names the type (src/domain/kernel/ids.ts).
    encodeGlobalID: (_typename, id) => String(id),
    decodeGlobalID: (globalID) => ({ typename: kindOfId(globalID) ?? 'Unknown', id: globalID }),
    cursorType: 'String',
    clientMutationId: 'omit',
    // Both read the raw ID (decodeGlobalID keeps it whole): node-loaders.ts decides its kind.
    nodeQueryOptions: {
      description: 'The object of an ID, to whoever may read it through its own field; otherwise NOT_FOUND. Pages, files and reusable contents: their revision-qualified `nodeId`.',
      resolve: (_root, { id }, ctx) => loadNode(ctx, String(id.id)),
    },
    nodesQueryOptions: {
      description: 'The objects of up to 100 IDs, in order; null where `node` answers NOT_FOUND. Read together: one statement per kind, not per ID.',
      resolve: (_root, { ids }, ctx) => loadNodes(ctx, ids.map((id) => String(id.id))),
    },
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

builder.scalarType('DateTime', {
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO 8601 date-time');
    return date;
  },
});

builder.scalarType('File', {
  description: 'A file of a GraphQL multipart request (graphql-multipart-request-spec); input only.',
  serialize: () => {
    throw new TypeError('File is an input type');
  },
  parseValue: (value) => {
    // Yoga's parser gives its own File implementation (@whatwg-node), not the global class.
    const file = value as Partial<File> | null;
    if (typeof file?.arrayBuffer !== 'function' || typeof file.name !== 'string') throw new TypeError('File must be a file part of a multipart request');
    return file as File;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value, as stored.',
  serialize: (value) => value,
  parseValue: (value) => value,
});
