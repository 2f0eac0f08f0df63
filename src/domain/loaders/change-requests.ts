/** Loaders of change requests and revisions. */
import type { Db } from '../../db/client.js';
import { Prisma, type Revision } from '../../generated/prisma/client.js';
import {
  changeRequestsPages,
  countChangeRequests,
  type ChangeRequestFilter,
  type ChangeRequestOrder,
  type ChangeRequestRow,
} from '../versions/change-requests/rows.js';
import type { Page } from '../kernel/pagination/keyset.js';
import type { JSONDocument } from '../../lib/documents/types.js';
import { loadDocuments } from '../versions/revisions/documents.js';
import { byId, splitKey, changeRequestKey } from './keys.js';
import { fromPageVariant, type LoaderRegistry } from './registry.js';

/** Key of `changeRequestInSpace`: the space and the request's ID or number. */

const asNumber = (value: string) => (/^[1-9]\d{0,8}$/.test(value) ? Number(value) : null);

export function changeRequestLoaders(db: Db, registry: LoaderRegistry) {
  return {
    changeRequest: registry.track<string, ChangeRequestRow | null>(async (ids) =>
      byId(await db.$queryRaw<ChangeRequestRow[]>(Prisma.sql`SELECT * FROM "ChangeRequest" WHERE "id" = ANY(${[...ids]}::text[])`), ids),
    ),
    /** By `changeRequestKey`: the request of that space with that ID or number. */
    changeRequestInSpace: registry.track<string, ChangeRequestRow | null>(async (keys) => {
      const pairs = keys.map(splitKey);
      const spaceIds = [...new Set(pairs.map(([s]) => s))];
      const values = pairs.map(([, v]) => v);
      const numbers = values.map(asNumber).filter((n): n is number => n !== null);
      const rows = await db.$queryRaw<ChangeRequestRow[]>(Prisma.sql`SELECT * FROM "ChangeRequest"
        WHERE "spaceId" = ANY(${spaceIds}::text[]) AND ("id" = ANY(${values}::text[]) OR "number" = ANY(${numbers}::int[]))`);
      return pairs.map(([spaceId, value]) => {
        const number = asNumber(value);
        return rows.find((r) => r.spaceId === spaceId && (number !== null ? r.number === number : r.id === value)) ?? null;
      });
    }),
    /** Variant: pageVariant(args, order, JSON of the filter). */
    changeRequests: registry.variants<Page<ChangeRequestRow>>((variant, spaceIds) => {
      const { args, more } = fromPageVariant(variant);
      return changeRequestsPages(db, spaceIds, JSON.parse(more[1] as string) as ChangeRequestFilter, args, more[0] as ChangeRequestOrder);
    }),
    /** Variant: JSON of the filter. */
    changeRequestCount: registry.variants<number>((variant, spaceIds) => countChangeRequests(db, spaceIds, JSON.parse(variant) as ChangeRequestFilter)),
    revision: registry.track<string, Revision | null>(async (ids) =>
      byId(await db.$queryRaw<Revision[]>(Prisma.sql`SELECT * FROM "Revision" WHERE "id" = ANY(${[...ids]}::text[])`), ids),
    ),
    /** Document bodies by ID (content-addressed: the same for every revision that has them). */
    document: registry.track<string, JSONDocument | null>(async (ids) => {
      const found = await loadDocuments(db, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}
