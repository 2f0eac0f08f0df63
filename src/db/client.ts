/** The Prisma client factory: Prisma 7's query compiler over a pg pool (no native engine). */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

export type Db = PrismaClient;

export type QueryListener = (sql: string) => void;

export function createPrismaClient(url: string, opts: { poolMax?: number; onQuery?: QueryListener } = {}): Db {
  const adapter = new PrismaPg({ connectionString: url, max: opts.poolMax ?? 10 });
  const client = new PrismaClient({
    adapter,
    log: opts.onQuery ? [{ emit: 'event', level: 'query' }] : [],
  });
  if (opts.onQuery) {
    const listener = opts.onQuery;
    (client as unknown as { $on(e: 'query', cb: (e: { query: string }) => void): void }).$on('query', (e) => listener(e.query));
  }
  return client;
}
