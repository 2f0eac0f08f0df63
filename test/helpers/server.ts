/** A real quire server on a random port of 127.0.0.1, over the test database. */
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/observability/logger.js';
import { loadConfig } from '../../src/config.js';
import { createPrismaClient, type Db } from '../../src/db/client.js';

export type TestServer = { url: string; db: Db; databaseUrl: string; queries: string[] };

/** Starts one server for the test file; `queries` records every SQL statement it runs. */
export function useServer(): TestServer {
  const server = { url: '', databaseUrl: inject('databaseUrl'), queries: [] as string[] } as TestServer;
  let stop = async () => {};
  beforeAll(async () => {
    // The rate limit has a suite of its own (rate-limit-and-cors.test.ts): elsewhere tests send as fast as they like.
    const config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', QUIRE_RATE_LIMIT: '0' }), databaseUrl: server.databaseUrl };
    server.db = createPrismaClient(server.databaseUrl, { poolMax: 5, onQuery: (sql) => server.queries.push(sql) });
    const app = buildApp({ db: server.db, config, logger: createLogger({ level: process.env.QUIRE_TEST_LOG ? 'debug' : 'silent' }) });
    const { port } = await app.start(0, '127.0.0.1');
    server.url = `http://127.0.0.1:${port}`;
    stop = async () => {
      await app.stop();
      await server.db.$disconnect();
    };
  });
  afterAll(() => stop());
  return server;
}
