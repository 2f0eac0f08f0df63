/**
 * A git import stores the bodies it converts a batch at a time (theirs.ts BODY_BATCH) inside its
 * one transaction: it never holds them all, and a failure after some batches were stored leaves
 * no body behind.
 */
import { describe, expect, it } from 'vitest';
import { BODY_BATCH } from '../src/domain/git-sync/theirs.js';
import { useGitSync } from './support/git-sync-client.js';
import { commitFiles } from './support/git-repo.js';

const { server, git, setup, sync, pages } = useGitSync({ password: 'pw-batches' });

const COUNT = BODY_BATCH + 50;
const name = (i: number) => `page-${String(i).padStart(3, '0')}.md`;

function repository(last: string): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Home\n\nWelcome.\n' };
  const lines = ['# Table of contents', '', '* [Home](README.md)'];
  for (let i = 0; i < COUNT; i++) {
    files[name(i)] = i === COUNT - 1 ? last : `# Page ${i}\n\nBody of page ${i}, linking [the next](${name(i + 1)}).\n`;
    lines.push(`* [Page ${i}](${name(i)})`);
  }
  files['SUMMARY.md'] = `${lines.join('\n')}\n`;
  return files;
}

describe('git import in batches', () => {
  it('stores nothing when a page after the first batch fails, and everything once it is fixed', async () => {
    const { owner, space } = await setup('batches');
    const url = git.url('batches');
    // The last page's front matter does not parse: it is met after BODY_BATCH bodies were stored.
    await commitFiles(git, 'batches', 'main', repository('---\ntitle: [unclosed\n---\n# Last\n'), 'Broken last page');
    const before = await server.db.document.count();
    let info = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('failure');
    expect(info.operation.error).toContain(name(COUNT - 1));
    expect(await server.db.document.count()).toBe(before);
    expect(await pages(owner.token, space.id)).toEqual([]);

    await commitFiles(git, 'batches', 'main', { [name(COUNT - 1)]: '# Last\n\nFixed.\n' }, 'Fixed');
    info = await sync(owner.token, space.id, 'import', { url, ref: 'refs/heads/main' });
    expect(info.operation.state).toBe('success');
    const titles = (await pages(owner.token, space.id)).map((p: { title: string }) => p.title);
    expect(titles).toHaveLength(COUNT + 1);
    expect(titles.at(-1)).toBe('Last');
    expect(await server.db.document.count()).toBeGreaterThanOrEqual(before + COUNT + 1);
  }, 240_000);
});
