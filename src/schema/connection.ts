/**
 * Relay connections over in-memory lists (lists are filtered by access in memory, see
 * domain/permissions): offset cursors, `totalCount`, at most 1000 items per page.
 */
import { resolveArrayConnection } from '@pothos/plugin-relay';
import { badRequest } from '../domain/errors.js';
import { builder } from './builder.js';

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

export type PageArgs = { first?: number | null; after?: string | null; last?: number | null; before?: string | null };

export function connectionOf<T extends {}>(args: PageArgs, items: T[]) {
  for (const key of ['first', 'last'] as const) {
    const value = args[key];
    if (value != null && (value < 0 || value > MAX_PAGE_SIZE)) {
      throw badRequest(`Invalid value for "${key}": must be between 0 and ${MAX_PAGE_SIZE}`, key);
    }
  }
  for (const key of ['after', 'before'] as const) {
    const cursor = args[key];
    if (cursor != null && !/^\d+$/.test(Buffer.from(cursor, 'base64').toString().split(':')[1] ?? '')) {
      throw badRequest(`Invalid value for "${key}": not a cursor from this list`, key);
    }
  }
  const connection = resolveArrayConnection({ args, defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE }, items)!;
  return Object.assign(connection, { totalCount: items.length });
}

builder.globalConnectionField('totalCount', (t) =>
  t.int({ resolve: (parent) => (parent as unknown as { totalCount: number }).totalCount }),
);
