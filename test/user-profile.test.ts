/**
 * A user's own profile (`PATCH /users/{userId}`, GraphQL `updateUser`): the user themself only,
 * validated fields, and never through a token one organization issued for a shared account.
 */
import { describe, expect, it } from 'vitest';
import { issueToken } from '../src/domain/people/identity/tokens.js';
import { gql, http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

describe('PATCH /users/{userId}', () => {
  it('changes the caller\'s display name and photo, as documented', async () => {
    const { owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const user = (await api.users.updateUserById(owner.id, { displayName: 'Ada Lovelace', photoURL: 'https://img.example.com/ada.png' })).data;
    expectDocumented('PATCH', '/users/{userId}', '200', user);
    expect(user).toMatchObject({ id: owner.id, displayName: 'Ada Lovelace', photoURL: 'https://img.example.com/ada.png' });
    expect((await api.user.getAuthenticatedUser()).data.displayName).toBe('Ada Lovelace');
    // Only what is given changes.
    expect((await api.users.updateUserById(owner.id, { displayName: 'Ada' })).data).toMatchObject({ displayName: 'Ada', photoURL: 'https://img.example.com/ada.png' });
    const viaGraphql = await gql(server.url, owner.token, `mutation { updateUser(userId: "${owner.id}", input: { photoURL: null }) { displayName photoURL } }`);
    expect(viaGraphql.data).toEqual({ updateUser: { displayName: 'Ada', photoURL: null } });
  });

  it('refuses invalid values naming the field, and an empty change', async () => {
    const { owner } = await createOrg(server.db);
    const patch = (body: unknown) => http(server.url, owner.token, 'PATCH', `/users/${owner.id}`, body);
    const cases: Array<[unknown, string | undefined]> = [
      [{ displayName: '' }, 'displayName'],
      [{ displayName: 'x'.repeat(65) }, 'displayName'],
      [{ photoURL: 'javascript:alert(1)' }, 'photoURL'],
      [{ photoURL: 'not a url' }, 'photoURL'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    expect((await patch({})).status).toBe(400);
    expect((await server.db.user.findUniqueOrThrow({ where: { id: owner.id } })).displayName).toBe('Owner');
  });

  it('refuses another user: 403 for a teammate, 404 for a stranger', async () => {
    const { org, owner } = await createOrg(server.db);
    const teammate = await createActor(server.db, { org: org.id, role: 'edit' });
    const stranger = await createActor(server.db);
    const api = sdk(server.url, owner.token);
    expect((await sdkError(api.users.updateUserById(teammate.id, { displayName: 'Renamed' }))).status).toBe(403);
    expect((await sdkError(api.users.updateUserById(stranger.id, { displayName: 'Renamed' }))).status).toBe(404);
    expect((await server.db.user.findUniqueOrThrow({ where: { id: teammate.id } })).displayName).not.toBe('Renamed');
    expect((await sdkError(sdk(server.url, undefined).users.updateUserById(owner.id, { displayName: 'x' }))).status).toBe(401);
  });

  it('refuses a token confined to one organization for an account others know, not for an account of that organization alone', async () => {
    const { org, owner } = await createOrg(server.db);
    // The owner's account was claimed (an operator-made token): a confined token of it may not rename it everywhere.
    const confined = await issueToken(server.db, owner.id, { confinedTo: org.id });
    expect((await sdkError(sdk(server.url, confined).users.updateUserById(owner.id, { displayName: 'Hijacked' }))).status).toBe(403);
    // An account that exists for this organization only (as after its SAML sign-in): its own.
    const fresh = await server.db.user.create({ data: { id: `usr_fresh${Date.now()}`, email: `fresh${Date.now()}@example.com`, displayName: 'Fresh' } });
    const own = await issueToken(server.db, fresh.id, { confinedTo: org.id });
    expect((await sdk(server.url, own).users.updateUserById(fresh.id, { displayName: 'Fresh Person' })).data.displayName).toBe('Fresh Person');
  });
});
