/**
 * Custom fonts through the API (4.17): the storage upload flow (signed URL, bytes checked as a real
 * font on arrival), creating a font from uploaded faces (weight 400 required), reading, changing
 * (a null storageKey removes a weight), serving the faces at their URLs, and access.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { http } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();
const inter = (file: string) => readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/inter/package.json')), 'files', file));
const REGULAR = inter('inter-latin-400-normal.woff2');
const BOLD = inter('inter-latin-700-normal.woff2');

/** The public URL names port 0: the same path on the test server. */
const local = (url: string) => `${server.url}${new URL(url).pathname}`;

async function upload(token: string, orgId: string, bytes: Buffer, name = 'font.woff2') {
  const started = await http(server.url, token, 'POST', `/orgs/${orgId}/storage/upload`, { file: { name, type: 'font/woff2', size: bytes.length }, kind: 'customization_font' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  expect(started.body).toMatchObject({ object: 'storage-signed-url', key: expect.stringMatching(/^upload_/) });
  const put = await fetch(local(started.body.url), { method: 'PUT', body: new Uint8Array(bytes) });
  return { key: started.body.key as string, url: started.body.url as string, status: put.status, body: await put.text() };
}

describe('custom fonts', () => {
  it('uploads faces, creates the font, serves its faces, removes a weight, deletes it', async () => {
    const { org, owner } = await createOrg(server.db);
    const regular = await upload(owner.token, org.id, REGULAR);
    const bold = await upload(owner.token, org.id, BOLD);
    expect([regular.status, bold.status]).toEqual([200, 200]);
    const created = await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/fonts`, { fontFamily: 'Inter', fontFaces: [{ weight: 400, storageKey: regular.key }, { weight: 700, storageKey: bold.key }] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^font_/), custom: true, fontFamily: 'Inter', permissions: { edit: true } });
    expectDocumented('put', '/orgs/{organizationId}/fonts', '201', created.body);
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const read = await http(server.url, reader.token, 'GET', `/orgs/${org.id}/fonts/${created.body.id}`);
    expectDocumented('get', '/orgs/{organizationId}/fonts/{fontId}', '200', read.body);
    expect(read.body.permissions).toEqual({ edit: false });
    expectDocumented('get', '/orgs/{organizationId}/fonts', '200', (await http(server.url, owner.token, 'GET', `/orgs/${org.id}/fonts`)).body);
    expect(created.body.fontFaces.map((f: { weight: number; sources: { format: string }[] }) => [f.weight, f.sources[0].format])).toEqual([
      [400, 'woff2'],
      [700, 'woff2'],
    ]);
    const served = await fetch(local(created.body.fontFaces[1].sources[0].url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('font/woff2');
    expect(served.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.from(await served.arrayBuffer()).equals(BOLD)).toBe(true);

    // Used by a published site: its pages load the faces with @font-face.
    const space = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/spaces`, { title: 'Docs' })).body;
    const site = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites`, { title: 'Docs', spaces: [space.id] })).body;
    const customization = (await http(server.url, owner.token, 'GET', `/orgs/${org.id}/sites/${site.id}/customization`)).body;
    const font = { id: created.body.id, custom: true, fontFamily: 'Inter', fontFaces: created.body.fontFaces };
    const put = await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/sites/${site.id}/customization`, { ...customization, styling: { ...customization.styling, font } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await http(server.url, owner.token, 'POST', `/orgs/${org.id}/sites/${site.id}/publish`, {});
    const cr = (await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'x' })).body;
    await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: 'Home', document: { markdown: 'Hello' } }] });
    await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, {});
    const page = await (await fetch(`${server.url}/sites/${site.id}/`)).text();
    expect(page).toContain(`@font-face{font-family:"Inter";src:url("${created.body.fontFaces[1].sources[0].url}") format("woff2");font-weight:700`);
    expect(page).toContain('body{font-family:"Inter"');

    const updated = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/fonts/${created.body.id}`, { fontFamily: 'Inter Display', fontFaces: [{ weight: 700, storageKey: null }] });
    expect(updated.body).toMatchObject({ fontFamily: 'Inter Display', fontFaces: [{ weight: 400 }] });
    // As the public document says: 201, the font with its permissions.
    expect(updated.status).toBe(201);
    expectDocumented('post', '/orgs/{organizationId}/fonts/{fontId}', '201', updated.body);
    expect(updated.body.permissions).toEqual({ edit: true });
    const removeRegular = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/fonts/${created.body.id}`, { fontFaces: [{ weight: 400, storageKey: null }] });
    expect(removeRegular.status).toBe(400);
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/fonts`)).body).toMatchObject({ count: 1 });
    expect((await http(server.url, owner.token, 'DELETE', `/orgs/${org.id}/fonts/${created.body.id}`)).status).toBe(205);
    expect((await fetch(local(created.body.fontFaces[0].sources[0].url))).status).toBe(404);
  });

  it('refuses what is not a real font, a wrong size, a reused link, a missing weight 400 and faces not uploaded', async () => {
    const { org, owner } = await createOrg(server.db);
    const html = Buffer.from('<!doctype html><html><body>not a font</body></html>');
    const fake = await upload(owner.token, org.id, html, 'fake.woff2');
    expect(fake.status).toBe(400);
    expect(fake.body).toContain('file');
    const started = await http(server.url, owner.token, 'POST', `/orgs/${org.id}/storage/upload`, { file: { name: 'a.woff2', type: 'font/woff2', size: REGULAR.length + 1 }, kind: 'customization_font' });
    expect((await fetch(local(started.body.url), { method: 'PUT', body: new Uint8Array(REGULAR) })).status).toBe(400);
    const ok = await upload(owner.token, org.id, REGULAR);
    expect((await fetch(local(ok.url), { method: 'PUT', body: new Uint8Array(REGULAR) })).status).toBe(403); // used already
    expect((await fetch(`${server.url}/uploads/forged-token`, { method: 'PUT', body: new Uint8Array(REGULAR) })).status).toBe(403);
    expect((await http(server.url, owner.token, 'POST', `/orgs/${org.id}/storage/upload`, { file: { name: 'a.zip', type: 'application/zip', size: 10 }, kind: 'import_file' })).body.error.message).toContain('"kind"');
    const noRegular = await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/fonts`, { fontFamily: 'Inter', fontFaces: [{ weight: 700, storageKey: ok.key }] });
    expect(noRegular.status).toBe(400);
    const notUploaded = await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/fonts`, { fontFamily: 'Inter', fontFaces: [{ weight: 400, storageKey: fake.key }] });
    expect(notUploaded.body.error.message).toContain('fontFaces.0.storageKey');
  });

  it('lets admins manage fonts and members with a role read them; another organization can neither see nor use an upload', async () => {
    const { org, owner } = await createOrg(server.db);
    const regular = await upload(owner.token, org.id, REGULAR);
    const font = (await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/fonts`, { fontFamily: 'Inter', fontFaces: [{ weight: 400, storageKey: regular.key }] })).body;
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    expect((await http(server.url, reader.token, 'GET', `/orgs/${org.id}/fonts/${font.id}`)).body.fontFamily).toBe('Inter');
    expect((await http(server.url, reader.token, 'POST', `/orgs/${org.id}/storage/upload`, { file: { name: 'a.woff2', type: 'font/woff2', size: 10 }, kind: 'customization_font' })).status).toBe(403);
    const stranger = await createOrg(server.db);
    for (const [method, p, body] of [
      ['GET', `/orgs/${org.id}/fonts`],
      ['GET', `/orgs/${org.id}/fonts/${font.id}`],
      ['POST', `/orgs/${org.id}/fonts/${font.id}`, { fontFamily: 'Mine' }],
      ['DELETE', `/orgs/${org.id}/fonts/${font.id}`],
      ['PUT', `/orgs/${org.id}/fonts`, { fontFamily: 'x', fontFaces: [{ weight: 400, storageKey: regular.key }] }],
    ] as [string, string, unknown?][]) {
      expect((await http(server.url, stranger.owner.token, method, p, body)).status, `${method} ${p}`).toBe(404);
    }
    // Another organization's upload cannot be used as a face.
    const theirs = await http(server.url, stranger.owner.token, 'PUT', `/orgs/${stranger.org.id}/fonts`, { fontFamily: 'Stolen', fontFaces: [{ weight: 400, storageKey: regular.key }] });
    expect(theirs.status).toBe(400);
  });
});
