/**
 * The capability table is the one source of "who may": what the `permissions` objects announce
 * is what the checks allow, for every organization role.
 */
import { describe, expect, it } from 'vitest';
import { collectionPermissions, maySpace, spacePermissions, TEAM_RULES } from '../src/domain/access/capabilities.js';
import { ROLES } from '../src/domain/access/roles.js';
import { http, sdk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

describe('capability table', () => {
  it('orders rules by role, and conditions live editing on the edit mode', () => {
    expect(spacePermissions({ editMode: 'live' }, 'edit')).toEqual({ view: true, access: true, admin: false, viewInviteLinks: false, edit: true, triggerGitSync: true, comment: true, merge: false, review: false, installIntegration: false });
    expect(spacePermissions({ editMode: 'locked' }, 'admin').edit).toBe(false);
    expect(maySpace('rename', 'edit', { editMode: 'locked' })).toBe(true);
    expect(spacePermissions({ editMode: 'live' }, null)).toEqual({ view: false, access: false, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false, comment: false, merge: false, review: false, installIntegration: false });
    expect(collectionPermissions('create')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(TEAM_RULES.view({ orgRole: null, teamRole: 'member' })).toBe(true);
    expect(TEAM_RULES.manage({ orgRole: 'create', teamRole: 'member' })).toBe(false);
    expect(TEAM_RULES.manage({ orgRole: null, teamRole: 'owner' })).toBe(true);
  });

  it('announces in `permissions` exactly what the checks then allow, for every organization role', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const collection = (await api.orgs.createCollection(org.id, { title: 'Shelf' })).data;
    for (const role of ROLES) {
      const actor = await createActor(server.db, { org: org.id, role });
      const space = (await api.orgs.createSpace(org.id, { title: `For ${role}`, parent: collection.id })).data;
      const seen = await http(server.url, actor.token, 'GET', `/spaces/${space.id}`);
      expect(seen.status, role).toBe(200);
      const configure = await http(server.url, actor.token, 'PATCH', `/spaces/${space.id}`, { defaultLevel: 'read' });
      expect(configure.status === 200, `${role}: admin=${seen.body.permissions.admin}, PATCH defaultLevel → ${configure.status}`).toBe(seen.body.permissions.admin);
      const rename = await http(server.url, actor.token, 'PATCH', `/spaces/${space.id}`, { title: `Renamed by ${role}` });
      expect(rename.status === 200, `${role}: edit=${seen.body.permissions.edit}, PATCH title → ${rename.status}`).toBe(seen.body.permissions.edit);

      const shelf = await http(server.url, actor.token, 'GET', `/collections/${collection.id}`);
      const inside = await http(server.url, actor.token, 'POST', `/orgs/${org.id}/spaces`, { title: 'Inside', parent: collection.id });
      expect(inside.status === 201, `${role}: create=${shelf.body.permissions.create}, POST space inside → ${inside.status}`).toBe(shelf.body.permissions.create);
    }
  });
});
