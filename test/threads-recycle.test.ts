/**
 * The conversion pool replaces its threads after so many tasks (src/lib/threads/pool.ts
 * `recycleAfterTasks`), so a long import's threads do not keep growing: the replacement starts
 * while the old pool keeps converting, every task is answered, and closing the pool ends all.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closePool, configurePool, DEFAULT_POOL_SETTINGS, poolsReplaced, runTask } from '../src/lib/threads/pool.js';
import type { MarkdownOutcome } from '../src/lib/threads/outcomes.js';

afterAll(async () => {
  await closePool();
  configurePool(DEFAULT_POOL_SETTINGS);
});

const page = (i: number) => `# Page ${i}\n\nBody of page ${i} with a [link](./page-${i + 1}.md).\n`;

describe('conversion pool recycling', () => {
  it('replaces its threads after recycleAfterTasks tasks, answering every task meanwhile', async () => {
    configurePool({ threads: 2, recycleAfterTasks: 10, timeoutMs: 60_000 });
    const before = poolsReplaced();
    const titles: string[] = [];
    // Batches as an import gives them, until two replacements have taken over (a thread takes
    // seconds to start through tsx on a loaded machine).
    const until = Date.now() + 90_000;
    for (let batch = 0; Date.now() < until && poolsReplaced() < before + 2; batch++) {
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => runTask<{ markdown: string }, MarkdownOutcome>('markdown', { markdown: page(batch * 8 + i) })));
      for (const outcome of outcomes) titles.push(outcome.ok ? (outcome.page.title ?? '') : 'refused');
    }
    expect(poolsReplaced()).toBeGreaterThanOrEqual(before + 2);
    expect(titles.every((title, i) => title === `Page ${i}`)).toBe(true);
  }, 120_000);

  it('ends the pool, a replacement starting and the pools finishing alike, on closePool', async () => {
    configurePool({ threads: 2, recycleAfterTasks: 3, timeoutMs: 60_000 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => runTask('markdown', { markdown: page(i) })));
    await closePool();
    // A new pool answers after the close.
    const outcome = await runTask<{ markdown: string }, MarkdownOutcome>('markdown', { markdown: page(1) });
    expect(outcome.ok && outcome.page.title).toBe('Page 1');
  }, 120_000);
});
