/**
 * Keyset (seek) pagination in SQL: a page reads `limit + 1` rows after (or before) the cursor's
 * sort key, whatever the size of the list, and stays stable while rows are inserted or deleted
 * (no offsets: an item is never skipped or repeated because another one came or went).
 */
import { Prisma } from '../../../generated/prisma/client.js';
import { badRequest } from '../../../lib/errors.js';
import { decodeCursor, encodeCursor, type KeyType, type KeyValue } from './cursor.js';
import { rowsAsJsonSql, rowsFromJson, type IsoDateTime, type RowsAsJson } from './rows-as-json.js';

type Sql = Prisma.Sql;
const { sql, join, raw } = Prisma;

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

/** Relay connection arguments (REST `limit`/`page` arrive as `first`/`after`). */
export type PageArgs = { first?: number | null; after?: string | null; last?: number | null; before?: string | null };

/** A list's order: columns most significant first, the last one unique (so the order is total). */
export type SortKey<Row> = {
  /** Names the list, its scope and its sort: cursors of any other list are refused. */
  tag: string;
  columns: readonly { sql: Sql; type: KeyType }[];
  /**
   * Columns the list's conditions hold constant (`= x`, `IS NULL`) that precede `columns` in its
   * index. Ordering by them too changes nothing in the result, but lets PostgreSQL read the index
   * in order (it does not treat `IS NULL` as an equality when matching an ORDER BY to an index).
   */
  leading?: readonly Sql[];
  descending?: boolean;
  keyOf(row: Row): KeyValue[];
};

/**
 * The most common total order: a timestamp column (`time`, SQL), ties broken by a unique text
 * column (`id`). `keyOf` reads both from a row (the time as a Date, or as ISO text: IsoDateTime).
 */
export function byTimeThenId<Row>(
  tag: string,
  time: string,
  id: string,
  keyOf: (row: Row) => [Date | IsoDateTime, string],
  opts: Pick<SortKey<Row>, 'descending' | 'leading'> = {},
): SortKey<Row> {
  return {
    tag,
    ...opts,
    columns: [
      { sql: raw(time), type: 'timestamp' },
      { sql: raw(id), type: 'text' },
    ],
    keyOf,
  };
}

export type Page<Row> = {
  rows: Row[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  cursorOf(row: Row): string;
};

/**
 * What a query needs to read one page: extra WHERE conditions, ORDER BY and LIMIT. The limit is a
 * literal of the statement, not a parameter: PostgreSQL then knows, when it weighs the one plan it
 * could keep for a named statement, that a page reads a few rows in index order. With `LIMIT $n` it
 * assumed a tenth of the rows, found that plan dear, and planned the page anew on every execution
 * (1–2 ms per request in a database whose organizations differ in size).
 */
export type PagePlan = { seek: Sql[]; orderBy: Sql; limit: Sql };

type Direction = { backward: boolean; size: number; after?: KeyValue[]; before?: KeyValue[] };

function checkSize(value: number | null | undefined, field: string): void {
  if (value != null && (!Number.isInteger(value) || value < 0 || value > MAX_PAGE_SIZE)) {
    throw badRequest(`Invalid value for "${field}": must be an integer between 0 and ${MAX_PAGE_SIZE}`, field);
  }
}

function direction<Row>(key: SortKey<Row>, args: PageArgs): Direction {
  checkSize(args.first, 'first');
  checkSize(args.last, 'last');
  const types = key.columns.map((c) => c.type);
  const after = args.after ? decodeCursor(key.tag, types, args.after, 'after') : undefined;
  const before = args.before ? decodeCursor(key.tag, types, args.before, 'before') : undefined;
  const backward = args.last != null && args.first == null;
  return { backward, size: (backward ? args.last : args.first) ?? DEFAULT_PAGE_SIZE, after, before };
}

function literal(type: KeyType, value: KeyValue): Sql {
  switch (type) {
    case 'timestamp':
      return sql`${(value as Date).toISOString()}::timestamp(3)`;
    case 'bytea':
      return sql`decode(${Buffer.from(value as Uint8Array).toString('hex')}, 'hex')`;
    case 'int':
      return sql`${value}::int`;
    default:
      return sql`${value}::text`;
  }
}

/** `(columns) > (values)` or `<`: row comparison, which PostgreSQL answers from a matching index. */
function beyond<Row>(key: SortKey<Row>, values: KeyValue[], greater: boolean): Sql {
  const columns = join(key.columns.map((c) => c.sql));
  const literals = join(key.columns.map((c, i) => literal(c.type, values[i])));
  return sql`(${columns}) ${raw(greater ? '>' : '<')} (${literals})`;
}

export function planPage<Row>(key: SortKey<Row>, args: PageArgs): PagePlan & Direction {
  const dir = direction(key, args);
  const descending = !!key.descending;
  const seek: Sql[] = [];
  if (dir.after) seek.push(beyond(key, dir.after, !descending));
  if (dir.before) seek.push(beyond(key, dir.before, descending));
  const reverse = dir.backward !== descending;
  const way = raw(reverse ? 'DESC' : 'ASC');
  const orderBy = join([...(key.leading ?? []), ...key.columns.map((c) => c.sql)].map((column) => sql`${column} ${way}`));
  return { ...dir, seek, orderBy, limit: raw(String(dir.size + 1)) }; // an integer checked by direction()
}

/** Turns the rows read with `plan` (at most `limit`, in query order) into the page. */
export function toPage<Row>(key: SortKey<Row>, plan: Direction, rows: Row[]): Page<Row> {
  const more = rows.length > plan.size;
  const taken = rows.slice(0, plan.size);
  if (plan.backward) taken.reverse();
  const types = key.columns.map((c) => c.type);
  return {
    rows: taken,
    hasNextPage: plan.backward ? !!plan.before : more,
    hasPreviousPage: plan.backward ? more : !!plan.after,
    cursorOf: (row) => encodeCursor(key.tag, types, key.keyOf(row)),
  };
}

/** `WHERE` from a list of conditions (true when empty). */
export function whereAll(conditions: Sql[]): Sql {
  return conditions.length ? sql`WHERE ${join(conditions, ' AND ')}` : sql``;
}

export type Queryable = { $queryRaw<T>(query: Sql): Promise<T> };

/**
 * One page of `SELECT … FROM …` (`select`) under `conditions`, sorted by `key`.
 */
export async function readPage<Row>(db: Queryable, select: Sql, conditions: Sql[], key: SortKey<Row>, args: PageArgs): Promise<Page<Row>> {
  const plan = planPage(key, args);
  const rows = await db.$queryRaw<Row[]>(sql`${select} ${whereAll([...conditions, ...plan.seek])} ORDER BY ${plan.orderBy} LIMIT ${plan.limit}`);
  return toPage(key, plan, rows);
}

/**
 * What a parent statement offers a child list read inside it (see ChildPages): the alias of the
 * parent row, and the alias of the caller's `Member` row in its organization (the child rows'
 * organization too), so that the child's statement joins neither again for every parent row.
 */
export type ParentRow = { row: string; viewer: string };

/**
 * The statement reading one list's page under `plan`, given SQL naming the list's parent ID and,
 * when it is read inside its parent's statement, that statement's `outer` rows.
 */
export type PageQuery = (parent: Sql, plan: PagePlan, outer?: ParentRow) => Sql;

/**
 * The same page of many lists at once, one per parent (e.g. the first 20 spaces of each of 20
 * collections): one statement, a LATERAL subquery per parent. `build` gets the SQL naming the
 * current parent's ID.
 */
export function readPages<Row>(
  db: Queryable,
  parentIds: readonly string[],
  build: (parent: Sql) => { select: Sql; conditions: Sql[] },
  keyOf: (parentId: string) => SortKey<Row>,
  args: PageArgs,
): Promise<Page<Row>[]> {
  return readPagesWith(db, parentIds, (parent, plan) => {
    const { select, conditions } = build(parent);
    return sql`${select} ${whereAll([...conditions, ...plan.seek])} ORDER BY ${plan.orderBy} LIMIT ${plan.limit}`;
  }, keyOf, args);
}

/**
 * `readPages` for lists whose statement places the plan itself (e.g. in each branch of a UNION,
 * where PostgreSQL would not push the order and limit down on its own). With `asJson`, each
 * parent's page is read as one JSON array (see RowsAsJson).
 */
export async function readPagesWith<Row>(
  db: Queryable,
  parentIds: readonly string[],
  query: PageQuery,
  keyOf: (parentId: string) => SortKey<Row>,
  args: PageArgs,
  asJson?: RowsAsJson<Row>,
): Promise<Page<Row>[]> {
  if (!parentIds.length) return [];
  const plans = parentIds.map((id) => planPage(keyOf(id), args)); // validates each parent's cursor
  if (parentIds.length === 1 || plans.some((p) => p.seek.length)) {
    // One parent, or cursors (each belongs to one list: rare, nested lists are read from the
    // start): each parent on its own, its ID a parameter the planner can see.
    return Promise.all(parentIds.map(async (id, i) => toPage(keyOf(id), plans[i], await db.$queryRaw<Row[]>(query(sql`${id}::text`, plans[i])))));
  }
  const plan = plans[0];
  const ids = [...parentIds];
  const byParent = new Map<string, Row[]>(parentIds.map((id) => [id, []]));
  if (asJson) {
    const lists = await db.$queryRaw<{ _parent: string; _rows: string }[]>(sql`
      SELECT parent.id AS "_parent", ${rowsAsJsonSql(asJson, query(raw('parent.id'), plan))}::text AS "_rows"
      FROM unnest(${ids}::text[]) AS parent(id)`);
    for (const list of lists) byParent.set(list._parent, rowsFromJson(asJson, list._rows));
  } else {
    const rows = await db.$queryRaw<(Row & { _parent: string })[]>(sql`
      SELECT parent.id AS "_parent", item.* FROM unnest(${ids}::text[]) AS parent(id)
      CROSS JOIN LATERAL (${query(raw('parent.id'), plan)}) item`);
    for (const row of rows) byParent.get(row._parent)?.push(row);
  }
  return parentIds.map((id) => toPage(keyOf(id), plan, byParent.get(id)!));
}

/**
 * A child list read inside its parent list's statement: each parent row carries the first page of
 * its children as a JSON array in the column `_children` (a page of 20 collections with the
 * first 20 spaces of each, in one statement and one round trip instead of two). Only first pages:
 * a cursor belongs to one parent's list, and is read on its own.
 */
export type ChildPages<Row> = {
  /** The child list's page given SQL naming the parent row's ID. */
  query: PageQuery;
  keyOf: (parentId: string) => SortKey<Row>;
  args: PageArgs;
  json: RowsAsJson<Row>;
  /**
   * Sets the columns of a child row that `json` does not carry because the parent row knows them
   * (a collection's spaces: their organization and parent), so that the JSON holds only the rest.
   */
  inherit?(row: Row, parent: Record<string, unknown>): void;
};

/** The page of a child list (see ChildPages) of the parent `parentId`, read on its own statement. */
export async function readChildPage<Row>(db: Queryable, child: ChildPages<Row>, parentId: string): Promise<Page<Row>> {
  const key = child.keyOf(parentId);
  const plan = planPage(key, child.args);
  return toPage(key, plan, await db.$queryRaw<Row[]>(child.query(sql`${parentId}`, plan)));
}

/** Whether `args` ask for a first page, which a parent's statement can read (see ChildPages). */
export const isFirstPage = (args: PageArgs) => args.after == null && args.before == null && args.last == null;

/**
 * The child page of the parent row `outer.row`, whose ID `parentId` names, as JSON (a value of type
 * json, so that a parent read as JSON itself carries it nested, not as escaped text).
 */
export function childPagesJson<Row>(child: ChildPages<Row>, parentId: Sql, outer: ParentRow): Sql {
  const plan = planPage(child.keyOf(''), child.args);
  return rowsAsJsonSql(child.json, child.query(parentId, plan, outer));
}

/** The `_children` column of the parent row `outer.row`, whose ID `parentId` names. */
export const childPagesColumn = <Row>(child: ChildPages<Row>, parentId: Sql, outer: ParentRow): Sql => sql`${childPagesJson(child, parentId, outer)} AS "_children"`;

/** Each parent row's child page (by parent ID), its `_children` column taken off the row. */
export function takeChildPages<Row>(parents: { id: string }[], child: ChildPages<Row>): Map<string, Page<Row>> {
  const plan = planPage(child.keyOf(''), child.args);
  const pages = new Map<string, Page<Row>>();
  for (const parent of parents) {
    const row = parent as { id: string; _children?: unknown };
    const rows = rowsFromJson(child.json, row._children);
    if (child.inherit) for (const childRow of rows) child.inherit(childRow, row);
    delete row._children;
    pages.set(row.id, toPage(child.keyOf(row.id), plan, rows));
  }
  return pages;
}
