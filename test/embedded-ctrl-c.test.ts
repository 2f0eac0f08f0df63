/**
 * Ctrl+C in a terminal running `quire serve` on its embedded PostgreSQL: SIGINT reaches the whole
 * process group. PostgreSQL runs in a group of its own, so only quire hears it and stops in order
 * (HTTP, jobs, the pool, PostgreSQL last): no error or warning logged, exit 0, no postgres left.
 * Compiled: `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = path.resolve('.quire', `ctrl-c-${randomUUID().slice(0, 8)}`);
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('Ctrl+C on quire serve with the embedded PostgreSQL', () => {
  it('stops cleanly: exit 0, nothing logged above info, PostgreSQL stopped', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, QUIRE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', QUIRE_LOG_FORMAT: 'json', QUIRE_LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    // detached: a process group of its own, as a shell gives a command it runs.
    const child = spawn(process.execPath, ['dist/main.js', 'serve'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => output, { timeout: 90_000, interval: 100 }).toMatch(/listening: GraphQL/);
      process.kill(-child.pid!, 'SIGINT'); // what the terminal does on Ctrl+C
      expect(await exited, output).toBe(0);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
    const lines = output.trim().split('\n');
    for (const line of lines) expect(JSON.parse(line).level, line).toBe('info');
    expect(lines.at(-1)).toContain('"stopped"');
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
