/** Statements run as named prepared statements, unless told not to (for poolers that cannot keep them). */
import { describe, expect, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { prepare } from '../src/db/prepared.js';
import { testDatabaseUrl } from './helpers/database-url.js';

async function preparedAfterTwoRuns(preparedStatements: boolean): Promise<{ name: string; statement: string }[]> {
  const db = createPrismaClient(testDatabaseUrl(), { poolMax: 1, preparedStatements });
  try {
    for (let i = 0; i < 2; i++) await db.$queryRaw(Prisma.sql`SELECT count(*)::int AS n FROM "Organization" WHERE "id" = ${`org_${i}`}`);
    return await db.$queryRaw<{ name: string; statement: string }[]>(Prisma.sql`SELECT name, statement FROM pg_prepared_statements`);
  } finally {
    await db.$disconnect();
  }
}

describe('prepared statements', () => {
  it('names each statement once per connection by default', async () => {
    const prepared = await preparedAfterTwoRuns(true);
    expect(prepared.filter((p) => p.statement.includes('FROM "Organization"'))).toHaveLength(1);
  });

  it('prepares nothing by name when turned off', async () => {
    expect(await preparedAfterTwoRuns(false)).toEqual([]);
  });
});

describe('statements composed once (db/prepared.ts)', () => {
  const { sql } = Prisma;

  it('binds each call’s arguments where the composition put their placeholders, constants included', async () => {
    const db = createPrismaClient(testDatabaseUrl(), { poolMax: 1 });
    try {
      // `a` twice, a constant between, `b` an array: the text is fixed, the values change per call.
      const statement = prepare<[a: string, b: number[]]>(2, (a, b) => sql`SELECT ${a}::text AS a, ${'k'}::text AS k, ${a}::text || '!' AS again, cardinality(${b}::int[]) AS n`);
      expect(statement.text).toBe(`SELECT $1::text AS a, $2::text AS k, $3::text || '!' AS again, cardinality($4::int[]) AS n`);
      expect(await statement.query(db, 'x', [1, 2, 3])).toEqual([{ a: 'x', k: 'k', again: 'x!', n: 3 }]);
      expect(await statement.query(db, 'y', [])).toEqual([{ a: 'y', k: 'k', again: 'y!', n: 0 }]);
    } finally {
      await db.$disconnect();
    }
  });

  it('refuses a composition that leaves a parameter unbound', () => {
    expect(() => prepare<[a: string, b: string]>(2, (a) => sql`SELECT ${a}`)).toThrow(/binds 1 of its 2 parameters/);
  });
});
