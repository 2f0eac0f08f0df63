/**
 * The outbox dispatcher's raw connection (src/events/raw-sql.ts) sends and reads values as a
 * Prisma client's `$queryRaw` does, for the types its statements use: its consumers' statements
 * also run on Prisma transactions, and must mean the same on both.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { rawPool } from '../src/events/raw-sql.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const url = testDatabaseUrl();
const prisma = createPrismaClient(url, { poolMax: 1 });
const raw = rawPool(url, { max: 1, onConnectionLost: () => {} });
afterAll(async () => {
  await prisma.$disconnect();
  await raw.end();
});

describe('raw SQL of the outbox dispatcher', () => {
  it('sends and reads timestamps, int8, JSON and arrays as Prisma does, whatever the process time zone', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Auckland'; // far from UTC: a local-time conversion would show
    try {
      const at = new Date('2026-03-01T23:30:00.123Z');
      const read = (db: typeof raw | typeof prisma) => db.$queryRaw<Record<string, unknown>[]>`
        SELECT ${at}::timestamp(3) AS "stamp", (${[at, at]}::timestamp(3)[])[2] AS "inArray", ${at}::timestamptz AS "zoned",
          9007199254740993::int8 AS "big", '{"a":[1,"b"]}'::jsonb AS "json", ${['x', 'y']}::text[] AS "texts", ${1.5}::float8 AS "float"`;
      const [mine] = await read(raw);
      expect(mine).toEqual((await read(prisma))[0]);
      expect(mine).toEqual({ stamp: at, inArray: at, zoned: at, big: 9007199254740993n, json: { a: [1, 'b'] }, texts: ['x', 'y'], float: 1.5 });
    } finally {
      process.env.TZ = zone;
    }
  });

  it('commits a transaction that resolves, rolls back one that throws, and counts what a statement changed', async () => {
    await raw.$executeRaw`CREATE TEMP TABLE IF NOT EXISTS raw_sql_probe (n int)`;
    // A temporary table lives in one connection: the pool has one.
    await raw.transaction((tx) => tx.$executeRaw`INSERT INTO raw_sql_probe VALUES (1), (2)`, { timeoutMs: 5000 });
    await expect(raw.transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO raw_sql_probe VALUES (3)`;
      throw new Error('undone');
    }, { timeoutMs: 5000 })).rejects.toThrow('undone');
    expect(await raw.$queryRaw`SELECT n FROM raw_sql_probe ORDER BY n`).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await raw.$executeRaw`DELETE FROM raw_sql_probe WHERE n > ${0}`).toBe(2);
  });

  it('fails a transaction whose connection is cut between its statements, and nothing else: no uncaught error', async () => {
    // pg emits the cut on the connection too; checked out, it has no pool listener (src/events/raw-sql.ts).
    const other = createPrismaClient(url, { poolMax: 1 });
    try {
      const cut = raw.transaction(async (tx) => {
        const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        await other.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
        await new Promise((resolve) => setTimeout(resolve, 300)); // the FATAL arrives while no statement runs
        return pid;
      }, { timeoutMs: 5000 });
      await expect(cut).rejects.toThrow();
      expect(await raw.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]); // the pool opens a new connection
    } finally {
      await other.$disconnect();
    }
  });
});
