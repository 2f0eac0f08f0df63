import { describe, expect, it } from 'vitest';
import { http, sdk, sdkError } from './helpers/clients.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

describe('organizations over REST (SDK)', () => {
  it('lists the caller’s organizations and reads one', async () => {
    const { org, owner } = await createOrg(server.db, 'Mine');
    const other = await createOrg(server.db, 'Theirs');
    const api = sdk(server.url, owner.token);
    const { data: list } = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(list.items.map((o) => o.id)).toEqual([org.id]);
    expect(list.count).toBe(1);
    const { data } = await api.orgs.getOrganizationById(org.id);
    expect(data).toMatchObject({
      object: 'organization',
      id: org.id,
      title: 'Mine',
      type: 'business',
      emailDomains: [],
      inviteLinks: true,
      plan: 'free',
      trial: { status: 'notapplicable', count: 0 },
      permissions: { admin: true, createContent: true },
    });
    expect(data.urls.location).toMatch(new RegExp(`/v1/orgs/${org.id}$`));
    expect((await sdkError(api.orgs.getOrganizationById(other.org.id))).status).toBe(404);
    expect((await sdkError(api.orgs.getOrganizationById('org_unknown'))).status).toBe(404);
  });

  it('computes permissions for the caller', async () => {
    const { org, owner } = await createOrg(server.db);
    const editor = await createActor(server.db, { org: org.id, role: 'edit' });
    const creator = await createActor(server.db, { org: org.id, role: 'create' });
    expect((await sdk(server.url, editor.token).orgs.getOrganizationById(org.id)).data.permissions).toEqual({ view: true, access: true, admin: false, ownTeam: false, createContent: false, createOpenAPISpec: false, viewBilling: false, listMembers: true, listTeams: true, listIntegrations: false, listInstallations: false, installIntegration: false });
    expect((await sdk(server.url, creator.token).orgs.getOrganizationById(org.id)).data.permissions).toEqual({ view: true, access: true, admin: false, ownTeam: false, createContent: true, createOpenAPISpec: true, viewBilling: false, listMembers: true, listTeams: true, listIntegrations: false, listInstallations: false, installIntegration: false });
    // Owning a team is stated as `ownTeam`; a guest lists neither members nor teams.
    const team = (await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/teams`, { title: 'Writers' })).body;
    expect((await http(server.url, owner.token, 'PUT', `/orgs/${org.id}/teams/${team.id}/members/${editor.id}`, { role: 'owner' })).status).toBeLessThan(300);
    expect((await sdk(server.url, editor.token).orgs.getOrganizationById(org.id)).data.permissions).toMatchObject({ ownTeam: true, admin: false });
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    expect((await sdk(server.url, guest.token).orgs.getOrganizationById(org.id)).data.permissions).toMatchObject({ view: true, ownTeam: false, listMembers: false, listTeams: false });
  });

  it('updates settings as an admin, with validation and conflicts', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const hostname = `h${Date.now().toString(36)}`;
    const { data } = await api.orgs.updateOrganizationById(org.id, {
      title: 'Renamed',
      emailDomains: ['example.test'],
      hostname,
      defaultRole: 'edit' as never,
      defaultContent: { type: 'site', site: 'site_1' } as never,
      logo: 'https://example.test/logo.png',
      sso: true,
      ai: false,
      inviteLinks: false,
    });
    expect(data).toMatchObject({
      title: 'Renamed',
      emailDomains: ['example.test'],
      hostname,
      defaultRole: 'edit',
      defaultContent: { type: 'site', site: 'site_1' },
      sso: true,
      ai: false,
      inviteLinks: false,
    });
    expect(data.urls.logo).toBe('https://example.test/logo.png');
    const guestDefault = await api.orgs.updateOrganizationById(org.id, { defaultRole: null as never });
    expect(guestDefault.data.defaultRole).toBeNull();

    for (const [body, field] of [
      [{ title: 'x' }, 'title'],
      [{ title: 'x'.repeat(256) }, 'title'],
      [{ hostname: 'ab' }, 'hostname'],
      [{ defaultRole: 'boss' }, 'defaultRole'],
      [{ emailDomains: 'example.test' }, 'emailDomains'],
      [{ sso: 'yes' }, 'sso'],
      [{ logo: 'javascript:alert(1)' }, 'logo'],
      [{ logo: 'data:image/png;base64,AAAA' }, 'logo'],
      [{ logo: 'ftp://example.test/logo.png' }, 'logo'],
    ] as const) {
      const response = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message, JSON.stringify(body)).toContain(field);
    }
    const second = await createOrg(server.db);
    const taken = await http(server.url, second.owner.token, 'PATCH', `/orgs/${second.org.id}`, { hostname });
    expect(taken.status).toBe(409);
    expect((await sdk(server.url, owner.token).orgs.getOrganizationById(org.id)).data.title).toBe('Renamed');
  });

  it('forbids non-admins and hides the organization from others', async () => {
    const { org } = await createOrg(server.db);
    const member = await createActor(server.db, { org: org.id, role: 'create' });
    const outsider = (await createOrg(server.db)).owner;
    expect((await sdkError(sdk(server.url, member.token).orgs.updateOrganizationById(org.id, { title: 'Mine now' }))).status).toBe(403);
    expect((await sdkError(sdk(server.url, outsider.token).orgs.updateOrganizationById(org.id, { title: 'Mine now' }))).status).toBe(404);
  });

  it('finds organizations by the caller’s own email domain only, and only those whose claim is proven', async () => {
    const domain = `d${Date.now().toString(36)}.test`;
    // Proven: its admin has an address at the domain.
    const { organization: org, token } = await createOrganizationWithOwner(server.db, { title: 'Domain owner', ownerEmail: `admin@${domain}` });
    await sdk(server.url, token).orgs.updateOrganizationById(org.id, { emailDomains: [domain] });
    // Claimed by anyone: an organization whose admins are elsewhere lists the domain too.
    const squatter = await createOrg(server.db);
    await sdk(server.url, squatter.owner.token).orgs.updateOrganizationById(squatter.org.id, { emailDomains: [domain] });
    const colleague = await createActor(server.db, { email: `someone@${domain}` });
    const stranger = await createActor(server.db);
    const found = await http(server.url, colleague.token, 'GET', `/email-domains/${domain}/orgs`);
    expect(found.status).toBe(200);
    expect(found.body.organizations.map((o: { id: string }) => o.id)).toEqual([org.id]);
    const probing = await http(server.url, stranger.token, 'GET', `/email-domains/${domain}/orgs`);
    expect(probing.body).toEqual({ organizations: [] });
  });
});
