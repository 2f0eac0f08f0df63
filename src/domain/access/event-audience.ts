/**
 * Who may learn of an organization event (kernel/outbox.ts), decided when it is delivered — by
 * what the subscriber may see at that moment, not when they subscribed. One table, by family of
 * kinds (a kind belongs to the longest family name it starts with): the organization action a
 * subscriber needs (capabilities.ts). Then, whatever the family:
 *   - an event with `spaceId` goes only to those who can view that space (in the trash included);
 *   - an event with `siteId` only to those whose role on that site allows the family's `site`
 *     action (`view` unless named; Access.requireSite);
 *   - a family marked `collection`, about a collection still in the organization, only to those
 *     who can view it (a deleted collection, or one that left, is told to the organization).
 * Events carry IDs, never content: a subscriber reads what changed through the usual checks.
 */
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { OrganizationEventKind } from '../kernel/event-kinds.js';
import { kindOfId } from '../kernel/ids.js';
import type { Access } from './access.js';
import type { OrganizationAction, SiteAction } from './capabilities.js';

/** `site`: what the subscriber must be allowed on the event's site (SITE_RULES), `view` unless named. */
type Audience = { requires: OrganizationAction; site?: SiteAction; collection?: true };

export const EVENT_AUDIENCES = {
  /** The organization's settings: its members. */
  organization: { requires: 'view' },
  /** Spaces, change requests (reviews included): who can view the space (`spaceId`). */
  space: { requires: 'view' },
  changeRequest: { requires: 'view' },
  /** Comments and replies: who can view the space (`spaceId`). */
  comment: { requires: 'view' },
  /** Jobs: who can view their space (`spaceId`); a job of no space (an OpenAPI specification's processing): the members. */
  job: { requires: 'view' },
  /** A space removed for good: no one can view it any more; organization admins are told. */
  spacePurged: { requires: 'update' },
  collection: { requires: 'view', collection: true },
  /** Grants on a space (`spaceId`) or collection: who can view it. */
  permissions: { requires: 'view', collection: true },
  member: { requires: 'readMembers' },
  team: { requires: 'readTeams' },
  /** Invitations, SAML providers: organization admins (who manage them). */
  memberInvite: { requires: 'manageMembers' },
  linkInvite: { requires: 'manageMembers' },
  ssoProvider: { requires: 'manageSso' },
  /** Sites, their parts, grants, share links, redirects and external links: who has a role on the site (`siteId`; guests granted it included). */
  site: { requires: 'view' },
  shareLink: { requires: 'view' },
  /** A site deleted (no `siteId`: it is gone): who knows of the organization's sites (members with a role). */
  siteDeleted: { requires: 'viewSites' },
  /** How visitors authenticate on a site: who administers the site (SITE_RULES `manage`, as its reads). */
  sitePublishingAuth: { requires: 'view', site: 'manage' },
  /** Organization-wide publishing settings: members with a role, as their reads. */
  openApiSpec: { requires: 'viewOpenAPISpecs' },
  translation: { requires: 'viewTranslations' },
  customFont: { requires: 'viewFonts' },
  /** API tokens issued and revoked: organization admins (who manage members). */
  apiToken: { requires: 'manageMembers' },
  /** Webhook endpoints: organization admins (who manage them). */
  webhookEndpoint: { requires: 'update' },
} as const satisfies Record<string, Audience>;

export type EventFamily = keyof typeof EVENT_AUDIENCES;

/** Families, longest first: `memberInvite…` is an invite, not a member event. */
const FAMILIES = (Object.keys(EVENT_AUDIENCES) as EventFamily[]).sort((a, b) => b.length - a.length);

/** The family of a kind (undefined for a kind no family names: then only organization admins learn of it). */
export const familyOf = (kind: OrganizationEventKind): EventFamily | undefined => FAMILIES.find((family) => kind.startsWith(family));

const ADMINS_ONLY: Audience = { requires: 'update' };

export type AudienceEvent = { kind: OrganizationEventKind; organizationId: string; subjectId: string; spaceId?: string | null; siteId?: string | null };

/** Whether the caller of `access` may learn of `event` now. */
export async function mayLearnOf(db: Db, access: Access, event: AudienceEvent): Promise<boolean> {
  const family = familyOf(event.kind);
  const audience: Audience = family ? EVENT_AUDIENCES[family] : ADMINS_ONLY;
  try {
    await access.requireOrganization(event.organizationId, 'view');
    await access.requireOrganization(event.organizationId, audience.requires);
    if (event.spaceId) await access.requireSpace(event.spaceId, 'view', { allowDeleted: true });
    if (event.siteId) await access.requireSite(event.siteId, audience.site ?? 'view');
    if (audience.collection && kindOfId(event.subjectId) === 'Collection') {
      const collection = await db.collection.findUnique({ where: { id: event.subjectId }, select: { organizationId: true } });
      if (collection?.organizationId === event.organizationId) await access.requireCollection(event.subjectId, 'view');
    }
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}
