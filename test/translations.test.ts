/** Translation settings (4.15): CRUD, validated languages and title, access and isolation. */
import { describe, expect, it } from 'vitest';
import { http } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

describe('translation settings', () => {
  it('creates, lists, reads, replaces and deletes them', async () => {
    const { org, owner } = await createOrg(server.db);
    const base = `/orgs/${org.id}/translations`;
    const created = await http(server.url, owner.token, 'POST', base, { title: 'European', languages: ['fr', 'de', 'pt-br'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'translation-settings', title: 'European', languages: ['fr', 'de', 'pt-br'], permissions: { edit: true }, urls: { location: expect.stringContaining(`${base}/${created.body.id}`) } });
    expect((await http(server.url, owner.token, 'GET', base)).body).toMatchObject({ count: 1, items: [{ id: created.body.id }] });
    const replaced = await http(server.url, owner.token, 'PUT', `${base}/${created.body.id}`, { title: 'Europe', languages: ['es'] });
    expect(replaced.body).toMatchObject({ title: 'Europe', languages: ['es'] });
    expect((await http(server.url, owner.token, 'PUT', `${base}/${created.body.id}`, { title: 'Europe 2' })).body.languages).toEqual(['es']); // omitted: kept
    expect((await http(server.url, owner.token, 'DELETE', `${base}/${created.body.id}`)).status).toBe(205);
    expect((await http(server.url, owner.token, 'GET', `${base}/${created.body.id}`)).status).toBe(404);
  });

  it('validates title and languages with a 400 naming the field', async () => {
    const { org, owner } = await createOrg(server.db);
    const post = (body: unknown) => http(server.url, owner.token, 'POST', `/orgs/${org.id}/translations`, body);
    for (const [body, field] of [
      [{}, 'title'],
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(101) }, 'title'],
      [{ title: 'ok', languages: ['klingon'] }, 'languages.0'],
      [{ title: 'ok', languages: ['fr', 'fr'] }, 'languages'],
      [{ title: 'ok', languages: 'fr' }, 'languages'],
    ] as [unknown, string][]) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(`"${field}"`);
    }
  });

  it('lets members with a role read and admins write; other organizations get 404', async () => {
    const { org, owner } = await createOrg(server.db);
    const created = (await http(server.url, owner.token, 'POST', `/orgs/${org.id}/translations`, { title: 'All' })).body;
    const reader = await createActor(server.db, { org: org.id, role: 'read' });
    const stranger = await createOrg(server.db);
    expect((await http(server.url, reader.token, 'GET', `/orgs/${org.id}/translations/${created.id}`)).body.permissions).toEqual({ edit: false });
    expect((await http(server.url, reader.token, 'PUT', `/orgs/${org.id}/translations/${created.id}`, { title: 'Mine' })).status).toBe(403);
    for (const [method, path, body] of [
      ['GET', `/orgs/${org.id}/translations`],
      ['GET', `/orgs/${org.id}/translations/${created.id}`],
      ['POST', `/orgs/${org.id}/translations`, { title: 'x' }],
      ['PUT', `/orgs/${org.id}/translations/${created.id}`, { title: 'x' }],
      ['DELETE', `/orgs/${org.id}/translations/${created.id}`],
    ] as [string, string, unknown?][]) {
      expect((await http(server.url, stranger.owner.token, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    // Another organization's settings are not reached through one's own organization either.
    expect((await http(server.url, stranger.owner.token, 'GET', `/orgs/${stranger.org.id}/translations/${created.id}`)).status).toBe(404);
    expect((await http(server.url, owner.token, 'GET', `/orgs/${org.id}/translations/${created.id}`)).body.title).toBe('All');
  });
});
