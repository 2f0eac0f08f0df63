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
    idFieldOptions: { description: 'Its ID (the same as in the REST API; its prefix names its type).' },
    nodeTypeOptions: { description: 'An object with an ID that `node` and `nodes` fetch directly.' },
    clientMutationId: 'omit',
    // Every connection pages the same way (keyset pages: src/domain/kernel/pagination/).
    defaultConnectionTypeOptions: { description: 'One page of a list: its items (`edges`) and where it stands (`pageInfo`).' },
    defaultEdgeTypeOptions: { description: 'One item of a page and the cursor that marks its place in the list.' },
    pageInfoTypeOptions: { description: 'Where a page stands in its list, and the cursors to ask for the pages around it.' },
    edgesFieldOptions: { description: 'The items of this page, in the list\'s order.' },
    pageInfoFieldOptions: { description: 'Whether there are pages before and after this one, and their cursors.' },
    cursorFieldOptions: { description: 'Marks this item\'s place: pass it as `after` or `before` for the next or previous page.' },
    nodeFieldOptions: { description: 'The item.' },
    hasNextPageFieldOptions: { description: 'Whether items follow this page (ask with `after: endCursor`).' },
    hasPreviousPageFieldOptions: { description: 'Whether items precede this page (ask with `before: startCursor`).' },
    startCursorFieldOptions: { description: 'The cursor of the page\'s first item; null on an empty page.' },
    endCursorFieldOptions: { description: 'The cursor of the page\'s last item; null on an empty page.' },
    firstArgOptions: { description: 'How many items to return from the start (or after `after`); the list\'s default and maximum apply.' },
    lastArgOptions: { description: 'How many items to return from the end (or before `before`).' },
    afterArgOptions: { description: 'A cursor: the page starts after this item.' },
    beforeArgOptions: { description: 'A cursor: the page ends before this item.' },
    // Both read the raw ID (decodeGlobalID keeps it whole): node-loaders.ts decides its kind.
    nodeQueryOptions: {
      description: 'The object of an ID, to whoever may read it through its own field; otherwise NOT_FOUND. Pages, files and reusable contents: their revision-qualified `nodeId`.',
      args: { id: { description: 'The ID (a page, file or reusable content: its `nodeId`).' } },
      resolve: (_root, { id }, ctx) => loadNode(ctx, String(id.id)),
    },
    nodesQueryOptions: {
      description: 'The objects of up to 100 IDs, in order; null where `node` answers NOT_FOUND. Read together: one statement per kind, not per ID.',
      args: { ids: { description: 'The IDs, at most 100 (pages, files and reusable contents: their `nodeId`).' } },
      resolve: (_root, { ids }, ctx) => loadNodes(ctx, ids.map((id) => String(id.id))),
    },
  },
});

builder.queryType({ description: 'What the caller can read: start at `viewer` or `organizations`, or fetch any object by ID with `node`.' });
builder.mutationType({ description: 'Every write of the API (each one a transaction, checked against the caller\'s roles); REST `/v1` routes run these.' });
builder.subscriptionType({ description: 'Events as they happen, over Server-Sent Events or WebSocket (graphql-ws).' });

builder.scalarType('DateTime', {
  description: 'A date and time in ISO 8601 (UTC), e.g. `2026-01-31T12:00:00.000Z`.',
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
