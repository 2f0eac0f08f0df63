/**
 * The audit log through the public SDK (`listOrganizationAuditEvents`, `getOrganizationAuditEvent`,
 * `listOrganizationAuditEventActions`), answers validated against the public document: each audited
 * family of writes leaves its row with actor, client address and user agent; filters; keyset
 * paging; retention; admins only (403 for other members), another organization 404; and GraphQL.
 */
import { randomUUID } from 'node:crypto';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { recordAuditEvents, deleteExpiredAuditEvents } from '../src/domain/audit/record.js';
import { AUDIT_ACTION_NAMES, AUDITED_KINDS } from '../src/domain/audit/actions.js';
import { ORGANIZATION_EVENT_KINDS } from '../src/domain/kernel/event-kinds.js';
import { gql, gqlOk, http, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { killAll, startQuire } from './helpers/processes.js';
import { useServer } from './helpers/server.js';

const server = useServer();
afterAll(() => killAll());

const UA = 'audit-test/1.0 (+quire)';
const client = (token: string) => new GitBookAPI({ endpoint: server.url, authToken: token, userAgent: UA });

/** A REST call with the test's user agent (for the paths the SDK types awkwardly, and quire's own). */
async function rest(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'user-agent': UA, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

type Listed = Awaited<ReturnType<GitBookAPI['orgs']['listOrganizationAuditEvents']>>['data'];

/** The log as an admin reads it, once the dispatcher has turned the writes' events into rows (it runs after commit). */
async function waitForLog(api: GitBookAPI, orgId: string, until: (items: Listed['items']) => boolean, query: Record<string, unknown> = {}): Promise<Listed> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { data } = await api.orgs.listOrganizationAuditEvents(orgId, { limit: 100, ...query });
    if (until(data.items) || Date.now() > deadline) return data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('audit log', () => {
  it('records each audited family with actor, client address and user agent', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = client(owner.token);
    const member = await createActor(server.db, { org: org.id, role: 'read', name: 'Mia' });
    const leaver = await createActor(server.db, { org: org.id, role: 'read' });

    await api.orgs.updateMemberInOrganizationById(org.id, member.id, { role: 'edit' as never });
    await api.orgs.removeMemberFromOrganizationById(org.id, leaver.id);
    const team = (await api.orgs.createOrganizationTeam(org.id, { title: 'Security' } as never)).data as { id: string };
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
    await api.spaces.inviteToSpace(space.id, { role: 'comment' as never, users: [member.id] });
    await api.orgs.inviteUsersToOrganization(org.id, { emails: [`invitee-${randomUUID().slice(0, 6)}@example.test`], role: 'read' as never } as never);
    const link = await rest(owner.token, 'POST', `/orgs/${org.id}/link-invites`, { role: 'read' });
    expect(link.status).toBe(201);
    const saml = await rest(owner.token, 'POST', `/orgs/${org.id}/saml`, { label: 'Okta', entityID: 'https://idp.example.test/e', ssoURL: 'https://idp.example.test/sso' });
    expect(saml.status).toBe(201);
    const site = (await api.orgs.createSite(org.id, { title: 'Docs' })).data;
    await api.orgs.updateSiteById(org.id, site.id, { visibility: 'unlisted' as never });
    await api.orgs.updateSiteById(org.id, site.id, { title: 'Renamed docs' });
    await api.orgs.inviteToSite(org.id, site.id, { role: 'read', users: [member.id] } as never);
    await api.orgs.regenerateSitePublishingAuthById(org.id, site.id);
    expect((await rest(owner.token, 'POST', `/spaces/${space.id}/git/import`, { url: 'http://127.0.0.1:9/repo.git', ref: 'refs/heads/main' })).status).toBe(204);
    expect((await rest(owner.token, 'POST', `/orgs/${org.id}/webhooks`, { url: 'http://127.0.0.1:9/hook' })).status).toBe(201);
    // API tokens: not REST operations in the public document; GraphQL, with the same user agent.
    const minted = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', 'user-agent': UA },
      body: JSON.stringify({ query: 'mutation { createApiToken(input: { name: "ci" }) { apiToken { id } } }' }),
    });
    const tokenId = ((await minted.json()) as { data: { createApiToken: { apiToken: { id: string } } } }).data.createApiToken.apiToken.id;
    await gqlOk(server.url, owner.token, 'mutation($id: ID!) { revokeApiToken(id: $id) }', { id: tokenId });

    const expected = [
      'member.updated',
      'member.removed',
      'team.created',
      'content.permissions_updated',
      'member_invite.created',
      'invite_link.created',
      'sso_provider.created',
      'site.visibility_updated',
      'site.permissions_updated',
      'site.publishing_auth_updated',
      'git_sync.configured',
      'webhook.created',
      'api_token.created',
      'api_token.revoked',
    ];
    const log = await waitForLog(api, org.id, (items) => expected.every((a) => items.some((i) => i.action === a)));
    expectDocumented('get', '/orgs/{organizationId}/audit-events', '200', log);
    const actions = log.items.map((i) => i.action);
    for (const action of expected) expect(actions, action).toContain(action);
    // A site's rename changes no one's access: not audited.
    expect(actions.filter((a) => a.startsWith('site.')).sort()).toEqual(['site.permissions_updated', 'site.publishing_auth_updated', 'site.visibility_updated']);
    // Newest first.
    const times = log.items.map((i) => Date.parse(i.occurredAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const byAction = (action: string) => log.items.find((i) => i.action === action) as Record<string, any>;
    for (const action of expected.filter((a) => a !== 'api_token.revoked')) {
      const item = byAction(action);
      expect(item.actor, action).toEqual({ type: 'user', id: owner.id, label: 'Owner' });
      expect(item.source, action).toBe('api');
      expect(item.ipAddress, action).toBe('127.0.0.1');
      // The revoke went through gqlOk (Node's own user agent); everything else said who it was.
      expect(item.userAgent, action).toBe(UA);
    }
    expect(byAction('member.updated').target).toEqual({ type: 'user', id: member.id, label: 'Mia' });
    expect(byAction('team.created').target).toEqual({ type: 'team', id: team.id, label: 'Security' });
    expect(byAction('content.permissions_updated').target).toEqual({ type: 'space', id: space.id, label: 'Handbook' });
    expect(byAction('api_token.created').target).toMatchObject({ type: 'api-token', id: tokenId });
    expect(byAction('git_sync.configured').target).toMatchObject({ type: 'space', id: space.id });
    expect(byAction('api_token.revoked').userAgent).not.toBe(UA);

    // The details: the documented shape, with the event's facts.
    const role = byAction('member.updated');
    const { data: details } = await api.orgs.getOrganizationAuditEvent(org.id, role.id);
    expectDocumented('get', '/orgs/{organizationId}/audit-events/{auditEventId}', '200', details);
    expect(details).toMatchObject({ id: role.id, action: 'member.updated', schemaVersion: 1, payload: { kind: 'memberUpdated', role: 'edit', previousRole: 'read' }, ipAddress: '127.0.0.1', userAgent: UA });
    expect(details.urls.location).toBe(`${server.config.publicUrl}/v1/orgs/${org.id}/audit-events/${role.id}`);
    const grant = (await api.orgs.getOrganizationAuditEvent(org.id, byAction('content.permissions_updated').id)).data;
    expect(grant.payload).toMatchObject({ users: [member.id], teams: [], role: 'comment' });
    const sync = (await api.orgs.getOrganizationAuditEvent(org.id, byAction('git_sync.configured').id)).data;
    expect(sync.payload).toMatchObject({ configured: true, url: 'http://127.0.0.1:9/repo.git', ref: 'refs/heads/main', direction: 'import' });

    // The organization says its audit log can be read.
    expect((await api.orgs.getOrganizationById(org.id)).data).toMatchObject({ auditLogs: true });
  });

  it('keeps the writes of the CLI and of the server as `script` and `system`, without a client', async () => {
    const { org, owner } = await createOrg(server.db);
    // What the factories write runs in this process, outside a request: like a job, `workflow`.
    await createActor(server.db, { org: org.id, role: 'read' });
    const log = await waitForLog(client(owner.token), org.id, (items) => items.some((i) => i.action === 'member.updated'));
    const joined = log.items.find((i) => i.action === 'member.updated') as Record<string, any>;
    expect(joined.actor).toEqual({ type: 'system', id: 'system' });
    expect(joined.source).toBe('workflow');
    expect(joined.ipAddress).toBeNull();
    expect(joined.userAgent).toBeNull();
  });

  it('records a mutation over graphql-ws with the upgrade request\'s client, and the CLI\'s writes as `script`', async () => {
    const { org, owner } = await createOrg(server.db);
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: { 'user-agent': 'ws-audit/1' } });
    const messages: Record<string, any>[] = [];
    const next = () =>
      new Promise<Record<string, any>>((resolve) => {
        const take = () => (messages.length ? resolve(messages.shift()!) : setTimeout(take, 20));
        take();
      });
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${owner.token}` } }));
    expect((await next()).type).toBe('connection_ack');
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'mutation { createApiToken(input: { name: "over ws" }) { apiToken { id } } }' } }));
    const answer = await next();
    socket.close();
    const tokenId = answer.payload.data.createApiToken.apiToken.id;
    const api = client(owner.token);
    const overWs = (await waitForLog(api, org.id, (items) => items.some((i) => i.target.id === tokenId))).items.find((i) => i.target.id === tokenId) as Record<string, any>;
    expect(overWs).toMatchObject({ action: 'api_token.created', source: 'api', ipAddress: '127.0.0.1', userAgent: 'ws-audit/1', actor: { type: 'user', id: owner.id } });

    // The CLI's `admin create-token`: by no user, from no client; dispatched by the server's poll.
    const cli = startQuire(['admin', 'create-token', '--email', owner.email, '--name', 'from the CLI'], { DATABASE_URL: server.databaseUrl }, /"apiToken":\{"id":"([^"]+)"/);
    const [, cliTokenId] = await cli.matched;
    await cli.exited;
    const byCli = (await waitForLog(api, org.id, (items) => items.some((i) => i.target.id === cliTokenId))).items.find((i) => i.target.id === cliTokenId) as Record<string, any>;
    expect(byCli).toMatchObject({ action: 'api_token.created', source: 'script', ipAddress: null, userAgent: null, actor: { type: 'system', id: 'system' } });
  }, 60_000);

  it('filters by action, actor, target and time; pages by keyset with stable cursors', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = client(owner.token);
    const other = await createActor(server.db, { org: org.id, role: 'admin' });
    const members = await Promise.all([0, 1, 2, 3, 4].map(() => createActor(server.db, { org: org.id, role: 'read' })));
    for (const m of members) await api.orgs.updateMemberInOrganizationById(org.id, m.id, { role: 'comment' as never });
    await client(other.token).orgs.createOrganizationTeam(org.id, { title: 'By the other admin' } as never);
    const all = await waitForLog(api, org.id, (items) => items.filter((i) => i.actor.id === owner.id).length >= 5 && items.some((i) => i.action === 'team.created'));

    const byOwner = (await api.orgs.listOrganizationAuditEvents(org.id, { actor: owner.id })).data.items;
    expect(byOwner.map((i) => i.action)).toEqual(Array(5).fill('member.updated'));
    expect((await api.orgs.listOrganizationAuditEvents(org.id, { action: 'team.created' })).data.items.map((i) => i.actor.id)).toEqual([other.id]);
    const one = (await api.orgs.listOrganizationAuditEvents(org.id, { target: members[2].id, actor: owner.id })).data.items;
    expect(one.map((i) => i.target.id)).toEqual([members[2].id]);
    // Time bounds are inclusive; the future holds nothing.
    const oldest = all.items[all.items.length - 1];
    expect((await api.orgs.listOrganizationAuditEvents(org.id, { to: oldest.occurredAt, limit: 100 })).data.items.map((i) => i.id)).toContain(oldest.id);
    expect((await api.orgs.listOrganizationAuditEvents(org.id, { from: new Date(Date.now() + 60_000).toISOString() })).data.items).toEqual([]);
    expect((await api.orgs.listOrganizationAuditEvents(org.id, { from: all.items[0].occurredAt })).data.items.map((i) => i.id)).toContain(all.items[0].id);

    // Pages of 2: every event once, in order; the last page has no `next`.
    const seen: string[] = [];
    let page: string | undefined;
    for (let i = 0; i < 20; i++) {
      const { data } = await api.orgs.listOrganizationAuditEvents(org.id, { limit: 2, ...(page ? { page } : {}) });
      expectDocumented('get', '/orgs/{organizationId}/audit-events', '200', data);
      expect(data.items.length).toBeLessThanOrEqual(2);
      seen.push(...data.items.map((e) => e.id));
      page = data.next?.page;
      if (!page) break;
    }
    expect(seen).toEqual(all.items.map((i) => i.id));
    // The documented default (20) and bounds (1–100) of `limit`; a cursor belongs to its filters.
    const first = (await api.orgs.listOrganizationAuditEvents(org.id, { limit: 1 })).data;
    for (const limit of ['0', '101', 'x']) {
      const answer = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/audit-events?limit=${limit}`);
      expect(answer.status, limit).toBe(400);
      expect(answer.body.error.message).toContain('"limit"');
    }
    const refiltered = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/audit-events?action=member.updated&page=${first.next!.page}`);
    expect(refiltered.status).toBe(400);
    expect(refiltered.body.error.message).toContain('"page"');
    for (const [name, value] of [['from', 'yesterday'], ['to', '2026-13-01T00:00:00Z'], ['action', 'no.such_action']]) {
      const answer = await http(server.url, owner.token, 'GET', `/orgs/${org.id}/audit-events?${name}=${value}`);
      expect(answer.status, name).toBe(400);
      expect(answer.body).toEqual({ error: { code: 400, message: expect.stringContaining(`"${name}"`) } });
    }
  });

  it('lists its actions; admins only (403), another organization 404, unknown events 404', async () => {
    const { org, owner } = await createOrg(server.db);
    const stranger = await createOrg(server.db);
    const editor = await createActor(server.db, { org: org.id, role: 'create' });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const api = client(owner.token);
    const { data: actions } = await api.orgs.listOrganizationAuditEventActions(org.id);
    expectDocumented('get', '/orgs/{organizationId}/audit-event-actions', '200', actions);
    expect(actions.items.map((a) => a.id)).toEqual(AUDIT_ACTION_NAMES);
    expect(actions.items[0]).toEqual({ object: 'audit-event-action', id: 'organization.updated', label: expect.any(String) });

    await api.orgs.updateMemberInOrganizationById(org.id, editor.id, { role: 'review' as never });
    const [event] = (await waitForLog(api, org.id, (items) => items.length > 0)).items;
    for (const who of [editor, guest]) {
      const as = client(who.token);
      expect((await sdkError(as.orgs.listOrganizationAuditEvents(org.id))).status).toBe(403);
      expect((await sdkError(as.orgs.getOrganizationAuditEvent(org.id, event.id))).status).toBe(403);
      expect((await sdkError(as.orgs.listOrganizationAuditEventActions(org.id))).status).toBe(403);
    }
    const outsider = client(stranger.owner.token);
    for (const path of ['audit-events', `audit-events/${event.id}`, 'audit-event-actions']) {
      expect(await rest(stranger.owner.token, 'GET', `/orgs/${org.id}/${path}`), path).toEqual({ status: 404, body: { error: { code: 404, message: expect.any(String) } } });
    }
    // Another organization's event through one's own organization, an unknown UUID, not a UUID: 404.
    expect((await sdkError(outsider.orgs.getOrganizationAuditEvent(stranger.org.id, event.id))).status).toBe(404);
    expect((await sdkError(api.orgs.getOrganizationAuditEvent(org.id, randomUUID()))).status).toBe(404);
    expect((await sdkError(api.orgs.getOrganizationAuditEvent(org.id, 'not-a-uuid'))).status).toBe(404);
  });

  it('answers in GraphQL with the same filters', async () => {
    const { org, owner } = await createOrg(server.db);
    const member = await createActor(server.db, { org: org.id, role: 'read' });
    await client(owner.token).orgs.updateMemberInOrganizationById(org.id, member.id, { role: 'edit' as never });
    await waitForLog(client(owner.token), org.id, (items) => items.some((i) => i.actor.id === owner.id));
    const data = await gqlOk(
      server.url,
      owner.token,
      `query($org: ID!, $actor: String) { organization(id: $org) {
        auditEvents(first: 10, actor: $actor, action: "member.updated") { totalCount edges { node { id action actor { type id label } target { type id } source clientAddress userAgent payload } } }
        auditEventActions { id label }
      } }`,
      { org: org.id, actor: owner.id },
    );
    const { auditEvents } = data.organization;
    expect(auditEvents.totalCount).toBe(1);
    const [{ node }] = auditEvents.edges;
    expect(node).toMatchObject({ action: 'member.updated', actor: { type: 'user', id: owner.id }, target: { type: 'user', id: member.id }, source: 'api', clientAddress: '127.0.0.1', userAgent: UA });
    const one = await gqlOk(server.url, owner.token, 'query($org: ID!, $id: ID!) { organization(id: $org) { auditEvent(id: $id) { id eventId location } } }', { org: org.id, id: node.id });
    expect(one.organization.auditEvent.id).toBe(node.id);
    expect(data.organization.auditEventActions.length).toBe(AUDIT_ACTION_NAMES.length);
    const denied = await gql(server.url, member.token, 'query($org: ID!) { organization(id: $org) { auditEvents { totalCount } } }', { org: org.id });
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('records an event once however often it is dispatched, and prunes rows past the retention period', async () => {
    const { org } = await createOrg(server.db);
    const event = { id: `evt_${randomUUID()}`, kind: 'teamCreated', organizationId: org.id, subjectId: 'team_nothing', actorId: null, data: {}, createdAt: new Date(Date.now() - 400 * 24 * 3600 * 1000) };
    const ignored = { ...event, id: `evt_${randomUUID()}`, kind: 'spaceUpdated' };
    expect(await server.db.$transaction((tx) => recordAuditEvents(tx, [event, ignored]))).toBe(1);
    expect(await server.db.$transaction((tx) => recordAuditEvents(tx, [event]))).toBe(0);
    const fresh = { ...event, id: `evt_${randomUUID()}`, createdAt: new Date() };
    await server.db.$transaction((tx) => recordAuditEvents(tx, [fresh]));
    const mine = { eventId: { in: [event.id, ignored.id, fresh.id] } };
    expect(await server.db.auditEvent.count({ where: mine })).toBe(2);
    // Kept 365 days by default: the 400-day-old row goes, the fresh one stays.
    expect(server.config.auditRetentionMs).toBe(365 * 24 * 3600 * 1000);
    expect(await deleteExpiredAuditEvents(server.db, server.config.auditRetentionMs)).toBeGreaterThanOrEqual(1);
    expect((await server.db.auditEvent.findMany({ where: mine })).map((r) => r.eventId)).toEqual([fresh.id]);
  });

  it('reads a page of a log of 100,000 rows in the statements, and index order, of a log of ten', async () => {
    const big = await createOrg(server.db);
    const small = await createOrg(server.db);
    const fill = (orgId: string, rows: number) => server.db.$executeRaw`
      INSERT INTO "AuditEvent" ("id", "organizationId", "eventId", "occurredAt", "action", "actorType", "actorId", "targetType", "targetId", "source", "payload")
      SELECT gen_random_uuid()::text, ${orgId}, 'evt_scale_' || gen_random_uuid()::text, now() - make_interval(secs => i), (ARRAY['member.updated', 'team.created', 'webhook.created'])[1 + i % 3],
        'user', 'usr_scale_' || (i % 50), 'user', 'usr_target_' || (i % 1000), 'api', '{}'::jsonb
      FROM generate_series(1, ${rows}) AS i`;
    await fill(big.org.id, 100_000);
    await fill(small.org.id, 10);
    await server.db.$executeRaw`ANALYZE "AuditEvent"`;
    const statements = async (orgId: string, token: string, query: string) => {
      const before = server.queries.length;
      const answer = await http(server.url, token, 'GET', `/orgs/${orgId}/audit-events?limit=5${query}`);
      expect(answer.status).toBe(200);
      return { items: answer.body.items.length, sql: server.queries.slice(before) };
    };
    // Each token known, each caller's organization read once (caches and hints warm, as in steady use).
    for (const { org, owner } of [big, small]) for (let i = 0; i < 2; i++) await http(server.url, owner.token, 'GET', `/orgs/${org.id}/audit-events?limit=1`);
    for (const query of ['', '&action=team.created', '&actor=usr_scale_7', '&target=usr_target_7', `&from=2020-01-01T00:00:00Z&to=${new Date().toISOString()}`]) {
      const a = await statements(big.org.id, big.owner.token, query);
      const b = await statements(small.org.id, small.owner.token, query);
      expect(a.sql.length, `${query}\n${a.sql.join('\n')}\n--\n${b.sql.join('\n')}`).toBe(b.sql.length);
      expect(a.items, query).toBe(5);
    }
    // The page's statement reads its index in order: no sort of the organization's rows.
    const [page] = (await statements(big.org.id, big.owner.token, '&action=team.created')).sql.filter((q) => q.includes('FROM "AuditEvent"'));
    expect(page).toBeDefined();
    const plan = await server.db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
      `EXPLAIN SELECT a.* FROM "AuditEvent" a WHERE a."organizationId" = '${big.org.id}' AND a."action" = 'team.created' ORDER BY a."occurredAt" DESC, a."id" DESC LIMIT 6`,
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('Index Scan Backward');
    expect(text).not.toMatch(/Sort|Seq Scan/);
    await server.db.auditEvent.deleteMany({ where: { organizationId: { in: [big.org.id, small.org.id] } } });
  });

  it('has an action for every audited kind, and only kinds that exist', () => {
    for (const kind of Object.keys(AUDITED_KINDS)) expect(ORGANIZATION_EVENT_KINDS, kind).toContain(kind);
  });
});
