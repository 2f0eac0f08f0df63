/**
 * Includes of reusable contents, both ways (issue 23 §2). In the git layout a reusable content is
 * `.gitbook/includes/<slug>.md` and a page includes it with `{% include "<path relative to the
 * page's file>" %}`; the stable form is `{% include "/reusable-contents/<id>" %}`. Both forms read
 * to `{kind: 'reusable-content'}`; `refs=relative` (default) and `refs=stable` write them back, and
 * what is written reads back to the same document. A reusable content's own links are relative to
 * its file. Over REST (the SDK) for pages, GraphQL for reusable contents, and the pure layout.
 */
import { describe, expect, it } from 'vitest';
import { gqlOk, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { ContentLayout, markdownRefOptions, resolveLink, sameContent } from '../src/lib/markdown/index.js';

const server = useServer();

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Every `data.ref` of a document, in document order. */
function refsOf(document: any): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const visit = (n: any) => {
    if (!n || typeof n !== 'object') return;
    if (n.data?.ref) out.push(n.data.ref);
    for (const c of [...(n.nodes ?? []), ...(n.fragments ?? [])]) visit(c);
  };
  visit(document);
  return out;
}

const REUSABLE = `id document markdown stable: markdown(refs: stable)`;

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Includes' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Includes' })).data;
  const write = async (changes: unknown[]) => (await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: changes as never }, { compat: false })).data as any;
  const first = await write([
    { operation: 'insert_page', ref: 'intro', title: 'Introduction', slug: 'intro', document: { markdown: '# Introduction\n\nHello.\n' } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', document: { markdown: '# Guide\n\nThe guide.\n' } },
    { operation: 'insert_files', files: [{ name: 'diagram.png', contentType: 'image/png', base64: PNG }] },
  ]);
  const ids: Record<string, string> = Object.fromEntries(first.changes.map((c: any) => [c.ref, c.page.id]));
  const second = await write([{ operation: 'insert_page', ref: 'install', into: ids.guide, title: 'Install', slug: 'install', document: { markdown: '# Install\n\nSteps.\n' } }]);
  ids.install = second.changes[0].page.id;
  const reusable = async (mutation: 'create' | 'update', variables: Record<string, unknown>) => {
    const query =
      mutation === 'create'
        ? `mutation($s: ID!, $id: ID!, $title: String!, $document: JSON) { r: createReusableContent(spaceId: $s, id: $id, title: $title, document: $document) { ${REUSABLE} } }`
        : `mutation($s: ID!, $id: ID!, $r: ID!, $document: JSON) { r: updateReusableContent(spaceId: $s, id: $id, reusableContentId: $r, document: $document) { ${REUSABLE} } }`;
    return (await gqlOk(server.url, owner.token, query, { s: space.id, id: cr.id, ...variables })).r;
  };
  return { api, space, cr, write, ids, reusable, file: first.insertedFiles[0].id as string };
}

describe('includes of reusable contents', () => {
  it('resolves a reusable content’s own links relative to .gitbook/includes/<slug>.md and writes them back both ways', async () => {
    const { ids, reusable, file } = await setup();
    const markdown = 'Read [the steps](../../guide/install.md#steps), [home](../../README.md) and [nothing](../../missing.md).\n\n![diagram](../assets/diagram.png)\n';
    const created = await reusable('create', { title: 'Terms of use', document: { markdown } });
    expect(refsOf(created.document)).toEqual([
      { kind: 'anchor', page: ids.install, anchor: 'steps' },
      { kind: 'page', page: ids.intro },
      { kind: 'url', url: '../../missing.md' },
      { kind: 'file', file },
    ]);
    expect(created.markdown).toBe(markdown);
    expect(created.stable).toBe(`Read [the steps](/pages/${ids.install}#steps), [home](/pages/${ids.intro}) and [nothing](../../missing.md).\n\n![diagram](/files/${file})\n`);
    // Both forms, written back through updateReusableContent, read to the same document.
    for (const form of [created.markdown, created.stable]) {
      const updated = await reusable('update', { r: created.id, document: { markdown: form } });
      expect(sameContent(updated.document, created.document)).toBe(true);
    }
  });

  it('reads both include forms to the reusable content, writes them relative or stable, and each reads back', async () => {
    const { api, space, cr, write, ids, reusable } = await setup();
    const terms = await reusable('create', { title: 'Terms of use', document: { markdown: 'The terms.\n' } });
    const notice = await reusable('create', { title: 'Notice!', document: { markdown: 'A notice.\n' } });
    const install = [
      '# Install',
      '',
      '{% include "../.gitbook/includes/terms-of-use.md" %}',
      '',
      `{% include "/reusable-contents/${notice.id}" %}`,
      '',
      '{% include "../.gitbook/includes/missing.md" %}',
      '',
      // An include of a page, and a link to a reusable content, name nothing: they stay URLs.
      '{% include "../README.md" %}',
      '',
      '[terms](../.gitbook/includes/terms-of-use.md)',
      '',
    ].join('\n');
    // A page inserted in the same batch, at the top level, includes from its own folder.
    const result = await write([
      { operation: 'update_page', page: ids.install, document: { markdown: install } },
      { operation: 'insert_page', ref: 'faq', title: 'FAQ', slug: 'faq', document: { markdown: '# FAQ\n\n{% include ".gitbook/includes/notice.md" %}\n' } },
    ]);
    const faq = result.changes.find((c: any) => c.ref === 'faq').page.id as string;
    const document = ((await api.spaces.getPageInChangeRequestById(space.id, cr.id, ids.install)).data as any).document;
    expect(refsOf(document)).toEqual([
      { kind: 'reusable-content', reusableContent: terms.id },
      { kind: 'reusable-content', reusableContent: notice.id },
      { kind: 'url', url: '../.gitbook/includes/missing.md' },
      { kind: 'url', url: '../README.md' },
      { kind: 'url', url: '../.gitbook/includes/terms-of-use.md' },
    ]);
    const faqDocument = ((await api.spaces.getPageInChangeRequestById(space.id, cr.id, faq)).data as any).document;
    expect(refsOf(faqDocument)).toEqual([{ kind: 'reusable-content', reusableContent: notice.id }]);

    // Relative (the default): the path from the page's file to .gitbook/includes/<slug>.md.
    const relative = ((await api.spaces.getPageInChangeRequestById(space.id, cr.id, ids.install, { format: 'markdown' })).data as any).markdown as string;
    expect(relative).toBe(install.replace(`/reusable-contents/${notice.id}`, '../.gitbook/includes/notice.md'));
    const faqRelative = ((await api.spaces.getPageInChangeRequestById(space.id, cr.id, faq, { format: 'markdown' })).data as any).markdown as string;
    expect(faqRelative).toContain('{% include ".gitbook/includes/notice.md" %}');
    // Stable: the reusable content's ID.
    const stable = ((await api.spaces.getPageInChangeRequestById(space.id, cr.id, ids.install, { format: 'markdown', 'format.markdown.refs': 'stable' })).data as any).markdown as string;
    expect(stable).toContain(`{% include "/reusable-contents/${terms.id}" %}`);
    expect(stable).toContain(`{% include "/reusable-contents/${notice.id}" %}`);
    expect(stable).toContain('{% include "../.gitbook/includes/missing.md" %}');
    // Each form written back reads to the same document.
    for (const form of [relative, stable]) {
      await write([{ operation: 'update_page', page: ids.install, document: { markdown: form } }]);
      const back = ((await api.spaces.getPageInChangeRequestById(space.id, cr.id, ids.install)).data as any).document;
      expect(sameContent(back, document)).toBe(true);
    }
  });
});

describe('the git layout of reusable contents', () => {
  const page = (id: string, parentId: string | null, slug: string, position: string) => ({ id, parentId, slug, type: 'document', position });
  const layout = new ContentLayout(
    [page('home', null, 'home', 'a0'), page('api', null, 'api', 'a1'), page('keys', 'api', 'keys', 'a0')],
    [{ id: 'file_a', name: 'shot.png' }],
    [
      { id: 'rc_b', title: 'Terms of use' },
      { id: 'rc_a', title: 'Terms of Use' },
      { id: 'rc_c', title: '!!!' },
    ],
  );

  it('places reusable contents at .gitbook/includes/<slug>.md, same slugs numbered in ID order', () => {
    expect(['rc_a', 'rc_b', 'rc_c'].map((id) => layout.reusableContentFile(id))).toEqual([
      '.gitbook/includes/terms-of-use.md',
      '.gitbook/includes/terms-of-use (1).md',
      '.gitbook/includes/reusable-content.md',
    ]);
    expect(layout.pageFolder('rc_a')).toBe('.gitbook/includes/');
  });

  it('reads back what it writes, from pages and from reusable contents', () => {
    for (const from of ['home', 'api', 'keys', 'rc_a', 'rc_c']) {
      const write = markdownRefOptions('relative', layout, from);
      for (const to of ['rc_a', 'rc_b', 'rc_c']) expect(resolveLink(layout, write.resolveReusableContent!(to)!, from), `${from} → ${to}`).toEqual({ kind: 'reusable-content', reusableContent: to });
      for (const to of ['home', 'api', 'keys']) expect(resolveLink(layout, write.resolvePage!(to)!, from), `${from} → ${to}`).toEqual({ kind: 'page', page: to });
      expect(resolveLink(layout, write.resolveFile!('file_a')!, from)).toEqual({ kind: 'file', file: 'file_a' });
      const stable = markdownRefOptions('stable', layout, from);
      expect(stable.resolveReusableContent!('rc_b')).toBe('/reusable-contents/rc_b');
      expect(resolveLink(layout, '/reusable-contents/rc_b', from)).toEqual({ kind: 'reusable-content', reusableContent: 'rc_b' });
    }
    expect(markdownRefOptions('relative', layout, 'keys').resolveReusableContent!('rc_a')).toBe('../.gitbook/includes/terms-of-use.md');
    expect(markdownRefOptions('relative', layout, 'rc_a').resolvePage!('keys')).toBe('../../api/keys.md');
    expect(resolveLink(layout, '/reusable-contents/rc_zz', 'home')).toBeUndefined();
    expect(resolveLink(layout, '.gitbook/includes/nothing.md', 'home')).toBeUndefined();
    // Not in the layout: the stable form.
    expect(markdownRefOptions('relative', layout, 'home').resolveReusableContent!('rc_gone')).toBe('/reusable-contents/rc_gone');
  });
});
