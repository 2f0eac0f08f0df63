/**
 * Links of imported pages to what is already in the change request (issue 23 §2): a link that
 * names no imported page or file is resolved as a change request's markdown links are
 * (resolveLink), from the imported page's own file in the change request's tree — relative
 * (`existing.md`, `guide/install.md#steps`) or stable (`/pages/<id>`, `/files/<id>`). Links
 * between imported pages still win; what names nothing stays a URL.
 */
import { describe, expect, it } from 'vitest';
import { http, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { useSites } from './helpers/site.js';
import { zipOf } from './helpers/zip.js';

const server = useServer({ worker: true });
const site = useSites();

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Every `data.ref` of a document with its text, in order. */
function refsByText(document: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const textOf = (n: any): string => (n?.leaves ? n.leaves.map((l: any) => l.text).join('') : (n?.nodes ?? []).map(textOf).join(''));
  const visit = (n: any) => {
    if (!n || typeof n !== 'object') return;
    if (n.data?.ref) out[textOf(n) || n.data.alt || ''] = n.data.ref;
    for (const c of [...(n.nodes ?? []), ...(n.fragments ?? [])]) visit(c);
  };
  visit(document);
  return out;
}

describe('imported links to the change request', () => {
  it('resolves what the import does not name against the pages and files already there', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const space = (await api.orgs.createSpace(org.id, { title: 'Imports' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Import' })).data;
    const write = async (changes: unknown[]) => (await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: changes as never }, { compat: false })).data as any;
    const first = await write([
      { operation: 'insert_page', ref: 'existing', title: 'Existing', slug: 'existing', document: { markdown: '# Existing\n' } },
      { operation: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', document: { markdown: '# Guide\n' } },
      { operation: 'insert_files', files: [{ name: 'chart.png', contentType: 'image/png', base64: PNG }] },
    ]);
    const ids: Record<string, string> = Object.fromEntries(first.changes.map((c: any) => [c.ref, c.page.id]));
    const chart = first.insertedFiles[0].id as string;
    ids.install = (await write([{ operation: 'insert_page', into: ids.guide, title: 'Install', slug: 'install', document: { markdown: '# Install\n' } }])).changes[0].page.id;

    const zip = await zipOf({
      'README.md': [
        '# Imported',
        '',
        `[existing](existing.md) [install](guide/install.md#steps) [by id](/pages/${ids.guide}) [sibling](other.md) [nothing](missing.md)`,
        '',
        `![chart](/files/${chart})`,
        '',
      ].join('\n'),
      'other.md': '# Other\n\n[home](README.md) [existing](./existing.md)\n',
    });
    const served = await site({ '/docs.zip': { type: 'application/zip', body: zip } });
    const base = `/spaces/${space.id}/change-requests/${cr.id}/content`;
    const answer = await http(server.url, owner.token, 'POST', `${base}/import`, { url: `${served.url}/docs.zip`, source: 'zip' });
    expect(answer.status).toBe(200);

    const tree = (await http(server.url, owner.token, 'GET', `${base}/pages`)).body.pages as { id: string; title: string; path: string }[];
    const imported = tree.find((p) => p.title === 'Imported')!;
    const other = tree.find((p) => p.title === 'Other')!;
    expect([imported.path, other.path]).toEqual(['imported', 'other']);
    const document = async (id: string) => (await http(server.url, owner.token, 'GET', `${base}/page/${id}?format=document`)).body.document;
    expect(refsByText(await document(imported.id))).toEqual({
      existing: { kind: 'page', page: ids.existing },
      install: { kind: 'anchor', page: ids.install, anchor: 'steps' },
      'by id': { kind: 'page', page: ids.guide },
      // Imported pages link to each other first.
      sibling: { kind: 'page', page: other.id },
      nothing: { kind: 'url', url: 'missing.md' },
      chart: { kind: 'file', file: chart },
    });
    expect(refsByText(await document(other.id))).toEqual({ home: { kind: 'page', page: imported.id }, existing: { kind: 'page', page: ids.existing } });
  });
});
