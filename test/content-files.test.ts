/**
 * Files and reusable contents of change requests: inline (REST batch) and multipart (GraphQL)
 * uploads, reads (list in pages, one, the revision object), signed downloads, limits, access.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { serveSite } from './helpers/site.js';

const server = useServer();

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Download URLs name the configured public URL; the test server listens elsewhere. */
const local = (url: string) => `${server.url}${new URL(url).pathname}`;

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Files' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Files' })).data;
  return { org, owner, api, space, cr };
}

const insertFiles = (files: unknown[]) => ({ changes: [{ operation: 'insert_files', files }] });

async function storedFileCount(): Promise<number> {
  const root = path.resolve('.quire/files');
  let n = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) await walk(path.join(dir, entry.name));
      else n++;
    }
  };
  await walk(root);
  return n;
}

describe('files of a change request', () => {
  it('fetches a file given by URL (through the safe fetcher), its type from the response', async () => {
    const { owner, space, cr } = await setup();
    const site = await serveSite({ '/logo.png': { type: 'image/png', body: Buffer.from(PNG, 'base64') } });
    try {
      const added = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, insertFiles([{ name: 'logo.png', url: `${site.url}/logo.png` }]));
      expect(added.body.insertedFiles).toEqual([expect.objectContaining({ name: 'logo.png', contentType: 'image/png', size: Buffer.from(PNG, 'base64').length, dimensions: { width: 1, height: 1 } })]);
      const missing = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, insertFiles([{ name: 'gone.png', url: `${site.url}/gone.png` }]));
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toMatch(/"changes\.0\.files\.0\.url".*HTTP_ERROR/);
    } finally {
      await site.close();
    }
  });

  it('takes inline files in a content batch, lists them in pages, and serves their bytes from a signed URL', async () => {
    const { owner, space, cr } = await setup();
    const text = Buffer.from(`notes ${Date.now()}`).toString('base64');
    const added = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, insertFiles([
      { ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG },
      { name: 'notes.txt', contentType: 'text/plain', base64: text },
    ]));
    expect(added.status).toBe(200);
    expect(added.body.insertedFiles).toEqual([
      { id: expect.stringMatching(/^file_/), name: 'logo.png', contentType: 'image/png', size: Buffer.from(PNG, 'base64').length, dimensions: { width: 1, height: 1 }, downloadURL: expect.any(String) },
      { id: expect.stringMatching(/^file_/), name: 'notes.txt', contentType: 'text/plain', size: Buffer.from(text, 'base64').length, downloadURL: expect.any(String) },
    ]);
    const [logo] = added.body.insertedFiles;

    const first = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/files?limit=1`);
    expect(first.body).toMatchObject({ count: 2, items: [expect.any(Object)], next: { page: expect.any(String) } });
    // An edit between two pages of the list makes a new revision: the cursor stays good.
    await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: 'Between', document: {} }] });
    const second = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/files?limit=1&page=${encodeURIComponent(first.body.next.page)}`);
    expect([...first.body.items, ...second.body.items].map((f: { name: string }) => f.name).sort()).toEqual(['logo.png', 'notes.txt']);

    const one = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/files/${logo.id}`);
    expect(one.body).toMatchObject({ id: logo.id, name: 'logo.png' });
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/files/file_missing`)).status).toBe(404);

    const download = await fetch(local(one.body.downloadURL));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).toString('base64')).toBe(PNG);
    const url = new URL(local(one.body.downloadURL));
    const tampered = `${url.origin}${url.pathname.slice(0, -3)}${url.pathname.endsWith('A') ? 'B' : 'A'}AA`;
    expect((await fetch(tampered)).status).toBe(403);

    const revision = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content`);
    expect(revision.body.files.map((f: { name: string }) => f.name).sort()).toEqual(['logo.png', 'notes.txt']);
  });

  it('uploads files over GraphQL multipart, and merges them into the space', async () => {
    const { owner, api, space, cr } = await setup();
    const form = new FormData();
    const query = `mutation($s: ID!, $c: ID!, $files: [File!]!) { uploadChangeRequestFiles(spaceId: $s, id: $c, files: $files) { id name contentType size dimensions { width height } } }`;
    form.set('operations', JSON.stringify({ query, variables: { s: space.id, c: cr.id, files: [null] } }));
    form.set('map', JSON.stringify({ 0: ['variables.files.0'] }));
    form.set('0', new Blob([Buffer.from(PNG, 'base64')], { type: 'image/png' }), 'pixel.png');
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form });
    const result = (await response.json()) as any;
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.data.uploadChangeRequestFiles).toEqual([{ id: expect.stringMatching(/^file_/), name: 'pixel.png', contentType: 'image/png', size: Buffer.from(PNG, 'base64').length, dimensions: { width: 1, height: 1 } }]);
    expect((await api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    const data = await gqlOk(server.url, owner.token, `query($id: ID!) { space(id: $id) { revision { files { totalCount edges { node { name } } } } } }`, { id: space.id });
    expect(data.space.revision.files).toEqual({ totalCount: 1, edges: [{ node: { name: 'pixel.png' } }] });
  });

  it('refuses bad files with a 400 naming the field, and stores nothing for a caller who may not write', async () => {
    const { org, owner, space, cr } = await setup();
    const post = (token: string, body: unknown) => http(server.url, token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, body);
    expect((await post(owner.token, insertFiles([{ name: 'a.png', base64: PNG }]))).body.error.message).toContain('changes.0.files.0.contentType');
    expect((await post(owner.token, insertFiles([{ name: 'a.png', contentType: 'image/png', base64: '***' }]))).body.error.message).toContain('changes.0.files.0.base64');
    expect((await post(owner.token, insertFiles([{ name: 'a/b.png', contentType: 'image/png', base64: PNG }]))).body.error.message).toContain('changes.0.files.0.name');
    expect((await post(owner.token, insertFiles([{ name: 'big.bin', contentType: 'application/octet-stream', base64: Buffer.alloc(1024 * 1024 + 1).toString('base64') }]))).status).toBe(400);
    // Nothing listens on port 1: the fetch fails, and the answer names the field.
    expect((await post(owner.token, insertFiles([{ name: 'remote.png', url: 'http://127.0.0.1:1/x.png' }]))).body.error.message).toContain('changes.0.files.0.url');
    expect((await post(owner.token, insertFiles([{ name: 'both.png', url: 'http://127.0.0.1:1/x.png', base64: PNG, contentType: 'image/png' }]))).body.error.message).toContain('changes.0.files.0');

    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const stranger = await createOrg(server.db, 'Elsewhere');
    const before = await storedFileCount();
    const unique = Buffer.from(`secret ${Date.now()} ${Math.random()}`).toString('base64');
    expect((await post(reader.token, insertFiles([{ name: 'x.txt', contentType: 'text/plain', base64: unique }]))).status).toBe(403);
    expect((await post(stranger.owner.token, insertFiles([{ name: 'x.txt', contentType: 'text/plain', base64: unique }]))).status).toBe(404);
    expect(await storedFileCount()).toBe(before);
    expect((await http(server.url, stranger.owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/files`)).status).toBe(404);
  });
});

describe('reusable contents of a change request', () => {
  it('creates, reads, updates and deletes them; REST names the document by ID', async () => {
    const { owner, api, space, cr } = await setup();
    const created = await gqlOk(server.url, owner.token, `mutation($s: ID!, $c: ID!) { createReusableContent(spaceId: $s, id: $c, title: "Warning", document: { markdown: "Do **not** do this." }) { id title documentId markdown } }`, { s: space.id, c: cr.id });
    const content = created.createReusableContent;
    expect(content).toMatchObject({ id: expect.stringMatching(/^rc_/), title: 'Warning', documentId: expect.stringMatching(/^doc_/) });
    expect(content.markdown).toContain('**not**');
    const rest = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/reusable-contents/${content.id}`);
    expect(rest.body).toEqual({ id: content.id, title: 'Warning', document: content.documentId });
    const updated = await gqlOk(server.url, owner.token, `mutation($s: ID!, $c: ID!, $r: ID!) { updateReusableContent(spaceId: $s, id: $c, reusableContentId: $r, title: "Caution") { title documentId } }`, { s: space.id, c: cr.id, r: content.id });
    expect(updated.updateReusableContent).toEqual({ title: 'Caution', documentId: content.documentId });
    const revision = (await api.spaces.getRevisionOfChangeRequestById(space.id, cr.id)).data;
    expect(revision.reusableContents).toEqual([{ id: content.id, title: 'Caution', document: content.documentId }]);
    await gqlOk(server.url, owner.token, `mutation($s: ID!, $c: ID!, $r: ID!) { deleteReusableContent(spaceId: $s, id: $c, reusableContentId: $r) }`, { s: space.id, c: cr.id, r: content.id });
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/content/reusable-contents/${content.id}`)).status).toBe(404);
    const missing = await gql(server.url, owner.token, `mutation($s: ID!, $c: ID!) { createReusableContent(spaceId: $s, id: $c, title: "") { id } }`, { s: space.id, c: cr.id });
    expect(missing.errors?.[0]).toMatchObject({ message: expect.stringContaining('title'), extensions: { code: 'BAD_REQUEST' } });
    expect((await sdkError(sdk(server.url, (await createOrg(server.db)).owner.token).spaces.getRevisionOfChangeRequestById(space.id, cr.id))).status).toBe(404);
  });
});
