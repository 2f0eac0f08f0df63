/**
 * GitHub wiki imports (`source: "github-wiki"`): a wiki as GitHub keeps it — a git repository
 * `<repo>.wiki.git` on the `master` branch, pages named by their files (`Getting-Started.md`),
 * `Home.md`, `_Sidebar.md` and `_Footer.md`, Gollum's wiki links (`[[Page]]`, `[[text|Page]]`,
 * `[[Page#Anchor]]`, `[[images/a.png|alt=…]]`), relative links by page name and absolute ones to
 * `github.com/<owner>/<repo>/wiki/…`, images in folders, an AsciiDoc page and a reStructuredText
 * one — served by git's own smart-HTTP server, imported through REST and GraphQL; hostile
 * repositories refused within the caps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wikiTree } from '../src/lib/import-readers/sources/github-wiki/tree.js';
import { wikiLocation } from '../src/lib/import-readers/sources/github-wiki/url.js';
import type { ImportedPage } from '../src/lib/import-readers/tree.js';
import { gqlOk, http } from './helpers/clients.js';
import { type PageItem, importTarget, outline, refsWithText } from './helpers/imports.js';
import { useServer } from './helpers/server.js';
import { startGitServer, type GitServer } from './support/git-server.js';
import { gitText } from './support/git-cli.js';
import { commitFiles, commitTree, hashObject, writeRawTree } from './support/git-repo.js';

const server = useServer({ worker: true, env: () => ({ QUIRE_GIT_MAX_BLOB_MB: '1' }) });
let git: GitServer;
beforeAll(async () => {
  git = await startGitServer({ user: 'bot', password: 'unused', anonymous: true });
});
afterAll(() => git?.close());

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A wiki as GitHub writes it (the web editor names files after pages, spaces as `-`). */
const WIKI: Record<string, string | Uint8Array> = {
  'Home.md': 'Welcome to the **acme** wiki!\n\nStart with [[Getting Started]] or read the [[FAQ|Frequently-Asked-Questions]].\n\n![Logo](images/logo.png)\n\n<img src="images/logo.png" width="64">\n\nWrite `[[Not A Link]]` for a wiki link. See also [the questions][faq].\n\n[faq]: Frequently-Asked-Questions\n',
  'Getting-Started.md': '## Install\n\nSee [configuration](Configuration) and [the API](https://github.com/acme/app/wiki/API-Reference#auth).\n\n[[images/diagram.png|alt=Diagram]]\n\n```\n[[Home]]\n```\n\nBack [[Home]]. [[Missing page]] is not written yet.\n',
  'Configuration.md': 'Set `X`. See [[Getting Started#Install]] and [the logo](https://raw.githubusercontent.com/wiki/acme/app/images/logo.png).\n',
  'Frequently-Asked-Questions.md': 'Ask [us](Home.md).\n',
  'guides/API-Reference.asciidoc': '= API Reference\n\n== Auth\n\nUse a token. See link:Configuration[configuration] and [[Home]].\n\n[source,js]\n----\nfetch()\n----\n',
  'Release-Process.rst': 'Release\n=======\n\nRun ``make release``.\n',
  'Orphan.md': 'Not in the sidebar.\n',
  'Team-Notes.org': '#+TITLE: Team notes\n\n* Decisions\nSee [[file:Configuration.md][the configuration]] and [[Home]].\n\n#+begin_src sh\nmake\n#+end_src\n',
  // The sidebar lists a page under itself (a loop): it is placed once.
  '_Sidebar.md': '### Start\n* [[Home]]\n* [[Getting Started]]\n  * [[Configuration]]\n    * [[Getting Started]]\n\n### Reference\n* [API](API-Reference)\n* [[Frequently Asked Questions]]\n* [[Release Process]]\n',
  '_Footer.md': 'Footer text on every page\n',
  'images/logo.png': PNG,
  'images/diagram.png': PNG,
  'scripts/build.sh': 'echo not a page\n',
};

type Shape = [string | undefined, ...Shape[]] | [string | undefined];
const shape = (pages: ImportedPage[]): Shape[] => pages.map((p) => [p.title, ...shape(p.children)] as Shape);

describe('github wiki: reading', () => {
  it('finds the repository from a wiki URL', () => {
    expect(wikiLocation('https://github.com/acme/app/wiki').remote).toBe('https://github.com/acme/app.wiki.git');
    expect(wikiLocation('https://github.com/acme/app/wiki/Getting-Started#x').remote).toBe('https://github.com/acme/app.wiki.git');
    expect(wikiLocation('https://github.com/acme/app.wiki.git')).toEqual({
      remote: 'https://github.com/acme/app.wiki.git',
      webBases: ['https://github.com/acme/app/wiki/', 'https://raw.githubusercontent.com/wiki/acme/app/'],
    });
    expect(wikiLocation('https://git.example.com/team/docs.git').remote).toBe('https://git.example.com/team/docs.git');
  });

  it('Home first, the sidebar as tree and order (groups, nesting, a page placed once), other pages by title', async () => {
    const files = new Map(Object.entries(WIKI).filter(([path]) => path !== 'scripts/build.sh').map(([path, content]) => [path, typeof content === 'string' ? Buffer.from(content) : content]));
    const tree = await wikiTree(files, wikiLocation('https://github.com/acme/app/wiki').webBases, async (format, text) => (format === 'asciidoc' || format === 'org' ? `converted ${text.length}` : undefined));
    expect(shape(tree.pages)).toEqual([
      ['Home'],
      ['Start', ['Getting Started', ['Configuration']]],
      ['Reference', ['API Reference'], ['Frequently Asked Questions'], ['Release Process']],
      ['Orphan'],
      ['Team Notes'],
    ]);
    const [home, start] = tree.pages;
    const started = start.children[0];
    expect(home.markdown).toContain('[Getting Started](/Getting-Started.md)');
    expect(home.markdown).toContain('[FAQ](/Frequently-Asked-Questions.md)');
    expect(home.markdown).toContain('![Logo](/images/logo.png)');
    expect(home.markdown).toContain('`[[Not A Link]]`');
    expect(home.markdown).toContain('<img src="/images/logo.png" width="64">');
    expect(home.markdown).toContain('[faq]: /Frequently-Asked-Questions.md');
    expect(started.markdown).toContain('[configuration](/Configuration.md)');
    expect(started.markdown).toContain('[the API](/guides/API-Reference.asciidoc#auth)');
    expect(started.markdown).toContain('![Diagram](/images/diagram.png)');
    expect(started.markdown).toContain('```\n[[Home]]\n```');
    expect(started.markdown).toContain('Back [Home](/Home.md). Missing page is not written yet.');
    expect(started.children[0].markdown).toContain('[Getting Started](/Getting-Started.md#install)');
    expect(started.children[0].markdown).toContain('[the logo](/images/logo.png)');
    expect(tree.files.map((f) => [f.source, f.contentType])).toEqual([
      ['images/logo.png', 'image/png'],
      ['images/diagram.png', 'image/png'],
    ]);
    expect(JSON.stringify(tree.pages)).not.toContain('Footer text');
    expect(tree.warnings).toEqual(['Release-Process.rst: reStructuredText has no converter here; the page keeps its text as a code block.']);
    const release = tree.pages[2].children[2];
    expect(release.markdown).toBe('```rst\nRelease\n=======\n\nRun ``make release``.\n```\n');
    // The page's name is its title; a heading it starts with stays in its body.
    const notes = tree.pages[4];
    expect(notes.markdown).toMatch(/^converted/);
    const titled = await wikiTree(new Map([['Setup.md', Buffer.from('# Install\n\nText')], ['Usage.md', Buffer.from('# usage\n')]]), [], async () => undefined);
    expect(titled.pages.map((p) => p.markdown)).toEqual(['# Setup\n\n# Install\n\nText', '# usage\n']);
  });

  it('without a sidebar: Home, then every page by title', async () => {
    const files = new Map([
      ['b/Zeta.md', Buffer.from('Z')],
      ['Alpha-2.md', Buffer.from('A2')],
      ['Alpha-10.md', Buffer.from('A10')],
      ['home.md', Buffer.from('H')],
    ]);
    const tree = await wikiTree(files, [], async () => undefined);
    expect(shape(tree.pages)).toEqual([['home'], ['Alpha 2'], ['Alpha 10'], ['Zeta']]);
  });
});

const changeRequest = () => importTarget(server.db, server.url, 'From the wiki');

let wikis = 0;
/** A new wiki repository `<name>.wiki.git` on `master`, as GitHub keeps it. */
async function wiki(
  files: Record<string, string | Uint8Array | { mode: string; content: string | Uint8Array }>,
  name = `app${++wikis}`,
): Promise<{ name: string; url: string }> {
  // GitHub's wikis are on `master`, their HEAD.
  await gitText(await git.createRepo(`${name}.wiki`), ['symbolic-ref', 'HEAD', 'refs/heads/master']);
  await commitFiles(git, `${name}.wiki`, 'master', files, 'Wiki edits');
  return { name, url: git.plainUrl(`${name}.wiki`) };
}

describe('github wiki import through the API', () => {
  it('REST: the tree, titles, links as page references, images as files; the wiki page URL works too', async () => {
    const { owner, base } = await changeRequest();
    // Absolute links name the wiki's own host (here the test's server), as on github.com.
    const name = `rest${++wikis}`;
    const local = Object.fromEntries(Object.entries(WIKI).map(([path, content]) => [path, typeof content === 'string' ? content.replace('https://github.com/acme/app/wiki/', `http://127.0.0.1:${git.port}/${name}/wiki/`) : content]));
    await wiki(local, name);
    // The wiki's page URL (…/<repo>/wiki/<Page>) names its repository.
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `http://127.0.0.1:${git.port}/${name}/wiki/Home`, source: 'github-wiki' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ revision: expect.stringMatching(/^rev_/), importedResources: 12, totalResources: 12 });
    const tree: PageItem[] = (await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages;
    expect(outline(tree)).toEqual([
      ['Home', 'home'],
      ['Start', 'start', ['Getting Started', 'getting-started', ['Configuration', 'configuration']]],
      ['Reference', 'reference', ['API Reference', 'api-reference'], ['Frequently Asked Questions', 'frequently-asked-questions'], ['Release Process', 'release-process']],
      ['Orphan', 'orphan'],
      ['Team Notes', 'team-notes'],
    ]);
    const [home, start, reference] = tree;
    const started = start.pages![0];
    const configuration = started.pages![0];
    const [api, faq] = reference.pages!;
    const document = async (id: string) => (await http(server.url, owner.token, 'GET', `${base}/page/${id}?format=document`)).body.document;
    const homeRefs = refsWithText(await document(home.id));
    expect(homeRefs.filter(([, ref]) => ref.kind === 'page')).toEqual([
      ['Getting Started', { kind: 'page', page: started.id }],
      ['FAQ', { kind: 'page', page: faq.id }],
      ['the questions', { kind: 'page', page: faq.id }],
    ]);
    // The markdown image and the HTML one (`<img src>`) are the same file.
    expect(homeRefs.filter(([, ref]) => ref.kind === 'file').map(([, ref]) => ref.file)).toEqual([expect.stringMatching(/^file_/), homeRefs.find(([, ref]) => ref.kind === 'file')![1].file]);
    const logo = homeRefs.find(([, ref]) => ref.kind === 'file')!;
    expect((await http(server.url, owner.token, 'GET', `${base}/files/${logo[1].file}`)).body).toMatchObject({ name: 'logo.png', contentType: 'image/png' });
    const startedRefs = refsWithText(await document(started.id));
    expect(startedRefs).toContainEqual(['configuration', { kind: 'page', page: configuration.id }]);
    expect(startedRefs).toContainEqual(['the API', expect.objectContaining({ kind: expect.stringMatching(/page|anchor/), page: api.id })]);
    expect(startedRefs).toContainEqual(['Home', { kind: 'page', page: home.id }]);
    // The loop Getting Started ↔ Configuration is two references.
    expect(refsWithText(await document(configuration.id)).filter(([, ref]) => ref.page).map(([, ref]) => ref.page)).toEqual([started.id]);
    // AsciiDoc converted: its section, its code block with the language, its links.
    const apiDocument = JSON.stringify(await document(api.id));
    expect(apiDocument).toContain('"syntax":"js"');
    expect(apiDocument).toContain('Auth');
    expect(refsWithText(await document(api.id)).map(([text, ref]) => [text, ref.page])).toEqual([
      ['configuration', configuration.id],
      ['Home', home.id],
    ]);
    expect(JSON.stringify(await document(faq.id))).toContain(home.id);
    // Org converted: its heading, its code block, its links.
    const notes = tree[4];
    expect(JSON.stringify(await document(notes.id))).toContain('"syntax":"sh"');
    expect(refsWithText(await document(notes.id)).map(([text, ref]) => [text, ref.page])).toEqual([
      ['the configuration', configuration.id],
      ['Home', home.id],
    ]);
  }, 30_000);

  it('GraphQL: importContent with source github_wiki answers the job, which ends with its progress, result and warnings', async () => {
    const { owner, cr, base } = await changeRequest();
    const { url } = await wiki(WIKI);
    const { importContent: job } = await gqlOk(server.url, owner.token, 'mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: github_wiki) { id state kind } }', { cr: cr.id, url });
    expect(job).toMatchObject({ kind: 'import', state: expect.stringMatching(/queued|running/) });
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ query: 'subscription($id: ID!) { job(id: $id) { state progress { done total } message error { code message } importResult { importedResources totalResources warnings } } }', variables: { id: job.id } }),
    });
    const events = [...(await response.text()).matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]).data?.job).filter(Boolean);
    expect(events.at(-1)).toMatchObject({
      state: 'succeeded',
      progress: { done: 12, total: 12 },
      importResult: { importedResources: 12, totalResources: 12, warnings: ['Release-Process.rst: reStructuredText has no converter here; the page keeps its text as a code block.'] },
    });
    const tree: PageItem[] = (await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages;
    expect(tree.map((p) => p.title)).toEqual(['Home', 'Start', 'Reference', 'Orphan', 'Team Notes']);
  }, 30_000);

  it('any wiki: a git repository on main (HEAD), without Home or sidebar, by its .git URL', async () => {
    const { owner, base } = await changeRequest();
    await git.createRepo('team-docs');
    await commitFiles(git, 'team-docs', 'main', { 'Setup.md': '# Setup\n\nSee [[Usage]].\n', 'notes/Usage.md': 'Use it. Back to [setup](Setup).\n' }, 'Docs');
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: git.plainUrl('team-docs'), source: 'github-wiki' });
    expect(answer.body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const tree: PageItem[] = (await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages;
    expect(tree.map((p) => p.title)).toEqual(['Setup', 'Usage']);
    const refs = refsWithText((await http(server.url, owner.token, 'GET', `${base}/page/${tree[1].id}?format=document`)).body.document);
    expect(refs).toEqual([['setup', { kind: 'page', page: tree[0].id }]]);
  }, 30_000);

  it('refuses credentials in the URL, hostile trees and blobs past the cap, writing nothing', async () => {
    const { owner, base } = await changeRequest();
    const refused = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `http://bot:secret@127.0.0.1:${git.port}/x.wiki.git`, source: 'github-wiki' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('"url"');
    expect(refused.body.error.message).not.toContain('secret');

    // A `..` entry (written raw: git itself would refuse it).
    const { name } = await wiki({ 'Home.md': 'Home\n' });
    const home = await hashObject(git, `${name}.wiki`, 'Home\n');
    await commitTree(git, `${name}.wiki`, 'master', await writeRawTree(git, `${name}.wiki`, [{ mode: '100644', name: '..', oid: home }, { mode: '100644', name: 'Home.md', oid: home }]), 'Escape');
    const escape = await http(server.url, owner.token, 'POST', `${base}/import`, { url: git.plainUrl(`${name}.wiki`), source: 'github-wiki' });
    expect(escape.status).toBe(400);
    expect(escape.body.error.message).toContain('PARSE_ERROR');
    expect(escape.body.error.message).toContain('".."');

    const link = await wiki({ 'Home.md': 'Home\n', 'Secrets.md': { mode: '120000', content: '/etc/passwd' } });
    const symlink = await http(server.url, owner.token, 'POST', `${base}/import`, { url: link.url, source: 'github-wiki' });
    expect(symlink.status).toBe(400);
    expect(symlink.body.error.message).toMatch(/PARSE_ERROR.*Secrets\.md.*symbolic link/);

    // 3 MB of zeros compress to a few KB: read past the 1 MB cap of one file, refused.
    const bomb = await wiki({ 'Home.md': 'Home\n', 'Big.md': Buffer.alloc(3 * 1024 * 1024, 0x30) });
    const tooLarge = await http(server.url, owner.token, 'POST', `${base}/import`, { url: bomb.url, source: 'github-wiki' });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error.message).toMatch(/TOO_LARGE.*maxBlobBytes|TOO_LARGE/);

    const missing = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `http://127.0.0.1:${git.port}/nothing.wiki.git`, source: 'github-wiki' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('HTTP_ERROR');

    expect((await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages).toEqual([]);
  }, 60_000);
});
