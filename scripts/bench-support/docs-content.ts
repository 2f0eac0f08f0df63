/**
 * Documentation content for the benchmarks (bench-git-sync.ts, bench-import.ts): a deterministic
 * tree of markdown pages in nested folders (chapter and topic folders with README pages), bodies
 * of a few paragraphs with relative links between pages, and PNG images referenced from pages.
 */
import path from 'node:path';

/** A small deterministic PRNG (mulberry32), so that runs of one size build the same repository. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(list: readonly T[]) => list[int(list.length)]! };
}

export const WORDS = (
  'account access agent alert api archive audit backup billing branch build cache certificate change channel client cluster ' +
  'commit config connector console container content context cost credential customer dashboard data database deploy device ' +
  'domain editor endpoint environment error event export feature file filter gateway group guide history hook identity image ' +
  'import index instance integration invoice key label layout limit log member metric migration model monitor network node ' +
  'notification operator organization package page payment permission pipeline plan plugin policy project provider queue quota ' +
  'record region release report repository request resource role rule runtime schedule schema secret server service session ' +
  'setting space storage stream subscription table task team template tenant token topic trace trigger usage user version ' +
  'volume webhook workflow workspace zone'
).split(' ');
export const VERBS = 'configure create delete enable disable export import inspect manage migrate monitor rotate restore review scale secure set up troubleshoot update upgrade use'.split(' ');
export const FILLER = 'the a each every your this that its with without for from into over when while before after because so and or but then also only'.split(' ');

export type Rng = ReturnType<typeof prng>;
export const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);
export const slugify = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export function titleOf(rng: Rng): string {
  const words = [rng.pick(VERBS), ...Array.from({ length: 1 + rng.int(3) }, () => rng.pick(WORDS))];
  return capital(words.join(' '));
}

export function sentence(rng: Rng): string {
  const words = Array.from({ length: 8 + rng.int(12) }, () => (rng.next() < 0.35 ? rng.pick(FILLER) : rng.pick(WORDS)));
  if (rng.next() < 0.15) words.splice(rng.int(words.length), 0, `\`${rng.pick(WORDS)}_${rng.pick(WORDS)}\``);
  if (rng.next() < 0.15) words.splice(rng.int(words.length), 0, `**${rng.pick(WORDS)}**`);
  return `${capital(words.join(' '))}.`;
}

export const paragraphText = (rng: Rng, sentences = 3 + rng.int(4)) => Array.from({ length: sentences }, () => sentence(rng)).join(' ');

export type PageFile = { path: string; title: string; depth: number };
export type Group = { title: string; items: Item[] };
export type Item = { page: PageFile; children: Item[] };

/**
 * The tree: groups (SUMMARY headings, a folder each) of chapters (a folder with README.md) of
 * topics (a folder with README.md) of ~9 pages, until `pages` markdown pages (README.md at the
 * root is the first).
 */
export function planTree(rng: Rng, pages: number): { readme: PageFile; groups: Group[]; all: PageFile[] } {
  const readme: PageFile = { path: 'README.md', title: 'Welcome', depth: 0 };
  const all: PageFile[] = [readme];
  const groups: Group[] = [];
  const groupCount = Math.max(1, Math.min(12, Math.round(pages / 800)));
  const unique = (used: Set<string>, wanted: string) => {
    let name = wanted;
    for (let n = 2; used.has(name); n++) name = `${wanted}-${n}`;
    used.add(name);
    return name;
  };
  for (let g = 0; g < groupCount; g++) {
    const title = `${capital(rng.pick(WORDS))} ${rng.pick(['guides', 'reference', 'concepts', 'tutorials', 'operations', 'integrations'])}`;
    groups.push({ title, items: [] });
  }
  const groupFolders = new Set<string>();
  const folders = groups.map((group) => unique(groupFolders, slugify(group.title)));
  const chapterNames = groups.map(() => new Set<string>());
  for (let chapter = 0; all.length < pages; chapter++) {
    const g = chapter % groups.length;
    const chapterTitle = titleOf(rng);
    const chapterDir = `${folders[g]}/${unique(chapterNames[g]!, slugify(chapterTitle))}`;
    const chapterItem: Item = { page: { path: `${chapterDir}/README.md`, title: chapterTitle, depth: 2 }, children: [] };
    all.push(chapterItem.page);
    groups[g]!.items.push(chapterItem);
    const topicNames = new Set<string>();
    for (let t = 0; t < 10 && all.length < pages; t++) {
      const topicTitle = titleOf(rng);
      const topicDir = `${chapterDir}/${unique(topicNames, slugify(topicTitle))}`;
      const topicItem: Item = { page: { path: `${topicDir}/README.md`, title: topicTitle, depth: 3 }, children: [] };
      all.push(topicItem.page);
      chapterItem.children.push(topicItem);
      const pageNames = new Set<string>(['readme']);
      for (let p = 0; p < 9 && all.length < pages; p++) {
        const title = titleOf(rng);
        const page: PageFile = { path: `${topicDir}/${unique(pageNames, slugify(title))}.md`, title, depth: 3 };
        all.push(page);
        topicItem.children.push({ page, children: [] });
      }
    }
  }
  return { readme, groups, all };
}

export function summaryOf(tree: ReturnType<typeof planTree>): string {
  const lines = ['# Table of contents', '', `* [${tree.readme.title}](${tree.readme.path})`];
  const list = (items: Item[], indent: string) => {
    for (const item of items) {
      lines.push(`${indent}* [${item.page.title}](${item.page.path})`);
      list(item.children, `${indent}  `);
    }
  };
  for (const group of tree.groups) {
    lines.push('', `## ${group.title}`, '');
    list(group.items, '');
  }
  return `${lines.join('\n')}\n`;
}

export const relative = (from: string, to: string) => path.posix.relative(path.posix.dirname(from), to) || path.posix.basename(to);

/** A page's markdown: a title, paragraphs, headings, links to other pages, sometimes a list, code or an image. */
export function pageMarkdown(rng: Rng, page: PageFile, index: number, all: PageFile[], assets: string[], edit = ''): string {
  const link = () => {
    const target = all[rng.int(all.length)]!;
    const anchor = rng.next() < 0.2 ? '#overview' : '';
    return `[${target.title.toLowerCase()}](${relative(page.path, target.path)}${anchor})`;
  };
  const parts = [`# ${page.title}`, '', paragraphText(rng) + edit, '', '## Overview', '', `${paragraphText(rng)} See ${link()} and ${link()}.`, ''];
  if (rng.next() < 0.4) parts.push(...Array.from({ length: 3 + rng.int(3) }, () => `* ${sentence(rng)}`), '');
  if (index % 5 === 0 && assets.length) parts.push(`![${rng.pick(WORDS)} diagram](${relative(page.path, assets[(index / 5) % assets.length]!)})`, '');
  if (rng.next() < 0.3) parts.push('```bash', `quire ${rng.pick(VERBS).split(' ')[0]} --${rng.pick(WORDS)} ${rng.pick(WORDS)}`, '```', '');
  parts.push('## Details', '', `${paragraphText(rng)} Read more in ${link()}.`, '', paragraphText(rng), '');
  return parts.join('\n');
}

/** A valid 1×1 PNG followed by bytes of its own (every asset a distinct blob of 2–30 KB). */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
export function assetBytes(rng: Rng): Buffer {
  const extra = Buffer.alloc(2048 + rng.int(28 * 1024));
  for (let i = 0; i < extra.length; i++) extra[i] = rng.int(256);
  return Buffer.concat([PNG, extra]);
}

export type Repository = { files: Map<string, Buffer>; pages: PageFile[]; rng: Rng; assets: string[] };

/**
 * The files of `pages` pages and `assetCount` images: with a SUMMARY.md and the images under
 * `.gitbook/assets/` (git sync's layout), or (`folders`) without, the folders giving the tree and
 * the images under `images/`, as a zip of plain markdown holds them.
 */
export function buildRepository(pages: number, assetCount: number, layout: 'summary' | 'folders' = 'summary'): Repository {
  const rng = prng(24);
  const tree = planTree(rng, pages);
  const folder = layout === 'summary' ? '.gitbook/assets' : 'images';
  const assets = Array.from({ length: assetCount }, (_, i) => `${folder}/${slugify(rng.pick(WORDS))}-${i}.png`);
  const files = new Map<string, Buffer>();
  if (layout === 'summary') files.set('SUMMARY.md', Buffer.from(summaryOf(tree)));
  tree.all.forEach((page, i) => files.set(page.path, Buffer.from(pageMarkdown(rng, page, i, tree.all, assets))));
  for (const asset of assets) files.set(asset, assetBytes(rng));
  return { files, pages: tree.all, rng, assets };
}
