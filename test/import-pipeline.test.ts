/**
 * The pieces of a bulk import's write that need no database: the window of conversions feeding a
 * store (lib/threads/windowed.ts) and the targets the conversion threads resolve links against
 * (lib/import-readers/link-targets.ts).
 */
import { describe, expect, it } from 'vitest';
import { convertInWindow } from '../src/lib/threads/windowed.js';
import { cachedTargets, decodeTargets, encodeImportTargets, importedTarget } from '../src/lib/import-readers/link-targets.js';

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('convertInWindow', () => {
  it('converts every item with at most `window` under way, and stores them in groups', async () => {
    let running = 0;
    let most = 0;
    const groups: number[][] = [];
    await convertInWindow(
      Array.from({ length: 23 }, (_, i) => i),
      { window: 3, group: 5 },
      async (i) => {
        most = Math.max(most, ++running);
        await later(null, (i * 7) % 5);
        running--;
        return i * 2;
      },
      async (done) => void groups.push(done.map((d) => d.result)),
    );
    expect(most).toBe(3);
    expect(groups.slice(0, -1).every((g) => g.length === 5)).toBe(true);
    expect(groups.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 23 }, (_, i) => i * 2));
  });

  it('throws the first failure once the store under way has ended, and starts nothing after it', async () => {
    const started: number[] = [];
    let storeEnded = false;
    const run = convertInWindow(
      Array.from({ length: 50 }, (_, i) => i),
      { window: 2, group: 2 },
      async (i) => {
        started.push(i);
        if (i === 4) throw new Error('page 4 refused');
        return later(i, 1);
      },
      async () => {
        await later(null, 20);
        storeEnded = true;
      },
    );
    await expect(run).rejects.toThrow('page 4 refused');
    expect(storeEnded).toBe(true);
    expect(Math.max(...started)).toBeLessThan(10);
  });

  it('throws a failed store', async () => {
    await expect(convertInWindow([1, 2, 3], { window: 2, group: 1 }, async (i) => i, async () => Promise.reject(new Error('store failed')))).rejects.toThrow('store failed');
  });
});

describe('import targets', () => {
  const targets = encodeImportTargets(
    [
      ['file:///guide/setup.md', 'page_a'],
      ['file:///guide/%C3%A9t%C3%A9.md', 'page_b'],
    ],
    [['file:///images/a.png', 'file_a']],
  );

  it('resolves links and images of a page to the pages and files of the import, as the threads decode them', () => {
    for (const lookup of [decodeTargets(targets), cachedTargets(targets)]) {
      const resolve = importedTarget(lookup, 'guide/intro.md');
      expect(resolve('setup.md')).toEqual({ kind: 'page', page: 'page_a' });
      expect(resolve('./setup.md#install')).toEqual({ kind: 'anchor', page: 'page_a', anchor: 'install' });
      expect(resolve('été.md')).toEqual({ kind: 'page', page: 'page_b' });
      expect(resolve('../images/a.png')).toEqual({ kind: 'file', file: 'file_a' });
      expect(resolve('missing.md')).toBeUndefined();
      expect(resolve('https://example.com/setup.md')).toBeUndefined();
    }
  });
});
