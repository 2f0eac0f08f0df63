/**
 * Malformed input, as an attacker or a buggy client sends it, is a 4xx that names the problem —
 * never a 500: foreign cursors, NUL bytes, broken percent-encoding, unknown methods, a bad Host.
 */
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { gql, http } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();
let org: Awaited<ReturnType<typeof createOrg>>;
let spaceId: string;

beforeAll(async () => {
  org = await createOrg(server.db);
  spaceId = (await http(server.url, org.owner.token, 'POST', `/orgs/${org.org.id}/spaces`, { title: 'Target' })).body.id;
});

/** A raw request: exactly these bytes of method, path and headers. */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(server.url);
    const req = request({ host: '127.0.0.1', port, method, path, headers: { authorization: `Bearer ${org.owner.token}`, ...headers }, setHost: !('host' in headers) }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('connect', (res, socket) => (socket.destroy(), resolve({ status: res.statusCode!, body: '' }))); // CONNECT's answer
    req.on('error', reject);
    req.end();
  });
}

const FOREIGN_CURSORS = ['eDo1', 'YXJyYXljb25uZWN0aW9uOjA=', 'WyJ4Il0', '!!!', '%%', 'null', 'W10', 'WzEsMiwzXQ', 'a'.repeat(5000), '\u0000', 'WyJzcGFjZXM6IiwiMjAyMC0wMS0wMVQwMDowMDowMC4wMDBaIiwieCJd'];

describe('malformed input', () => {
  it('answers 400 naming page for cursors of other formats and lists, in every list', async () => {
    const lists = [`/orgs/${org.org.id}/spaces`, `/orgs/${org.org.id}/members`, `/orgs/${org.org.id}/collections`, `/orgs/${org.org.id}/teams`, `/spaces/${spaceId}/permissions/aggregate`, '/orgs'];
    for (const list of lists) {
      for (const cursor of FOREIGN_CURSORS) {
        const response = await http(server.url, org.owner.token, 'GET', `${list}?page=${encodeURIComponent(cursor)}`);
        expect(response.status, `${list} ${cursor.slice(0, 20)}`).toBe(400);
        expect(response.body.error.message).toContain('"page"');
      }
    }
    const graphql = await gql(server.url, org.owner.token, 'query($id: ID!, $c: String) { organization(id: $id) { spaces(after: $c) { totalCount } } }', { id: org.org.id, c: 'eDo1' });
    expect(graphql.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(graphql.errors?.[0].message).toContain('"after"');
  });

  it('answers 400 for NUL bytes in IDs, query strings and JSON strings', async () => {
    for (const path of [`/spaces/${spaceId}%00x`, `/orgs/${org.org.id}%00/spaces`, `/orgs/${org.org.id}/members?sort=%00`]) {
      const response = await http(server.url, org.owner.token, 'GET', path);
      expect(response.status, path).toBe(400);
    }
    const title = await http(server.url, org.owner.token, 'PATCH', `/spaces/${spaceId}`, { title: 'a\u0000b' });
    expect(title.status).toBe(400);
    expect(title.body.error.message).toContain('title');
    const graphql = await gql(server.url, org.owner.token, 'query($id: ID!) { space(id: $id) { id } }', { id: `${spaceId}\u0000` });
    expect(graphql.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });

  it('answers 400 naming the field for a JSON number where an ID is expected', async () => {
    const parent = await http(server.url, org.owner.token, 'POST', `/orgs/${org.org.id}/spaces`, { title: 'X', parent: 123 });
    expect(parent).toEqual({ status: 400, body: { error: { code: 400, message: 'Invalid value for "parent": must be a string (an ID)' } } });
    const users = await http(server.url, org.owner.token, 'POST', `/spaces/${spaceId}/permissions`, { role: 'read', users: [org.owner.id, 7] });
    expect(users.status).toBe(400);
    expect(users.body.error.message).toContain('"users[1]"');
    const ok = await http(server.url, org.owner.token, 'POST', `/orgs/${org.org.id}/spaces`, { title: 'Y', parent: null });
    expect(ok.status).toBe(201);
  });

  it('answers 400 naming a required field that is missing', async () => {
    const transfer = await http(server.url, org.owner.token, 'POST', `/spaces/${spaceId}/transfer`, {});
    expect(transfer).toEqual({ status: 400, body: { error: { code: 400, message: 'Invalid value for "organization": required' } } });
    const team = await http(server.url, org.owner.token, 'PUT', `/orgs/${org.org.id}/teams`, {});
    expect(team).toEqual({ status: 400, body: { error: { code: 400, message: 'Invalid value for "title": required' } } });
  });

  it('limits member searches to 512 characters, in REST and GraphQL alike', async () => {
    const long = 'x'.repeat(513);
    const rest = await http(server.url, org.owner.token, 'GET', `/orgs/${org.org.id}/members?search=${long}`);
    expect(rest.status).toBe(400);
    const graph = await gql(server.url, org.owner.token, `query($id: ID!, $q: String) { organization(id: $id) { members(search: $q) { totalCount } } }`, { id: org.org.id, q: long });
    expect(graph.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect(graph.errors?.[0].message).toContain('"search"');
    const fine = await gql(server.url, org.owner.token, `query($id: ID!, $q: String) { organization(id: $id) { members(search: $q) { totalCount } } }`, { id: org.org.id, q: 'x'.repeat(512) });
    expect(fine.errors).toBeUndefined();
  });

  it('answers 400 for broken percent-encoding, 405 for unknown methods, 400 for a malformed Host', async () => {
    expect((await raw('GET', '/v1/spaces/%E0%A4%A')).status).toBe(400);
    for (const method of ['TRACE', 'PROPFIND', 'CONNECT']) {
      const response = await raw(method, method === 'CONNECT' ? '127.0.0.1:1' : `/v1/spaces/${spaceId}`);
      expect(response.status, method).toBe(405);
    }
    for (const host of ['exa mple', '[::1', 'a'.repeat(300), 'host:99999']) {
      const response = await raw('GET', `/v1/spaces/${spaceId}`, { host });
      expect(response.status, host).toBe(400);
    }
  });

  it('answers a repeated document as the first time: parse errors, refusals and valid queries alike (remembered per document)', async () => {
    const documents = [
      `{ space(id: "${spaceId}") { title `, // a syntax error
      `{ space(id: "${spaceId}") { nope } }`, // a validation error
      `{ space(id: "${spaceId}\u0000") { title } }`, // NUL in a literal
      `{ space(id: "${spaceId}") { ${Array.from({ length: 120 }, (_, i) => `f${i}: title`).join(' ')} } }`, // too wide a selection
      `{ space(id: "${spaceId}") { title } }`, // valid
    ];
    for (const query of documents) {
      const first = await gql(server.url, org.owner.token, query);
      expect(first.errors?.[0]?.message ?? first.data, query.slice(0, 60)).toBeTruthy();
      for (let i = 0; i < 2; i++) expect(await gql(server.url, org.owner.token, query)).toEqual(first);
    }
    expect((await gql(server.url, org.owner.token, documents[4])).data).toEqual({ space: { title: 'Target' } });
  });
});
