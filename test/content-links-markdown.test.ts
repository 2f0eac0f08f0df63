/**
 * Links of markdown bodies, both ways (issue 23 §2). In: every form the public document's
 * description of `POST …/change-requests/{id}/content` lists resolves against the change request's
 * page tree as the batch leaves it (targets inserted later in the same batch included), files by
 * batch `ref` and by ID; external URLs and links to nothing stay URLs. Out: `format=markdown`
 * writes references as relative paths of the git layout (default) or stable identifiers
 * (`format.markdown.refs=stable`), and both read back to the same document. Over REST (the SDK)
 * and GraphQL.
 */
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { ContentLayout, markdownRefOptions, resolveLink, sameContent } from '../src/lib/markdown/index.js';

const server = useServer();

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const png = (name: string, ref?: string) => ({ ...(ref ? { ref } : {}), name, contentType: 'image/png', base64: Buffer.from(PNG, 'base64').toString('base64') });

type Ref = Record<string, unknown>;

/** Every `data.ref` of a document with the text (or alt) it is attached to, in document order. */
function refsOf(document: any): { text: string; ref: Ref }[] {
  const out: { text: string; ref: Ref }[] = [];
  const textOf = (n: any): string => (n?.leaves ? n.leaves.map((l: any) => l.text).join('') : (n?.nodes ?? []).map(textOf).join(''));
  const visit = (n: any) => {
    if (!n || typeof n !== 'object') return;
    if (n.data?.ref) out.push({ text: textOf(n) || n.data.alt || n.data.caption || '', ref: n.data.ref });
    for (const c of [...(n.nodes ?? []), ...(n.fragments ?? [])]) visit(c);
  };
  visit(document);
  return out;
}

const byText = (document: any) => Object.fromEntries(refsOf(document).map((r) => [r.text, r.ref]));

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Links' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Links' })).data;
  const write = async (changes: unknown[]) => (await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: changes as never }, { compat: false })).data as any;
  // The first page (README.md), a section, and a file already in the change request.
  const first = await write([
    { operation: 'insert_page', ref: 'intro', title: 'Introduction', slug: 'intro', document: { markdown: '# Introduction\n\n## Welcome\n\nHello.\n' } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', document: { markdown: '# Guide\n\nThe guide.\n' } },
    { operation: 'insert_files', files: [png('diagram.png')] },
  ]);
  const ids: Record<string, string> = Object.fromEntries(first.changes.map((c: any) => [c.ref, c.page.id]));
  return { owner, api, space, cr, write, ids, existingFile: first.insertedFiles[0].id as string };
}

const pageDocument = async (api: ReturnType<typeof sdk>, spaceId: string, crId: string, pageId: string) =>
  ((await api.spaces.getPageInChangeRequestById(spaceId, crId, pageId)).data as any).document;

describe('markdown links in', () => {
  it('resolves every documented form against the batch tree, targets inserted later in the batch included', async () => {
    const { api, space, cr, write, ids, existingFile } = await setup();
    const install = [
      '# Install',
      '',
      `* [by id](/pages/${ids.intro}) and [by id with anchor](/pages/${ids.intro}#welcome)`,
      '* [slug](/pages/guide) and [nested slug](/pages/guide/setup)',
      '* [git file](/pages/faq.md), [git folder](/pages/guide/README.md), [root](/pages/README.md)',
      '* [sibling](./setup.md), [sibling anchor](./setup.md#steps), [folder style](./setup), [bare](setup.md)',
      '* [parent](./README.md), [up](../README.md), [other](../faq.md)',
      '* [page ref](./faq-ref.md)',
      '* [external](https://example.com/docs) and [nothing](/pages/nowhere) and [nothing relative](../missing.md)',
      '',
      '![logo](./logo-ref)',
      '',
      `![existing](/files/${existingFile})`,
      '',
    ].join('\n');
    // Install comes first: Setup, FAQ and the logo do not exist yet when it is applied.
    const result = await write([
      { operation: 'insert_page', into: ids.guide, ref: 'install', document: { markdown: install } },
      { operation: 'insert_files', files: [png('logo.png', 'logo-ref')] },
      { operation: 'insert_page', into: ids.guide, title: 'Setup', slug: 'setup', ref: 'setup', document: { markdown: '# Setup\n\n## Steps\n\nDo it.\n' } },
      { operation: 'insert_page', title: 'FAQ', slug: 'faq', ref: 'faq-ref', document: { markdown: '# FAQ\n\nAsk.\n' } },
    ]);
    expectDocumented('POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/content', '200', result);
    const page = (ref: string) => result.changes.find((c: any) => c.ref === ref).page.id as string;
    expect(result.changes.map((c: any) => c.object)).toEqual(['created_page', 'created_page', 'created_page']);
    const logo = result.insertedFiles[0].id;
    const links = byText(await pageDocument(api, space.id, cr.id, page('install')));
    const to = (id: string) => ({ kind: 'page', page: id });
    const anchor = (id: string, a: string) => ({ kind: 'anchor', page: id, anchor: a });
    expect(links).toEqual({
      'by id': to(ids.intro),
      'by id with anchor': anchor(ids.intro, 'welcome'),
      slug: to(ids.guide),
      'nested slug': to(page('setup')),
      'git file': to(page('faq-ref')),
      'git folder': to(ids.guide),
      root: to(ids.intro),
      sibling: to(page('setup')),
      'sibling anchor': anchor(page('setup'), 'steps'),
      'folder style': to(page('setup')),
      bare: to(page('setup')),
      // Install is guide/install.md: `./README.md` is its parent's file, `../README.md` the first page.
      parent: to(ids.guide),
      up: to(ids.intro),
      other: to(page('faq-ref')),
      'page ref': to(page('faq-ref')),
      external: { kind: 'url', url: 'https://example.com/docs' },
      nothing: { kind: 'url', url: '/pages/nowhere' },
      'nothing relative': { kind: 'url', url: '../missing.md' },
      logo: { kind: 'file', file: logo },
      existing: { kind: 'file', file: existingFile },
    });
  });

  it('resolves relative links from where a page moves to in the same batch, and a file ID not in the request stays a URL', async () => {
    const { api, space, cr, write, ids } = await setup();
    const result = await write([
      { operation: 'update_page', page: ids.intro, document: { markdown: '# Introduction\n\n[sibling](./guide.md) [elsewhere](/files/file_nothere)\n' } },
      { operation: 'insert_page', title: 'Advanced', slug: 'advanced', ref: 'adv' },
    ]);
    const adv = result.changes.find((c: any) => c.ref === 'adv').page.id;
    expect(byText(await pageDocument(api, space.id, cr.id, ids.intro))).toEqual({ sibling: { kind: 'page', page: ids.guide }, elsewhere: { kind: 'url', url: '/files/file_nothere' } });
    // The first page moves under Advanced later in the batch: its links are read from advanced/intro.md.
    const moved = await write([
      { operation: 'update_page', page: ids.intro, document: { markdown: '# Introduction\n\n[up](../guide.md) [parent](./README.md)\n' } },
      { operation: 'update_page', page: ids.intro, into: adv },
      { operation: 'insert_page', title: 'Scratch', ref: 'scratch' },
      { operation: 'update_page', page: ids.guide, title: 'The guide' },
    ]);
    const scratch = moved.changes.find((c: any) => c.ref === 'scratch').page.id;
    const dropped = await write([{ operation: 'update_page', page: scratch, title: 'Scratch 2' }, { operation: 'delete_page', page: scratch }, { operation: 'insert_page', title: 'Gone', ref: 'gone' }]);
    // One entry per page, in the order first touched (compat=false); a page created and deleted in one batch is not listed.
    expect(moved.changes.map((c: any) => [c.object, c.page.id ?? c.page])).toEqual([['updated_page', ids.intro], ['created_page', scratch], ['updated_page', ids.guide]]);
    expect(dropped.changes.map((c: any) => c.object)).toEqual(['deleted_page', 'created_page']);
    const gone = dropped.changes[1].page.id;
    expect((await write([{ operation: 'insert_page', title: 'Brief', ref: 'brief' }, { operation: 'delete_page', page: gone }])).changes.map((c: any) => c.object)).toEqual(['created_page', 'deleted_page']);
    expect(byText(await pageDocument(api, space.id, cr.id, ids.intro))).toEqual({ up: { kind: 'page', page: ids.guide }, parent: { kind: 'page', page: adv } });
    expect(result.changes[0]).toMatchObject({ object: 'updated_page', page: { id: ids.intro } });
  });

  it('keeps only the last body of a page written twice in a batch', async () => {
    const { api, space, cr, write, ids } = await setup();
    await write([
      { operation: 'update_page', page: ids.guide, document: { markdown: '# Guide\n\n[first](/pages/intro)\n' } },
      { operation: 'update_page', page: ids.guide, document: { markdown: '# Guide\n\n[second](/pages/README.md)\n' } },
    ]);
    expect(byText(await pageDocument(api, space.id, cr.id, ids.guide))).toEqual({ second: { kind: 'page', page: ids.intro } });
  });
});

describe('markdown links out', () => {
  async function tree() {
    const ctx = await setup();
    const result = await ctx.write([
      { operation: 'insert_page', into: ctx.ids.guide, title: 'Install', slug: 'install', ref: 'install', document: { markdown: '# Install\n\n## Steps\n\nRun it.\n' } },
      { operation: 'insert_files', files: [png('logo.png', 'logo')] },
      { operation: 'insert_page', title: 'FAQ', slug: 'faq', ref: 'faq', document: { markdown: '# FAQ\n\nAsk.\n' } },
    ]);
    return { ...ctx, install: result.changes.find((c: any) => c.ref === 'install').page.id as string, faq: result.changes.find((c: any) => c.ref === 'faq').page.id as string, logo: result.insertedFiles[0].id as string };
  }

  it('writes relative paths by default and stable identifiers on request, each reading back to the same document', async () => {
    const { api, space, cr, write, ids, install, faq, logo, existingFile } = await tree();
    const relative = [
      '# Install',
      '',
      'See [the FAQ](../faq.md), [the guide](README.md), [home](../README.md#welcome) and [myself](install.md#steps).',
      '',
      '![logo](../.gitbook/assets/logo.png)',
      '',
      '![diagram](../.gitbook/assets/diagram.png)',
      '',
      '[outside](https://example.com/)',
      '',
    ].join('\n');
    await write([{ operation: 'update_page', page: install, document: { markdown: relative } }]);
    const stored = await pageDocument(api, space.id, cr.id, install);
    expect(byText(stored)).toEqual({
      'the FAQ': { kind: 'page', page: faq },
      'the guide': { kind: 'page', page: ids.guide },
      home: { kind: 'anchor', page: ids.intro, anchor: 'welcome' },
      myself: { kind: 'anchor', page: install, anchor: 'steps' },
      logo: { kind: 'file', file: logo },
      diagram: { kind: 'file', file: existingFile },
      outside: { kind: 'url', url: 'https://example.com/' },
    });

    // Relative (the default): the text written reads as it was sent.
    const asRelative = (await api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guide/install', { format: 'markdown' })).data as any;
    expectDocumented('GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath}', '200', asRelative);
    expect(asRelative.markdown).toBe(relative);
    const explicit = (await api.spaces.getPageInChangeRequestById(space.id, cr.id, install, { format: 'markdown', 'format.markdown.refs': 'relative' })).data as any;
    expect(explicit.markdown).toBe(relative);

    // Stable: identifiers, and writing them back changes nothing.
    const asStable = ((await api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guide/install', { format: 'markdown', 'format.markdown.refs': 'stable' })).data as any).markdown as string;
    expect(asStable).toContain(`[the FAQ](/pages/${faq})`);
    expect(asStable).toContain(`[home](/pages/${ids.intro}#welcome)`);
    expect(asStable).toContain(`![logo](/files/${logo})`);
    expect(asStable).toContain('[outside](https://example.com/)');
    await write([{ operation: 'update_page', page: install, document: { markdown: asStable } }]);
    expect(sameContent(await pageDocument(api, space.id, cr.id, install), stored)).toBe(true);

    // Relative text read from another page's place (the FAQ at the top level) round trips too.
    await write([{ operation: 'update_page', page: faq, document: { markdown: `# FAQ\n\n[install](/pages/${install}#steps) ![logo](/files/${logo}) [guide](/pages/guide)\n` } }]);
    const faqMarkdown = ((await api.spaces.getPageInChangeRequestById(space.id, cr.id, faq, { format: 'markdown' })).data as any).markdown;
    expect(faqMarkdown).toBe('# FAQ\n\n[install](guide/install.md#steps) ![logo](.gitbook/assets/logo.png) [guide](guide/README.md)\n');
    const faqDocument = await pageDocument(api, space.id, cr.id, faq);
    await write([{ operation: 'update_page', page: faq, document: { markdown: faqMarkdown } }]);
    expect(sameContent(await pageDocument(api, space.id, cr.id, faq), faqDocument)).toBe(true);

    // Merged, the space's own content reads the same (format.markdown.refs passed through).
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const live = (await api.spaces.getPageByPath(space.id, 'guide/install', { format: 'markdown' })).data as any;
    expect(live.markdown).toBe(relative);
    const liveStable = (await api.spaces.getPageById(space.id, install, { format: 'markdown', 'format.markdown.refs': 'stable' })).data as any;
    expect(liveStable.markdown).toBe(asStable);
  });

  it('refuses an unknown refs format with a 400 naming the parameter', async () => {
    const { owner, space, cr, install } = await tree();
    const bad = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${install}?format=markdown&format.markdown.refs=absolute`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('format.markdown.refs');
    const api = sdk(server.url, owner.token);
    expect((await sdkError(api.spaces.getPageInChangeRequestByPath(space.id, cr.id, 'guide/install', { format: 'markdown', 'format.markdown.refs': 'nope' as never }))).status).toBe(400);
    // The other documented flags of the page read: what this server cannot honour is refused, naming it.
    const evaluated = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${install}?format=markdown&evaluated=true`);
    expect(evaluated.status).toBe(400);
    expect(JSON.stringify(evaluated.body)).toContain('evaluated');
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${install}?format=markdown&evaluated=false&dereferenced=false`)).status).toBe(200);
  });
});

describe('markdown links over GraphQL', () => {
  it('resolves links of createPage and updatePage, and writes Page.markdown(refs)', async () => {
    const { owner, space, cr, ids } = await setup();
    const create = `mutation($s: ID!, $id: ID!, $parent: ID, $input: PageInput!) { createPage(spaceId: $s, id: $id, parent: $parent, input: $input) { id path document markdown stable: markdown(refs: stable) } }`;
    const created = (
      await gqlOk(server.url, owner.token, create, { s: space.id, id: cr.id, parent: ids.guide, input: { title: 'Topics', slug: 'topics', markdown: '# Topics\n\n[home](../README.md) [guide](./README.md) [by path](/pages/intro)\n' } })
    ).createPage;
    expect(created.path).toBe('guide/topics');
    expect(byText(created.document)).toEqual({ home: { kind: 'page', page: ids.intro }, guide: { kind: 'page', page: ids.guide }, 'by path': { kind: 'page', page: ids.intro } });
    expect(created.markdown).toBe('# Topics\n\n[home](../README.md) [guide](README.md) [by path](../README.md)\n');
    expect(created.stable).toBe(`# Topics\n\n[home](/pages/${ids.intro}) [guide](/pages/${ids.guide}) [by path](/pages/${ids.intro})\n`);
    const update = `mutation($s: ID!, $id: ID!, $page: ID!, $input: PageInput!) { updatePage(spaceId: $s, id: $id, page: $page, input: $input) { document } }`;
    const updated = (await gqlOk(server.url, owner.token, update, { s: space.id, id: cr.id, page: ids.guide, input: { markdown: '# Guide\n\n[child](topics.md) [nothing](gone.md)\n' } })).updatePage;
    expect(byText(updated.document)).toEqual({ child: { kind: 'page', page: created.id }, nothing: { kind: 'url', url: 'gone.md' } });
    const invalid = await gql(server.url, owner.token, `query($s: ID!) { space(id: $s) { revision { allPages { markdown(refs: absolute) } } } }`, { s: space.id });
    expect(invalid.errors?.length).toBeGreaterThan(0);
  });

  it('renders the markdown of many pages with one read of the page list per revision', async () => {
    const { owner, space, cr, write, ids } = await setup();
    await write(Array.from({ length: 12 }, (_, i) => ({ operation: 'insert_page', into: ids.guide, title: `P${i}`, slug: `p${i}`, document: { markdown: `# P${i}\n\n[home](../README.md) [next](p${i + 1}.md)\n` } })));
    const query = `query($s: ID!, $id: ID!) { space(id: $s) { changeRequest(id: $id) { revision { allPages { path markdown } } } } }`;
    server.queries.length = 0;
    const pages = (await gqlOk(server.url, owner.token, query, { s: space.id, id: cr.id })).space.changeRequest.revision.allPages;
    // 14 pages rendered; the revision's page list read once (the loader's statement, which allPages
    // shares), its files not at all (no page references one).
    expect(pages).toHaveLength(14);
    expect(server.queries.filter((q) => q.includes('AS "revisionId"'))).toHaveLength(1);
    const p3 = pages.find((p: any) => p.path === 'guide/p3');
    expect(p3.markdown).toBe('# P3\n\n[home](../README.md) [next](p4.md)\n');
    // The last page's `next` names nothing: it stays the URL it was.
    expect(pages.find((p: any) => p.path === 'guide/p11').markdown).toBe('# P11\n\n[home](../README.md) [next](p12.md)\n');
  });
});

describe('the git layout of links (lib/markdown/layout.ts)', () => {
  const page = (id: string, parentId: string | null, slug: string, position: string, type = 'document') => ({ id, parentId, slug, type, position });
  // A group first: its first document is the first page (README.md).
  const layout = new ContentLayout(
    [page('g', null, 'start', 'a0', 'group'), page('welcome', 'g', 'welcome', 'a0'), page('api', null, 'api', 'a1'), page('auth', 'api', 'auth', 'a0'), page('keys', 'auth', 'keys', 'a0')],
    [{ id: 'file_b', name: 'shot.png' }, { id: 'file_a', name: 'shot.png' }, { id: 'file_c', name: 'a b.pdf' }],
  );

  it('places pages and files as git sync does', () => {
    expect(['g', 'welcome', 'api', 'auth', 'keys'].map((id) => layout.pageFile(id))).toEqual(['start/', 'README.md', 'api/README.md', 'api/auth/README.md', 'api/auth/keys.md']);
    // Files of the same name, in ID order: the first keeps it, the next is numbered.
    expect(['file_a', 'file_b', 'file_c'].map((id) => layout.fileAsset(id))).toEqual(['.gitbook/assets/shot.png', '.gitbook/assets/shot (1).png', '.gitbook/assets/a b.pdf']);
  });

  it('reads back what it writes, from every page, and leaves what names nothing', () => {
    for (const from of ['welcome', 'api', 'auth', 'keys']) {
      const write = markdownRefOptions('relative', layout, from);
      for (const to of ['welcome', 'api', 'auth', 'keys', 'g']) expect(resolveLink(layout, write.resolvePage!(to)!, from), `${from} → ${to}`).toEqual({ kind: 'page', page: to });
      for (const file of ['file_a', 'file_b', 'file_c']) expect(resolveLink(layout, write.resolveFile!(file)!, from)).toEqual({ kind: 'file', file });
    }
    expect(resolveLink(layout, '../../.gitbook/assets/a%20b.pdf', 'keys')).toEqual({ kind: 'file', file: 'file_c' });
    expect(resolveLink(layout, '../../../../escape.md', 'keys')).toBeUndefined();
    expect(resolveLink(layout, 'mailto:a@b.c', 'keys')).toBeUndefined();
    expect(resolveLink(layout, '//cdn.example.com/x.md', 'keys')).toBeUndefined();
    expect(resolveLink(layout, '/files/file_zz', 'keys')).toBeUndefined();
    expect(resolveLink(layout, '/pages/start/welcome#top', 'keys')).toEqual({ kind: 'anchor', page: 'welcome', anchor: 'top' });
    // Pages or files not in the layout are written in the stable form.
    expect(markdownRefOptions('relative', layout, 'keys').resolvePage!('page_gone')).toBe('/pages/page_gone');
  });
});
