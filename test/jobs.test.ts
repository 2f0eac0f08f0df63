/** The background purge runs through the real queue (graphile-worker on the test database). */
import { quickAddJob, runOnce } from 'graphile-worker';
import { describe, expect, inject, it } from 'vitest';
import { createPrismaClient } from '../src/db/client.js';
import { newId } from '../src/domain/ids.js';
import { taskList } from '../src/jobs/worker.js';
import { createLogger } from '../src/observability/logger.js';
import { createOrg } from './helpers/factories.js';

describe('purge_deleted_spaces job', () => {
  it('removes spaces deleted more than 7 days ago when the queue runs it', async () => {
    const connectionString = inject('databaseUrl');
    const db = createPrismaClient(connectionString);
    const { org } = await createOrg(db);
    const day = 24 * 3600 * 1000;
    const make = async (deletedAt: Date | null) => {
      const id = newId('Space');
      const revisionId = newId('Revision');
      await db.space.create({ data: { id, organizationId: org.id, title: 'x', revisionId, deletedAt } });
      return id;
    };
    const expired = await make(new Date(Date.now() - 8 * day));
    const recent = await make(new Date(Date.now() - 6 * day));
    const live = await make(null);

    const logs: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void logs.push(line) } });
    await quickAddJob({ connectionString }, 'purge_deleted_spaces', {});
    await runOnce({ connectionString, taskList: taskList(db, logger) });

    expect(await db.space.findUnique({ where: { id: expired } })).toBeNull();
    expect(await db.space.findUnique({ where: { id: recent } })).not.toBeNull();
    expect(await db.space.findUnique({ where: { id: live } })).not.toBeNull();
    expect(logs.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ msg: 'purged deleted spaces', count: expect.any(Number) }));
    await db.$disconnect();
  });
});
