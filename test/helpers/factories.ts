/** Test data, created through the same domain functions as the admin CLI. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/client.js';
import { createOrganizationWithOwner, createUser } from '../../src/domain/people/identity/bootstrap.js';
import { http, sdk } from './clients.js';

export type Actor = { id: string; email: string; token: string };

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.test`;

/** A fresh organization with an admin owner. */
export async function createOrg(db: Db, title = 'Test org') {
  const r = await createOrganizationWithOwner(db, { title, ownerEmail: uniqueEmail('owner'), ownerName: 'Owner' });
  return { org: r.organization, owner: { id: r.user.id, email: r.user.email, token: r.token } as Actor };
}

/** A user, optionally a member of `org` with `role` ('guest' for a guest). */
export async function createActor(db: Db, opts: { org?: string; role?: string; name?: string; email?: string } = {}): Promise<Actor> {
  const r = await createUser(db, { email: opts.email ?? uniqueEmail('user'), name: opts.name, org: opts.org, role: opts.role });
  return { id: r.user.id, email: r.user.email, token: r.token };
}

/** A space of `orgId` whose current revision holds `pages` (markdown), written in a change request and merged (so the search index has them). */
export async function spaceWithPages(baseUrl: string, token: string, orgId: string, title: string, pages: { title: string; markdown: string }[]) {
  const api = sdk(baseUrl, token);
  const space = (await api.orgs.createSpace(orgId, { title })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
  for (const page of pages) {
    await http(baseUrl, token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: 'insert_page', title: page.title, document: { markdown: page.markdown } }] });
  }
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  return space;
}
