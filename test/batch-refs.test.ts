/**
 * The rules of a batch's `ref`s (issue 23 §2; the public document on `insert_page.ref` and
 * `insert_files.files[].ref`): unique within the batch, page and file refs together, and not the
 * path of a page already in the change request. Refused with a 400 naming the ref; nothing of the
 * batch is written.
 */
import { describe, expect, it } from 'vitest';
import { http, sdk, sdkError } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const png = (ref: string) => ({ ref, name: 'a.png', contentType: 'image/png', base64: PNG });
const page = (ref: string, extra: Record<string, unknown> = {}) => ({ operation: 'insert_page', ref, title: ref, document: { markdown: `# ${ref}\n` }, ...extra });

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Refs' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Refs' })).data;
  const write = (changes: unknown[]) => api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: changes as never }, { compat: false });
  const first = (await write([page('guide', { slug: 'guide' })])).data as any;
  const guide = first.changes[0].page.id as string;
  await write([page('install', { slug: 'install', into: guide })]);
  const revision = async () => ((await api.spaces.getChangeRequestById(space.id, cr.id)).data as any).revision as string;
  return { owner, api, space, cr, write, revision };
}

describe('batch refs', () => {
  it('refuses a ref used twice in a batch, by pages or files, naming the second', async () => {
    const { write, revision } = await setup();
    const before = await revision();
    const pages = await sdkError(write([page('a'), page('b'), page('a')]));
    expect(pages.status).toBe(400);
    expect(pages.message).toContain('changes.2.ref');
    const mixed = await sdkError(write([page('logo'), { operation: 'insert_files', files: [png('other'), png('logo')] }]));
    expect(mixed.status).toBe(400);
    expect(mixed.message).toContain('changes.1.files.1.ref');
    const files = await sdkError(write([{ operation: 'insert_files', files: [png('x')] }, { operation: 'insert_files', files: [png('x')] }]));
    expect(files.message).toContain('changes.1.files.0.ref');
    expect(await revision()).toBe(before);
  });

  it('refuses a ref that is the path of a page already in the change request', async () => {
    const { owner, space, cr, write, revision } = await setup();
    const before = await revision();
    for (const ref of ['guide', 'guide/install', 'guide/install.md', './guide/README.md', 'README.md']) {
      const refused = await sdkError(write([page('fine'), page(ref)]));
      expect(refused.status, ref).toBe(400);
      expect(refused.message, ref).toContain('changes.1.ref');
    }
    const file = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_files', files: [png('guide/install')] }] });
    expect(file.status).toBe(400);
    expect(JSON.stringify(file.body)).toContain('changes.0.files.0.ref');
    expect(await revision()).toBe(before);
    // Not a page's path (a new page's slug in the same batch is not "already" there): accepted.
    const ok = (await write([page('faq', { slug: 'faq' }), page('guide/faq')])).data as any;
    expect(ok.changes.map((c: any) => c.ref)).toEqual(['faq', 'guide/faq']);
  });
});
