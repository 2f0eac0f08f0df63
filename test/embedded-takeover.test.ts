/**
 * The embedded PostgreSQL after its quire process is SIGKILLed (as the OOM killer does): the
 * postmaster outlives it; the next `quire serve` on the same data directory sees that its owner
 * is gone, takes the cluster over, and stops it when it is stopped itself — no postgres process
 * left on that data directory. Compiled: `npm run build` first.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, SERVE_READY, startQuire } from './helpers/processes.js';

const dataDir = path.resolve('.quire', `takeover-${randomUUID().slice(0, 8)}`);
const clusterDir = path.join(dataDir, 'pg');
// The servers here run the embedded PostgreSQL: no DATABASE_URL reaches them.
delete process.env.DATABASE_URL;

/** The pids of the processes running on this cluster (postmaster and backends), from /proc. */
async function postgresOnCluster(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(clusterDir)) pids.push(Number(entry));
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(async () => {
  killAll();
  for (const pid of await postgresOnCluster()) process.kill(pid, 'SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await rm(dataDir, { recursive: true, force: true });
});

describe('the embedded PostgreSQL of a SIGKILLed quire', () => {
  it('is taken over by the next quire serve, which stops it on SIGTERM', async () => {
    const first = startQuire(['serve'], { QUIRE_DATA_DIR: dataDir }, SERVE_READY);
    await first.matched;
    const orphan = Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(alive(orphan)).toBe(true); // what the OOM killer leaves behind

    let output = '';
    const second = startQuire(['serve'], { QUIRE_DATA_DIR: dataDir }, SERVE_READY);
    second.child.stdout!.on('data', (chunk) => (output += chunk));
    const base = (await second.matched)[1];
    expect(output).toContain(`taking over the embedded PostgreSQL (pid ${orphan}) left running by a quire process that is gone`);
    expect(output).toMatch(/embedded PostgreSQL ready on 127\.0\.0\.1:\d+/);
    expect(output).not.toContain('another quire process runs');
    expect(alive(orphan)).toBe(false);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);
    expect(await postgresOnCluster()).toEqual([]);
  }, 180_000);
});
