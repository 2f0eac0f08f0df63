/**
 * The repository layout git sync writes (pure): planPaths (recorded paths kept, moves when a page
 * gains or loses children or changes parent, new paths free of collisions), summaryMarkdown, and
 * ContentLayout answering given paths both ways.
 */
import { describe, expect, it } from 'vitest';
import { planPaths, readGitLayout, summaryMarkdown, type ExportNode } from '../src/lib/git-layout/index.js';
import { ContentLayout, markdownRefOptions, resolveLink } from '../src/lib/markdown/index.js';

let position = 0;
const page = (id: string, parentId: string | null, slug: string, extra: Partial<ExportNode> = {}): ExportNode => ({
  id, kind: 'page', parentId, position: `a${String(position++).padStart(4, '0')}`, slug, type: 'document', title: slug[0]!.toUpperCase() + slug.slice(1), ...extra,
});
const file = (id: string, name: string, extra: Partial<ExportNode> = {}): ExportNode => ({ id, kind: 'file', parentId: null, position: '', slug: '', type: 'file', title: name, name, ...extra });
const include = (id: string, title: string, extra: Partial<ExportNode> = {}): ExportNode => ({ id, kind: 'reusable-content', parentId: null, position: '', slug: '', type: 'reusable-content', title, ...extra });

const plan = (nodes: ExportNode[], taken: string[] = []) => Object.fromEntries(planPaths(nodes, new Set(taken), 'README.md'));

describe('planPaths: new entities', () => {
  const nodes = [
    page('p1', null, 'intro'),
    page('p2', null, 'install'),
    page('p3', null, 'guide'),
    page('p4', 'p3', 'steps'),
    page('g1', null, 'api', { type: 'group', title: 'API' }),
    page('p5', 'g1', 'ref'),
    page('l1', 'g1', 'blog', { type: 'link', href: 'https://example.com/blog' }),
    file('f2', 'logo.png'),
    file('f1', 'logo.png'),
    file('f3', 'a/b.png'),
    include('r1', 'Terms & conditions'),
    include('r2', 'Terms & Conditions'),
  ];

  it('lays them out as ContentLayout does: README.md first, x/README.md with children, groups as folders, no file for a link page', () => {
    const paths = plan(nodes);
    expect(paths).toEqual({
      p1: 'README.md',
      p2: 'install.md',
      p3: 'guide/README.md',
      p4: 'guide/steps.md',
      g1: 'api/',
      p5: 'api/ref.md',
      f1: '.gitbook/assets/logo.png',
      f2: '.gitbook/assets/logo (1).png',
      f3: '.gitbook/assets/a_b.png',
      r1: '.gitbook/includes/terms-conditions.md',
      r2: '.gitbook/includes/terms-conditions (1).md',
    });
    const layout = new ContentLayout(
      nodes.filter((n) => n.kind === 'page'),
      nodes.filter((n) => n.kind === 'file').map((n) => ({ id: n.id, name: n.name! })),
      nodes.filter((n) => n.kind === 'reusable-content'),
    );
    for (const [id, path] of Object.entries(paths)) {
      const computed = layout.pageFile(id) ?? layout.fileAsset(id) ?? layout.reusableContentFile(id);
      expect(computed, id).toBe(path);
    }
  });

  it('never collides with a path of the tree, ignoring case, nor with each other', () => {
    const paths = plan(nodes, ['install.md', 'Guide/README.md', '.gitbook/assets/LOGO.png', '.gitbook/includes/terms-conditions.md', 'API/']);
    expect(paths).toMatchObject({
      p2: 'install-2.md',
      p3: 'guide-2/README.md',
      p4: 'guide-2/steps.md',
      g1: 'api-2/',
      p5: 'api-2/ref.md',
      f1: '.gitbook/assets/logo (1).png',
      f2: '.gitbook/assets/logo (2).png',
      r1: '.gitbook/includes/terms-conditions (1).md',
    });
  });
});

describe('planPaths: recorded paths', () => {
  it('keeps recorded paths wherever they are, files and includes too', () => {
    const nodes = [
      page('p1', null, 'intro', { recordedPath: 'README.md', recordedParentId: null }),
      page('p2', null, 'install', { recordedPath: 'docs/Setup Guide.md', recordedParentId: null }),
      file('f1', 'a.png', { recordedPath: 'images/a.png' }),
      include('r1', 'Note', { recordedPath: '.gitbook/includes/old-name.md' }),
    ];
    expect(plan(nodes, ['docs/other.md'])).toEqual({ p1: 'README.md', p2: 'docs/Setup Guide.md', f1: 'images/a.png', r1: '.gitbook/includes/old-name.md' });
  });

  it('moves x.md to x/README.md when the page gains children, and back when it loses them', () => {
    const gained = [page('p1', null, 'intro', { recordedPath: 'README.md' }), page('p2', null, 'install', { recordedPath: 'install.md' }), page('p3', 'p2', 'linux')];
    expect(plan(gained)).toEqual({ p1: 'README.md', p2: 'install/README.md', p3: 'install/linux.md' });
    const lost = [page('p1', null, 'intro', { recordedPath: 'README.md' }), page('p2', null, 'guide', { recordedPath: 'guide/README.md' })];
    expect(plan(lost)).toEqual({ p1: 'README.md', p2: 'guide.md' });
  });

  it('keeps a hand-written layout when the recorded parents say nothing moved', () => {
    const nodes = [
      page('p1', null, 'intro', { recordedPath: 'README.md', recordedParentId: null }),
      page('p2', null, 'guide', { recordedPath: 'guide.md', recordedParentId: null }),
      page('p3', 'p2', 'install', { recordedPath: 'install.md', recordedParentId: 'p2' }),
    ];
    expect(plan(nodes)).toEqual({ p1: 'README.md', p2: 'guide.md', p3: 'install.md' });
    // Without the recorded parents the folders decide: the layout is made regular.
    const bare = nodes.map(({ recordedParentId: _, ...n }) => n);
    expect(plan(bare)).toEqual({ p1: 'README.md', p2: 'guide/README.md', p3: 'guide/install.md' });
  });

  it('moves a page whose parent changed into the new parent, and children along with a parent that moved', () => {
    const nodes = [
      page('p1', null, 'intro', { recordedPath: 'README.md', recordedParentId: null }),
      page('g1', null, 'manual', { type: 'group', recordedPath: 'manual/', recordedParentId: null }),
      page('p2', 'g1', 'guide', { recordedPath: 'guide/README.md', recordedParentId: null }),
      page('p3', 'p2', 'steps', { recordedPath: 'guide/steps.md', recordedParentId: 'p2' }),
      page('p4', null, 'faq', { recordedPath: 'guide/faq.md', recordedParentId: 'p2' }),
    ];
    expect(plan(nodes)).toEqual({ p1: 'README.md', g1: 'manual/', p2: 'manual/guide/README.md', p3: 'manual/guide/steps.md', p4: 'faq.md' });
    // Moved back where its file already is: it stays.
    const back = [page('p1', null, 'intro', { recordedPath: 'README.md', recordedParentId: null }), page('p2', null, 'setup', { recordedPath: 'Setup Guide.md', recordedParentId: 'p9' })];
    expect(plan(back)).toEqual({ p1: 'README.md', p2: 'Setup Guide.md' });
  });

  it('gives README.md to the first page; the page that held it gets a path of its own; unsafe recorded paths are ignored', () => {
    const nodes = [
      page('p2', null, 'setup', { recordedPath: 'setup.md' }),
      page('p1', null, 'welcome', { recordedPath: 'README.md' }),
      page('p3', null, 'evil', { recordedPath: '../outside.md' }),
      file('f1', 'x.png', { recordedPath: '/etc/x.png' }),
    ];
    expect(plan(nodes)).toEqual({ p2: 'README.md', p1: 'welcome.md', p3: 'evil.md', f1: '.gitbook/assets/x.png' });
  });
});

describe('summaryMarkdown', () => {
  it('writes the tree in the platform dialect, which reads back to the same tree', async () => {
    const nodes = [
      page('p1', null, 'intro', { title: 'Welcome' }),
      page('p2', null, 'install', { title: 'Install [beta]' }),
      page('p3', 'p2', 'linux', { title: 'On *Linux*' }),
      page('g1', null, 'guides-v2', { type: 'group', title: 'Guides' }),
      page('p4', 'g1', 'a b', { title: 'A b' }),
      page('l1', 'g1', 'blog', { type: 'link', title: 'Blog', href: 'https://example.com/blog' }),
      page('g2', null, 'reference', { type: 'group', title: 'Reference' }),
      // A link page without a URL is left out: it would read back as a group.
      page('l2', 'g2', 'nowhere', { type: 'link', title: 'Nowhere' }),
    ];
    const paths = planPaths(nodes, new Set(), 'README.md');
    paths.set('p4', 'guides-v2/a b.md');
    const text = summaryMarkdown(nodes, paths, 'SUMMARY.md');
    expect(text).toBe(
      [
        '# Table of contents',
        '',
        '* [Welcome](README.md)',
        '* [Install \\[beta\\]](install/README.md)',
        '  * [On \\*Linux\\*](install/linux.md)',
        '',
        '## Guides <a href="#guides-v2" id="guides-v2"></a>',
        '',
        '* [A b](<guides-v2/a b.md>)',
        '* [Blog](https://example.com/blog)',
        '',
        '## Reference',
        '',
      ].join('\n'),
    );
    expect(summaryMarkdown([...nodes].reverse(), paths, 'SUMMARY.md')).toBe(text);

    const files: Record<string, string> = { 'SUMMARY.md': text, 'README.md': '', 'install/README.md': '', 'install/linux.md': '', 'guides-v2/a b.md': '' };
    const layout = await readGitLayout(Object.keys(files).map((path) => ({ path, oid: path })), async (oid) => files[oid]!);
    expect(layout.problems).toEqual([]);
    const shape = (list: typeof layout.pages): unknown[] => list.map((n) => [n.type, n.title, n.slug, n.path ?? n.href, shape(n.children)]);
    expect(shape(layout.pages)).toEqual([
      ['document', 'Welcome', 'welcome', 'README.md', []],
      ['document', 'Install [beta]', 'install', 'install/README.md', [['document', 'On *Linux*', 'linux', 'install/linux.md', []]]],
      ['group', 'Guides', 'guides-v2', undefined, [['document', 'A b', 'a-b', 'guides-v2/a b.md', []], ['link', 'Blog', 'blog', 'https://example.com/blog', []]]],
      ['group', 'Reference', 'reference', undefined, []],
    ]);
  });

  it('writes links relative to a SUMMARY.md in a folder', () => {
    const nodes = [page('p1', null, 'intro'), page('p2', null, 'install')];
    expect(summaryMarkdown(nodes, planPaths(nodes, new Set(), 'README.md'), 'toc/SUMMARY.md')).toBe('# Table of contents\n\n* [Intro](../README.md)\n* [Install](../install.md)\n');
  });
});

describe('ContentLayout with given paths', () => {
  const pages = [page('p1', null, 'intro'), page('p2', null, 'guide'), page('p3', 'p2', 'install'), page('g1', null, 'api', { type: 'group' })];
  const given = {
    pages: new Map([['p1', 'README.md'], ['p2', 'docs/Guide.md'], ['p3', 'setup/install.md'], ['g1', 'reference/']]),
    files: new Map([['f1', 'images/logo.png']]),
    reusableContents: new Map([['r1', '.gitbook/includes/legal.md']]),
  };
  const layout = new ContentLayout(pages, [{ id: 'f1', name: 'logo.png' }, { id: 'f2', name: 'logo.png' }], [{ id: 'r1', title: 'Terms' }, { id: 'r2', title: 'Legal' }], given);

  it('answers the given paths, and computes the others around them', () => {
    expect([layout.pageFile('p2'), layout.pageFile('p3'), layout.pageFile('g1')]).toEqual(['docs/Guide.md', 'setup/install.md', 'reference/']);
    expect(layout.pageFolder('p3')).toBe('setup/');
    expect([layout.fileAsset('f1'), layout.fileAsset('f2')]).toEqual(['images/logo.png', '.gitbook/assets/logo.png']);
    expect([layout.reusableContentFile('r1'), layout.reusableContentFile('r2')]).toEqual(['.gitbook/includes/legal.md', '.gitbook/includes/legal (1).md']);
    expect([layout.pageAt('setup/install.md'), layout.pageAt('setup/install'), layout.pageAt('docs/Guide.md'), layout.pageAt('reference/'), layout.pageAt('reference')]).toEqual(['p3', 'p3', 'p2', 'g1', 'g1']);
    expect([layout.fileAtAsset('images/logo.png'), layout.reusableContentAt('.gitbook/includes/legal.md'), layout.reusableContentAt('.gitbook/includes/legal (1).md')]).toEqual(['f1', 'r1', 'r2']);
    // The stable page path still names the page.
    expect(layout.pageAt('guide/install')).toBe('p3');
  });

  it('writes relative links to the given paths, which read back to the same targets', () => {
    const options = markdownRefOptions('relative', layout, 'p3');
    const toPage = options.resolvePage!('p2')!;
    const toFile = options.resolveFile!('f2')!;
    const toInclude = options.resolveReusableContent!('r1')!;
    expect([toPage, toFile, toInclude]).toEqual(['../docs/Guide.md', '../.gitbook/assets/logo.png', '../.gitbook/includes/legal.md']);
    expect(resolveLink(layout, toPage, 'p3')).toEqual({ kind: 'page', page: 'p2' });
    expect(resolveLink(layout, `${options.resolvePage!('p1')}#top`, 'p3')).toEqual({ kind: 'anchor', page: 'p1', anchor: 'top' });
    expect(resolveLink(layout, toFile, 'p3')).toEqual({ kind: 'file', file: 'f2' });
    expect(resolveLink(layout, toInclude, 'p3')).toEqual({ kind: 'reusable-content', reusableContent: 'r1' });
  });
});
