/** Statements run as named prepared statements, unless told not to (for poolers that cannot keep them). */
import { describe, expect, inject, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { Prisma } from '../src/generated/prisma/client.js';

async function preparedAfterTwoRuns(preparedStatements: boolean): Promise<{ name: string; statement: string }[]> {
  const db = createPrismaClient(inject('databaseUrl'), { poolMax: 1, preparedStatements });
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
