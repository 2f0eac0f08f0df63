/** Rows travelling as text arrays in one JSON value (pagination/rows-as-json.ts) arrive as Prisma reads them. */
import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { rowsAsJson, rowsAsJsonSql, rowsFromJson } from '../src/domain/kernel/pagination/rows-as-json.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const db = createPrismaClient(testDatabaseUrl(), { poolMax: 1 });
afterAll(() => db.$disconnect());

// Values of every kind, nulls and text that JSON and PostgreSQL's array syntax must both escape.
const ROWS = Prisma.sql`
  SELECT * FROM (VALUES
    ('a', 'He said "hi" \\ {x,y} ''q'' 📘 NULL', 7, -3, timestamp '2026-11-25 01:02:03.456', timestamp '2026-01-01 00:00:00',
      '{"type":"rules","rules":[{"a":1}]}'::jsonb, ARRAY['col_1', 'col "2"'], '\\x00ff10'::bytea),
    ('b', NULL, 0, NULL, timestamp '1999-12-31 23:59:59.999', NULL, NULL, ARRAY[]::text[], ''::bytea)
  ) AS t("id", "title", "position", "count", "createdAt", "deletedAt", "mergeRules", "ancestors", "treeKey")
  ORDER BY "id"`;

const json = rowsAsJson<Record<string, unknown>>({
  id: 'text',
  title: 'text',
  position: 'int',
  count: 'int',
  createdAt: 'date',
  deletedAt: 'date',
  mergeRules: 'json',
  ancestors: 'json',
  treeKey: 'bytea',
});

describe('rows as JSON', () => {
  it('revives every kind to the value Prisma reads from the row itself', async () => {
    const direct = await db.$queryRaw<Record<string, unknown>[]>(ROWS);
    const [{ rows }] = await db.$queryRaw<{ rows: string }[]>(Prisma.sql`SELECT ${rowsAsJsonSql(json, ROWS)}::text AS rows`);
    const revived = rowsFromJson(json, rows);
    expect(revived).toHaveLength(2);
    expect(revived[0].title).toBe('He said "hi" \\ {x,y} \'q\' 📘 NULL');
    expect(revived[1].title).toBeNull();
    expect(revived[0].createdAt).toEqual(new Date('2026-11-25T01:02:03.456Z'));
    expect(revived[0].deletedAt).toEqual(new Date('2026-01-01T00:00:00.000Z'));
    expect(revived[0].treeKey).toEqual(Buffer.from([0, 255, 16]));
    expect(revived[1].treeKey).toEqual(Buffer.alloc(0));
    // Prisma reads bytea as Uint8Array: compare bytes, the rest as they are.
    const plain = (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, treeKey: Buffer.from(r.treeKey as Uint8Array) }));
    expect(plain(revived)).toEqual(plain(direct));
  });

  it('carries timestamps as ISO text, as the Date Prisma reads would write it', async () => {
    const TIMES = Prisma.sql`
      SELECT * FROM (VALUES (1, timestamp '2026-11-25 01:02:03.456'), (2, timestamp '2026-01-01 00:00:00'), (3, timestamp '2026-01-01 00:00:00.5'),
        (4, timestamp '2026-01-01 00:00:00.12'), (5, timestamp '0042-06-30 23:59:59.999'), (6, timestamp '9999-12-31 23:59:59.001'),
        (7, timestamp(6) '2026-05-05 05:05:05.123456'), (8, NULL)) AS t("id", "at") ORDER BY "id"`;
    const iso = rowsAsJson<{ id: number; at: string | null }>({ id: 'int', at: 'iso' });
    const direct = await db.$queryRaw<{ id: number; at: Date | null }[]>(TIMES);
    const [{ rows }] = await db.$queryRaw<{ rows: string }[]>(Prisma.sql`SELECT ${rowsAsJsonSql(iso, TIMES)}::text AS rows`);
    const revived = rowsFromJson(iso, rows);
    expect(revived.map((r) => r.at)).toEqual(direct.map((r) => r.at?.toISOString() ?? null));
    expect(revived[1].at).toBe('2026-01-01T00:00:00.000Z');
    expect(revived[6].at).toBe('2026-05-05T05:05:05.123Z');
  });

  it('carries a nested list beside each row, and an empty list as []', async () => {
    const nested = rowsAsJson<Record<string, unknown>>({ id: 'text', position: 'int' }, '_children');
    const children = rowsAsJsonSql(json, Prisma.sql`SELECT * FROM (${ROWS}) r WHERE r."id" = p."id"`);
    const [{ rows }] = await db.$queryRaw<{ rows: unknown }[]>(
      Prisma.sql`SELECT ${rowsAsJsonSql(nested, Prisma.sql`SELECT p."id", p."position", ${children} AS "_children" FROM (VALUES ('a', 1), ('z', 2)) AS p("id", "position") ORDER BY p."id"`)} AS rows`,
    );
    const parents = rowsFromJson(nested, rows);
    expect(parents.map((p) => [p.id, p.position])).toEqual([
      ['a', 1],
      ['z', 2],
    ]);
    expect(rowsFromJson(json, parents[0]._children).map((r) => r.id)).toEqual(['a']);
    expect(parents[1]._children).toEqual([]);
  });

  it('reads no rows as an empty list', async () => {
    const [{ rows }] = await db.$queryRaw<{ rows: string }[]>(Prisma.sql`SELECT ${rowsAsJsonSql(json, Prisma.sql`SELECT * FROM (${ROWS}) r WHERE false`)}::text AS rows`);
    expect(rowsFromJson(json, rows)).toEqual([]);
  });
});
