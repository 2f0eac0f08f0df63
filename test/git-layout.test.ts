/**
 * The repository layout of git sync, read from a tree (pure: no git, no database): .gitbook.yaml,
 * SUMMARY.md with its problems' lines, the folders without one, files and includes.
 */
import { describe, expect, it } from 'vitest';
import { readGitLayout, type GitPageNode } from '../src/lib/git-layout/index.js';

/** A tree from path → text; each blob's id is `oid:<path>`. */
function tree(files: Record<string, string>) {
  const entries = Object.keys(files).map((path) => ({ path, oid: `oid:${path}` }));
  const read: string[] = [];
  const readText = async (oid: string) => {
    read.push(oid);
    return files[oid.slice(4)]!;
  };
  return { entries, readText, read };
}

const shape = (nodes: GitPageNode[]): unknown[] =>
  nodes.map((n) => [n.type, n.path ?? n.href ?? null, n.title ?? null, n.slug, ...(n.children.length ? [shape(n.children)] : [])]);

describe('git layout: SUMMARY.md', () => {
  it('reads groups, nesting (2 or 4 spaces, * or -), nav labels, link pages and plain items, reading only SUMMARY.md', async () => {
    const summary = [
      '# Table of contents',
      '',
      '* [Welcome](README.md)',
      '* [Install](install.md "Setup")',
      '  * [On Linux](install/linux.md)',
      '',
      '## Guides <a href="#guides-v2" id="guides-v2"></a>',
      '',
      '- [Guide](guide/README.md)',
      '    - [Steps](guide/steps.md)',
      '- [Blog](https://example.com/blog)',
      '',
      '## Reference',
      '',
      '* [API](api.md)',
      '',
      '## <a href="#misc" id="misc"></a>',
      '',
    ].join('\n');
    const t = tree({ 'SUMMARY.md': summary, 'README.md': '# Hi', 'install.md': '', 'install/linux.md': '', 'guide/README.md': '', 'guide/steps.md': '', 'api.md': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(layout.problems).toEqual([]);
    expect(t.read).toEqual(['oid:SUMMARY.md']);
    expect(shape(layout.pages)).toEqual([
      ['document', 'README.md', 'Welcome', 'welcome'],
      ['document', 'install.md', 'Install', 'install', [['document', 'install/linux.md', 'On Linux', 'linux']]],
      ['group', null, 'Guides', 'guides-v2', [
        ['document', 'guide/README.md', 'Guide', 'guide', [['document', 'guide/steps.md', 'Steps', 'steps']]],
        ['link', 'https://example.com/blog', 'Blog', 'blog'],
      ]],
      ['group', null, 'Reference', 'reference', [['document', 'api.md', 'API', 'api']]],
      ['group', null, null, 'misc'],
    ]);
    expect(layout.pages[4]!.fallbackTitle).toBe('Group');
    expect(layout.pages[1]!.navLabel).toBe('Setup');
    expect(layout.pages[0]!.oid).toBe('oid:README.md');
    expect([...layout.pagesByPath.keys()].sort()).toEqual(['README.md', 'api.md', 'guide/README.md', 'guide/steps.md', 'install.md', 'install/linux.md']);
  });

  it('names the line of a missing file, of a file listed twice, and warns of markdown files not listed', async () => {
    const summary = ['# Summary', '', '* [A](a.md)', '* [Gone](gone.md)', '* [A again](a.md)', '  * [B](b.md)', ''].join('\n');
    const t = tree({ 'SUMMARY.md': summary, 'a.md': '', 'b.md': '', 'extra.md': '', '.gitbook/includes/x.md': '', '.github/PULL_REQUEST_TEMPLATE.md': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(layout.problems).toEqual([
      { severity: 'error', path: 'SUMMARY.md', line: 4, message: 'gone.md does not exist.' },
      { severity: 'error', path: 'SUMMARY.md', line: 5, message: 'a.md is listed twice; a file can be only one page.' },
      { severity: 'warning', path: 'extra.md', message: 'extra.md is not listed in SUMMARY.md: it is not a page.' },
    ]);
    // The second listing gives no page: its children move up; the missing file keeps its place.
    expect(shape(layout.pages)).toEqual([
      ['document', 'a.md', 'A', 'a'],
      ['document', 'gone.md', 'Gone', 'gone'],
      ['document', 'b.md', 'B', 'b'],
    ]);
    expect(layout.pages[1]!.oid).toBeNull();
    expect(layout.pagesByPath.has('gone.md')).toBe(false);
  });

  it('makes a top-level item without a link a group of its children; deeper its children move up; a link page has no children', async () => {
    const summary = ['* Basics', '  * [One](one.md)', '  * Nested', '    * [Two](two.md)', '* [Site](https://example.com)', '  * [Three](three.md)'].join('\n');
    const t = tree({ 'SUMMARY.md': summary, 'one.md': '', 'two.md': '', 'three.md': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(shape(layout.pages)).toEqual([
      ['group', null, 'Basics', 'basics', [['document', 'one.md', 'One', 'one'], ['document', 'two.md', 'Two', 'two']]],
      ['link', 'https://example.com', 'Site', 'site'],
      ['document', 'three.md', 'Three', 'three'],
    ]);
    expect(layout.problems).toEqual([{ severity: 'warning', path: 'SUMMARY.md', line: 5, message: 'The link page "Site" cannot have child pages: they move up a level.' }]);
  });
  it('warns of entries that name no markdown file (an anchor, another kind of file): not pages, their children move up', async () => {
    const summary = ['* [Part](a.md#part)', '  * [A](a.md)', '* [Manual](manual.pdf)'].join('\n');
    const t = tree({ 'SUMMARY.md': summary, 'a.md': '', 'manual.pdf': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(shape(layout.pages)).toEqual([['document', 'a.md', 'A', 'a']]);
    expect(layout.problems).toEqual([
      { severity: 'warning', path: 'SUMMARY.md', line: 1, message: '"a.md#part" is not a markdown file of the repository: the entry is not a page.' },
      { severity: 'warning', path: 'SUMMARY.md', line: 3, message: '"manual.pdf" is not a markdown file of the repository: the entry is not a page.' },
    ]);
  });

  it('reads a long SUMMARY.md a block at a time: lines stay right, comments and code fences hide their items', async () => {
    const summary = ['# Summary', '', '<!--', '* [Hidden](hidden.md)', '-->', '', '```', '* [Code](code.md)', '```', '', '* [A](a.md)', '  * [B](b.md)', '* [Gone](gone.md)', ''].join('\n');
    const t = tree({ 'SUMMARY.md': summary, 'a.md': '', 'b.md': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(shape(layout.pages)).toEqual([['document', 'a.md', 'A', 'a', [['document', 'b.md', 'B', 'b']]], ['document', 'gone.md', 'Gone', 'gone']]);
    expect(layout.problems).toEqual([{ severity: 'error', path: 'SUMMARY.md', line: 13, message: 'gone.md does not exist.' }]);
  });
});

describe('git layout: .gitbook.yaml', () => {
  it('takes root, structure and redirects; paths inside the root; files outside it ignored', async () => {
    const yaml = ['root: ./docs/', 'structure:', '  readme: intro.md', '  summary: toc/SUMMARY.md', 'redirects:', '  /old/page: guide/new.md', '  legacy: ../escape.md', ''].join('\n');
    const t = tree({ '.gitbook.yaml': yaml, 'README.md': 'outside', 'docs/intro.md': '', 'docs/toc/SUMMARY.md': '* [Intro](../intro.md)\n* [New](../guide/new.md)\n', 'docs/guide/new.md': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(layout.config).toEqual({ root: 'docs/', readme: 'intro.md', summary: 'toc/SUMMARY.md', redirects: { 'old/page': 'guide/new.md' } });
    expect(shape(layout.pages)).toEqual([['document', 'intro.md', 'Intro', 'intro'], ['document', 'guide/new.md', 'New', 'new']]);
    expect(layout.problems).toEqual([
      { severity: 'warning', path: '.gitbook.yaml', line: 7, message: '.gitbook.yaml: the redirect of "legacy" is not a pair of paths inside the root; it is ignored.' },
    ]);
  });

  it('warns of a readme, a summary or a redirect target that the tree does not have', async () => {
    const yaml = ['structure:', '  readme: start.md', '  summary: toc.md', 'redirects:', '  old: gone.md', '  older: README.md'].join('\n');
    const t = tree({ '.gitbook.yaml': yaml, 'README.md': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(layout.problems.map((p) => [p.severity, p.path, p.message])).toEqual([
      ['warning', '.gitbook.yaml', '.gitbook.yaml: structure.readme names start.md, which does not exist.'],
      ['warning', '.gitbook.yaml', '.gitbook.yaml: structure.summary names toc.md, which does not exist: the pages come from the folders.'],
      ['warning', '.gitbook.yaml', '.gitbook.yaml: the redirect of old names gone.md, which is not a page.'],
    ]);
    expect(shape(layout.pages)).toEqual([['document', 'README.md', null, 'readme']]);
  });

  it('invalid YAML is an error naming the file and line; the defaults stand', async () => {
    const t = tree({ '.gitbook.yaml': 'root: docs\nstructure: [\n  readme: a.md\n', 'README.md': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(layout.config).toEqual({ root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} });
    expect(layout.problems).toHaveLength(1);
    expect(layout.problems[0]).toMatchObject({ severity: 'error', path: '.gitbook.yaml', line: expect.any(Number) });
    expect(layout.problems[0]!.message).toMatch(/^\.gitbook\.yaml is not valid YAML: /);
    expect(shape(layout.pages)).toEqual([['document', 'README.md', null, 'readme']]);
  });

  it('a .gitbook.yaml that is not a mapping is an error; an empty one is no problem', async () => {
    const list = tree({ '.gitbook.yaml': '- root: docs\n', 'README.md': '' });
    expect((await readGitLayout(list.entries, list.readText)).problems).toEqual([{ severity: 'error', path: '.gitbook.yaml', line: 1, message: '.gitbook.yaml must be a mapping (root, structure, redirects).' }]);
    const empty = tree({ '.gitbook.yaml': '# nothing yet\n', 'README.md': '' });
    expect((await readGitLayout(empty.entries, empty.readText)).problems).toEqual([]);
  });

  it('refuses a root that climbs out of the project directory', async () => {
    const t = tree({ '.gitbook.yaml': 'root: ../other\n', 'README.md': '' });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(layout.config.root).toBe('');
    expect(layout.problems).toEqual([{ severity: 'error', path: '.gitbook.yaml', line: 1, message: '.gitbook.yaml: root must be a folder inside the project directory.' }]);
  });
});

describe('git layout: without SUMMARY.md', () => {
  it('takes the tree from folders: readme first, README pages, top-level folders without README as groups, deeper ones as pages', async () => {
    const t = tree({
      'README.md': '',
      'setup-guide.md': '',
      'guide/README.md': '',
      'guide/step-10.md': '',
      'guide/step-2.md': '',
      'reference/api.md': '',
      'reference/deep/more.md': '',
    });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(layout.problems).toEqual([]);
    expect(shape(layout.pages)).toEqual([
      ['document', 'README.md', null, 'readme'],
      ['document', 'guide/README.md', null, 'guide', [['document', 'guide/step-2.md', null, 'step-2'], ['document', 'guide/step-10.md', null, 'step-10']]],
      ['group', null, 'Reference', 'reference', [['document', 'reference/api.md', null, 'api'], ['document', null, 'Deep', 'deep', [['document', 'reference/deep/more.md', null, 'more']]]]],
      ['document', 'setup-guide.md', null, 'setup-guide'],
    ]);
    expect(layout.pages.map((p) => p.fallbackTitle)).toEqual(['Introduction', 'Guide', 'Reference', 'Setup guide']);
  });
});

describe('git layout: files and includes', () => {
  it('files are .gitbook/assets/ and images anywhere in the root; includes are .gitbook/includes/*.md; dotfiles are not content', async () => {
    const t = tree({
      'README.md': '',
      '.gitbook/assets/diagram.png': '',
      '.gitbook/assets/manual.pdf': '',
      '.gitbook/assets/notes.md': '',
      'guide/photo.jpg': '',
      '.gitbook/includes/warning.md': '',
      '.github/logo.png': '',
      'data.json': '',
    });
    const layout = await readGitLayout(t.entries, t.readText);
    expect(layout.files.map((f) => [f.path, f.name, f.contentType, f.oid]).sort()).toEqual([
      ['.gitbook/assets/diagram.png', 'diagram.png', 'image/png', 'oid:.gitbook/assets/diagram.png'],
      ['.gitbook/assets/manual.pdf', 'manual.pdf', 'application/pdf', 'oid:.gitbook/assets/manual.pdf'],
      ['.gitbook/assets/notes.md', 'notes.md', 'text/markdown', 'oid:.gitbook/assets/notes.md'],
      ['guide/photo.jpg', 'photo.jpg', 'image/jpeg', 'oid:guide/photo.jpg'],
    ]);
    expect(layout.includes).toEqual([{ path: '.gitbook/includes/warning.md', oid: 'oid:.gitbook/includes/warning.md' }]);
    expect(shape(layout.pages)).toEqual([['document', 'README.md', null, 'readme']]);
  });
});
