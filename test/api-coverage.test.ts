/**
 * The README's figure of the public document served comes from scripts/api-coverage.mjs, and every
 * operation it counts as not served really answers 501 (and every served one does not).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useServer } from './helpers/server.js';

const server = useServer();
// @ts-expect-error: a plain JavaScript module
const { coverage, summary, withSection } = await import('../scripts/api-coverage.mjs');

describe('API coverage', () => {
  it('the README states what the script computes', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(withSection(readme, summary()), 'run `node scripts/api-coverage.mjs --write`').toBe(readme);
  });

  it('what is counted as not served answers 501, what is served does not', async () => {
    const c = coverage();
    const unserved: string[] = [...c.notYet.values(), ...c.outOfScope.values()].flatMap((g: { operations: string[] }) => g.operations);
    expect(c.served + c.ownShape.length + unserved.length).toBe(c.total);
    const call = async (op: string) => {
      const [method, path] = op.split(' ');
      const url = `${server.url}/v1${path.replace(/\{[^}]+\}/g, 'x1')}`;
      const response = await fetch(url, { method, headers: method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }, body: method === 'GET' || method === 'DELETE' ? undefined : '{}' });
      return { status: response.status, message: String((await response.json().catch(() => ({})))?.error?.message) };
    };
    for (const [area, group] of c.outOfScope) {
      for (const op of group.operations) expect(await call(op), op).toEqual({ status: 501, message: expect.stringContaining(`out of this server's scope (${area}: `) });
    }
    for (const group of c.notYet.values()) for (const op of group.operations) expect(await call(op), op).toEqual({ status: 501, message: expect.stringContaining('not implemented') });
    for (const op of c.ownShape) expect((await call(op)).status, op).not.toBe(501);
  });
});
