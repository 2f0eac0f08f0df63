/**
 * Relay connections. Lists are pages read in SQL (domain/pagination): edges and page info are
 * built from a page, cursors are encoded only when asked for, and `totalCount` is computed only
 * when selected. `arrayConnection` serves the few lists that are bounded by one revision or one
 * caller and computed in memory (content links, a caller's organizations).
 */
import { resolveArrayConnection } from '@pothos/plugin-relay';
import { badRequest } from '../lib/errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type PageArgs } from '../domain/kernel/pagination/keyset.js';
import type { Count, CountedPage } from '../domain/kernel/pagination/counted.js';
import { builder } from './builder.js';

export { MAX_PAGE_SIZE, type PageArgs };

/** An edge whose cursor is encoded only when read (one class: no closure per edge). */
class Edge<Row> {
  constructor(
    readonly node: Row,
    private readonly cursorOf: (row: Row) => string,
  ) {}

  get cursor(): string {
    return this.cursorOf(this.node);
  }
}

/** A connection over a page read in SQL: its total comes with it (CountedPage), or is given. */
export function pageConnection<Row extends {}>(page: CountedPage<Row>): ReturnType<typeof connectionOf<Row>>;
export function pageConnection<Row extends {}>(page: Page<Row>, totalCount: Count): ReturnType<typeof connectionOf<Row>>;
export function pageConnection<Row extends {}>(page: Page<Row> & { totalCount?: Count }, totalCount?: Count) {
  return connectionOf(page, totalCount ?? page.totalCount!);
}

function connectionOf<Row extends {}>(page: Page<Row>, totalCount: Count) {
  const { rows, cursorOf } = page;
  return {
    edges: rows.map((node) => new Edge(node, cursorOf)),
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      get startCursor() {
        return rows.length ? cursorOf(rows[0]) : null;
      },
      get endCursor() {
        return rows.length ? cursorOf(rows[rows.length - 1]) : null;
      },
    },
    totalCount,
  };
}

/** A connection over an in-memory list (offset cursors). */
export function arrayConnection<T extends {}>(args: PageArgs, items: T[]) {
  for (const key of ['first', 'last'] as const) {
    const value = args[key];
    if (value != null && (value < 0 || value > MAX_PAGE_SIZE)) {
      throw badRequest(`Invalid value for "${key}": must be between 0 and ${MAX_PAGE_SIZE}`, key);
    }
  }
  for (const key of ['after', 'before'] as const) {
    const cursor = args[key];
    if (cursor != null && !/^\d+$/.test(Buffer.from(cursor, 'base64').toString().split(':')[1] ?? '')) {
      throw badRequest(`Invalid value for "${key}": not a cursor of this list`, key);
    }
  }
  const connection = resolveArrayConnection({ args, defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE }, items)!;
  return Object.assign(connection, { totalCount: items.length as Count });
}

builder.globalConnectionField('totalCount', (t) =>
  t.int({
    description: 'How many items the whole list holds (counted only when asked for).',
    resolve: (parent) => {
      const count = (parent as unknown as { totalCount: Count }).totalCount;
      return typeof count === 'function' ? count() : count;
    },
  }),
);
