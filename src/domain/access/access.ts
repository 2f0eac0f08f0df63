/**
 * Authorization checks. Every check answers "not found" when the caller has no access at all
 * (so another organization's resources are never revealed) and "forbidden" when the caller can
 * see the resource but may not do the operation (capabilities.ts says who may). Roles come with
 * the rows (computed in SQL, see role-sql.ts); the caller's membership with the organization row.
 */
import type { Collection, Site, Space } from '../../generated/prisma/client.js';
import type { SiteRow } from '../publishing/sites/rows.js';
import type { CollectionRow } from '../content/collections/rows.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { Loaders } from '../loaders/index.js';
import { changeRequestKey } from '../loaders/keys.js';
import type { ChangeRequestRow } from '../versions/change-requests/rows.js';
import type { OrganizationRow } from '../people/organizations/rows.js';
import { isLive } from '../content/spaces/lifecycle.js';
import type { Reader, SpaceRow } from '../content/spaces/rows.js';
import type { JobRow } from '../work/jobs/rows.js';
import { JOB_RULES, mayCollection, mayOrganization, maySite, maySpace, type CollectionAction, type JobAction, type OrganizationAction, type SiteAction, type SpaceAction } from './capabilities.js';
import type { Role } from './roles.js';
import { reaches, type Reach } from './reach.js';
import type { RequestOrigin } from '../kernel/request-origin.js';

/**
 * How the caller's token was obtained (identity/tokens.ts TokenHolder). `confinedTo`: the one
 * organization the token reaches (reach.ts); everywhere else the caller is a stranger. An
 * organization that enforces SSO (`sso: true`) is reached by its SSO members — admins excepted,
 * so that a broken identity provider cannot lock the organization out — only with a token its own
 * SAML sign-in issued: any other token of theirs gets 403 there (and keeps working elsewhere).
 */
export type TokenOrigin = Reach & { ssoOrganizationId?: string | null; ssoBound?: boolean };

export const SSO_REQUIRED = 'This organization requires single sign-on: sign in through its SAML provider (GET /v1/orgs/{organizationId}/sso lists them) and use the token it gives';

export class Access {
  constructor(
    readonly loaders: Loaders,
    readonly userId: string,
    readonly origin: TokenOrigin = {},
    /** Where the caller's request comes from, recorded with what it writes (kernel/request-origin.ts); null outside a request. */
    readonly from: RequestOrigin | null = null,
  ) {}

  /**
   * The one gate every check below passes, for the organization of what is reached: 404 (naming
   * `what`) when the caller's credential does not reach that organization (reach.ts); 403 when the
   * organization requires this caller to come through its SSO sign-in (TokenOrigin). Costs nothing
   * for callers bound to no SSO (most); otherwise the organization row, once per request.
   */
  async requireReach(organizationId: string, what = 'Organization'): Promise<void> {
    if (!reaches(this.origin, organizationId)) throw notFound(what);
    if (!this.origin.ssoBound || this.origin.ssoOrganizationId === organizationId) return;
    const org = await this.loaders.organization.load(organizationId);
    if (org?.viewerIsMember && org.sso && org.viewerSso && org.viewerRole !== 'admin') throw forbidden(SSO_REQUIRED);
  }

  async orgRole(organizationId: string): Promise<{ member: boolean; role: Role | null }> {
    await this.requireReach(organizationId);
    const org = await this.loaders.organization.load(organizationId);
    return { member: !!org?.viewerIsMember, role: org?.viewerIsMember ? org.viewerRole : null };
  }

  /** How the caller reads the organization's lists: as a guest, only what their grants reach. */
  async reader(organizationId: string): Promise<Reader> {
    const { role } = await this.orgRole(organizationId);
    return { userId: this.userId, guest: role === null };
  }

  /** `beforeSignIn`: also for a member who must sign in through SSO first (to find out how). */
  async requireOrganization(organizationId: string, action: OrganizationAction = 'view', { beforeSignIn = false } = {}): Promise<OrganizationRow> {
    const org = await this.loaders.organization.load(organizationId);
    if (!org?.viewerIsMember || !reaches(this.origin, organizationId)) throw notFound('Organization');
    if (!beforeSignIn) await this.requireReach(organizationId);
    if (!mayOrganization(action, { member: true, role: org.viewerRole })) throw forbidden();
    return org;
  }

  /**
   * `spaceRole` without waiting, when nothing is left to read: the row carries the role and the
   * gate (requireReach) passes without the organization row. Otherwise undefined: ask spaceRole.
   * A list's fields ask it for every row (a hundred a page): no promise made for each.
   */
  spaceRoleNow(space: Space | SpaceRow): Role | null | undefined {
    const { origin } = this;
    if (!('viewerRole' in space) || !reaches(origin, space.organizationId) || (origin.ssoBound && origin.ssoOrganizationId !== space.organizationId)) return undefined;
    return space.viewerRole;
  }

  /** The caller's role on a space (the row's own when it was read with one). */
  async spaceRole(space: Space | SpaceRow): Promise<Role | null> {
    await this.requireReach(space.organizationId, 'Space');
    if ('viewerRole' in space) return space.viewerRole;
    return (await this.loaders.space.load(space.id))?.viewerRole ?? null;
  }

  async collectionRole(collection: Collection | CollectionRow): Promise<Role | null> {
    await this.requireReach(collection.organizationId, 'Collection');
    if ('viewerRole' in collection) return collection.viewerRole;
    return (await this.loaders.collection.load(collection.id))?.viewerRole ?? null;
  }

  /** A space the caller can see and may `action`; deleted spaces only when asked for. */
  async requireSpace(id: string, action: SpaceAction = 'view', opts: { allowDeleted?: boolean } = {}): Promise<{ space: SpaceRow; role: Role }> {
    const space = await this.loaders.space.load(id);
    const role = space && (opts.allowDeleted || isLive(space)) ? space.viewerRole : null;
    if (!space || !role) throw notFound('Space');
    await this.requireReach(space.organizationId, 'Space');
    if (!maySpace(action, role, space)) throw forbidden();
    return { space, role };
  }

  /** A change request (by ID or number) of a space the caller may `action`. */
  async requireChangeRequest(spaceId: string, idOrNumber: string, action: SpaceAction = 'view'): Promise<{ space: SpaceRow; changeRequest: ChangeRequestRow }> {
    const { space } = await this.requireSpace(spaceId, action);
    const changeRequest = await this.loaders.changeRequestInSpace.load(changeRequestKey(spaceId, idOrNumber));
    if (!changeRequest) throw notFound('Change request');
    return { space, changeRequest };
  }

  async requireCollection(id: string, action: CollectionAction = 'view'): Promise<{ collection: CollectionRow; role: Role }> {
    const collection = await this.loaders.collection.load(id);
    const role = collection?.viewerRole;
    if (!collection || !role) throw notFound('Collection');
    await this.requireReach(collection.organizationId, 'Collection');
    if (!mayCollection(action, role)) throw forbidden();
    return { collection, role };
  }

  /** A job (read by the caller) they may `action` (capabilities.ts, JOB_RULES); not found when they may not see it. */
  async requireJob(job: JobRow | null, action: JobAction = 'view'): Promise<JobRow> {
    const org = job && (await this.loaders.organization.load(job.organizationId));
    if (!job || !org?.viewerIsMember) throw notFound('Job');
    await this.requireReach(job.organizationId, 'Job');
    if (mayOrganization('manageJobs', { member: true, role: org.viewerRole })) return job;
    // Who started a job follows it (and may cancel it) while they are a member.
    if (job.createdById === this.userId) return job;
    const space = job.spaceId ? await this.loaders.space.load(job.spaceId) : null;
    const role = space && isLive(space) ? space.viewerRole : null;
    if (!space || !role || !maySpace('view', role, space)) throw notFound('Job');
    if (!maySpace(JOB_RULES[action], role, space)) throw forbidden();
    return job;
  }

  /** The caller's role on a site (the row's own when it was read with one). */
  async siteRole(site: Site | SiteRow): Promise<Role | null> {
    await this.requireReach(site.organizationId, 'Site');
    if ('viewerRole' in site) return site.viewerRole;
    return (await this.loaders.site.load(site.id))?.viewerRole ?? null;
  }

  /** A site the caller has a role on (not found otherwise) and may `action` (capabilities.ts SITE_RULES; forbidden otherwise). */
  async requireSite(id: string, action: SiteAction = 'view'): Promise<SiteRow> {
    const site = await this.loaders.site.load(id);
    if (!site?.viewerRole) throw notFound('Site');
    await this.requireReach(site.organizationId, 'Site');
    if (!maySite(action, site.viewerRole)) throw forbidden();
    return site;
  }
}
