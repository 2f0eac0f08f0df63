/**
 * Who may do what, in one table: every operation on a space, a collection, an organization or a
 * team names the least role it needs, and any condition on the row. The checks (access.ts, read by
 * every domain command) and the `permissions` objects of the GraphQL types both read this table,
 * so what the API says a caller may do is exactly what it lets them do.
 *
 * Roles on spaces and collections are effective roles (role-sql.ts); on an organization, the
 * member's organization role (`member`: any active member, guests included; `nonGuest`: a role).
 */
import type { Space } from '../../generated/prisma/client.js';
import { atLeast, type Role } from './roles.js';

type Rule<Row> = { role: Role; when?: (row: Row) => boolean };

type SpaceState = Pick<Space, 'editMode'>;

export const SPACE_RULES = {
  /** Read the space, its content and links; a copy also needs `create` where it goes. */
  view: { role: 'read' },
  /**
   * Post comments and replies, resolve and reopen comments, react to them; edit and delete one's
   * own posts. A `locked` space still takes comments: they change no content.
   */
  comment: { role: 'comment' },
  /** Delete anyone's comments and replies (a thread's moderation). */
  moderateComments: { role: 'admin' },
  /**
   * Write content: open change requests, edit their content, update them from the space. A
   * `locked` space refuses every content write (and merge) until it is unlocked.
   */
  edit: { role: 'edit', when: (space) => space.editMode === 'live' },
  /** Title and emoji. */
  rename: { role: 'edit' },
  review: { role: 'review' },
  /** Merge a change request into the space (its merge rules apply as well). */
  merge: { role: 'review', when: (space) => space.editMode === 'live' },
  /**
   * Import from or export to the space's git repository (a locked space refuses it: an import
   * writes content). Pointing the space at another repository, branch or directory is `configure`.
   */
  gitSync: { role: 'edit', when: (space) => space.editMode === 'live' },
  /** Edit mode, default level, and the git repository the space syncs with. */
  configure: { role: 'admin' },
  /** Grant and revoke access, and list who has it. */
  share: { role: 'admin' },
  /** Delete to the trash and restore. */
  trash: { role: 'admin' },
  /** Move within the organization, transfer to another. */
  relocate: { role: 'admin' },
} as const satisfies Record<string, Rule<SpaceState>>;

export const COLLECTION_RULES = {
  view: { role: 'read' },
  /** Create spaces and collections inside it (and move them there). */
  createInside: { role: 'create' },
  update: { role: 'admin' },
  delete: { role: 'admin' },
  relocate: { role: 'admin' },
  share: { role: 'admin' },
  viewInviteLinks: { role: 'admin' },
} as const satisfies Record<string, Rule<unknown>>;

/** `member`: any active member, guests included; `nonGuest`: members with an organization role. */
export type OrgRequirement = 'member' | 'nonGuest' | Role;

export const ORGANIZATION_RULES = {
  view: 'member',
  ping: 'member',
  /** Members, their teams and who has access to content (guests read only themselves). */
  readMembers: 'nonGuest',
  readTeams: 'nonGuest',
  /** Another member's spaces and effective roles on them. */
  readMemberSpaces: 'admin',
  manageMembers: 'admin',
  manageTeams: 'admin',
  update: 'admin',
  /** Create spaces and collections at the root (and move or transfer content there). */
  createContent: 'create',
  /** See and cancel every job of the organization (also those of no space, or of a purged one). */
  manageJobs: 'admin',
  /**
   * Know of every site of the organization (its site count, the deletion of a site). Reading a
   * site itself, and listing sites, go by the caller's role on each site (SITE_RULES).
   */
  viewSites: 'nonGuest',
  /** Create sites (a site's own reads and writes go by the caller's role on it: SITE_RULES). */
  manageSites: 'admin',
  /** See the organization's OpenAPI specifications and their versions. */
  viewOpenAPISpecs: 'nonGuest',
  /** Create, replace the source of and delete OpenAPI specifications. */
  manageOpenAPISpecs: 'create',
  /** See the translation settings; create, rename and delete them (admins). */
  viewTranslations: 'nonGuest',
  manageTranslations: 'admin',
  /** See the custom fonts (members with a role); upload, change and delete them (admins, like site customization). */
  viewFonts: 'nonGuest',
  manageFonts: 'admin',
  /** SAML providers: see and change them (admins; members see only how to sign in, `GET /sso`). */
  manageSso: 'admin',
  /** Webhook endpoints: register, change, rotate their secrets, read and re-send their deliveries. */
  manageWebhooks: 'admin',
  /** The audit log: its events and the list of its actions. */
  readAuditLog: 'admin',
} as const satisfies Record<string, OrgRequirement>;

/**
 * Jobs work on a space: who may view the space sees its jobs (imports, copies), who may edit it
 * cancels them. Organization admins see and cancel every job (`manageJobs`); who started a job
 * sees and cancels it while a member (an OpenAPI specification's processing has no space).
 */
export const JOB_RULES = { view: 'view', cancel: 'edit' } as const satisfies Record<string, keyof typeof SPACE_RULES>;

/**
 * Sites, by the caller's effective role on the site (role-sql.ts siteRoleSql): organization
 * admins administer every site; other members have their organization role (unless the site's
 * `defaultLevel` is null), at least the `defaultLevel` when it is a role, and what the site's
 * grants give them or their teams; guests have only the grants. No role: the site is not found.
 * Every operation on a site, through the API or the published server's preview links, is checked
 * against this block (`Access.requireSite(id, action)`); a new operation takes the row that says
 * what it does, or a row of its own when it needs a role no row gives.
 */
export const SITE_RULES = {
  /**
   * See the site and read it through the management API: settings, structure (external links
   * included), customization, share links, redirects, its custom hostname claim; resolve its
   * published URLs; search its content (`POST …/search`, what its published search finds).
   */
  view: { role: 'read' },
  /** Edit content and create draft content in the site (the public `permissions.edit`; quire has no site-level drafts yet). */
  edit: { role: 'edit' },
  /**
   * Change its content structure: add, change, move and remove site spaces, sections, section
   * groups and external links; sort the structure; duplicate a site space (which also needs the
   * right to copy its space).
   */
  structure: { role: 'create' },
  /**
   * Its settings (title, visibility, hostname, default level, defaults), customization, publishing,
   * share links, redirects, its custom hostname (check, remove), how visitors authenticate (the
   * publishing auth: its key, fallback and sign-out URLs, key rotation); delete it.
   */
  manage: { role: 'admin' },
  /**
   * Make a preview link (`GET …/publishing/preview`) and be honoured by the published server when
   * it is opened, on every request. Admin, not read: a preview opens the site unpublished and
   * whatever its visibility, to whoever holds the link for its hour — it hands the site out, as a
   * share link does.
   */
  preview: { role: 'admin' },
  /** Grant and revoke roles on the site; list who has access (also members with an organization role, as for spaces). */
  share: { role: 'admin' },
} as const satisfies Record<string, Rule<unknown>>;

/** A caller's standing towards a team: their organization role (null: guest) and team role. */
export type TeamStanding = { orgRole: Role | null; teamRole: 'owner' | 'member' | null };

export const TEAM_RULES = {
  /** See the team (its title, its member count): members with an organization role, and the team's own members. */
  view: (s: TeamStanding) => s.orgRole !== null || s.teamRole !== null,
  /**
   * List its members (their memberships of the organization: role, activity): whoever reads the
   * organization's members, and the team's owners. A guest who is a plain member of the team sees
   * the team, and their teammates as users, but no one's membership but their own.
   */
  listMembers: (s: TeamStanding) => s.orgRole !== null || s.teamRole === 'owner',
  /** Rename it and change its members: organization admins and the team's owners. */
  manage: (s: TeamStanding) => atLeast(s.orgRole, 'admin') || s.teamRole === 'owner',
} as const;

export type SpaceAction = keyof typeof SPACE_RULES;
export type CollectionAction = keyof typeof COLLECTION_RULES;
export type OrganizationAction = keyof typeof ORGANIZATION_RULES;
export type SiteAction = keyof typeof SITE_RULES;
export type TeamAction = keyof typeof TEAM_RULES;
export type JobAction = keyof typeof JOB_RULES;

function allows<Row>(rule: Rule<Row>, role: Role | null, row: Row): boolean {
  return atLeast(role, rule.role) && (rule.when?.(row) ?? true);
}

export const maySpace = (action: SpaceAction, role: Role | null, space: SpaceState): boolean =>
  allows(SPACE_RULES[action] as Rule<SpaceState>, role, space);

export const mayCollection = (action: CollectionAction, role: Role | null): boolean => allows(COLLECTION_RULES[action], role, null);

export const maySite = (action: SiteAction, role: Role | null): boolean => allows(SITE_RULES[action], role, null);

/** Whether an organization membership meets `need` (a rule of the table, or a requirement). */
export function meets(membership: { member: boolean; role: Role | null }, need: OrgRequirement): boolean {
  if (!membership.member) return false;
  if (need === 'member') return true;
  return need === 'nonGuest' ? membership.role !== null : atLeast(membership.role, need);
}

export const mayOrganization = (action: OrganizationAction, membership: { member: boolean; role: Role | null }): boolean =>
  meets(membership, ORGANIZATION_RULES[action]);

// The `permissions` objects of the API, from the same rules.

/**
 * Features the public API describes that this server does not have yet (integrations,
 * OpenAPI specifications, billing): nobody may use what does not exist, and `permissions` says so.
 */
const NOT_SERVED = false;

export const spacePermissions = (space: SpaceState, role: Role | null) => ({
  view: maySpace('view', role, space),
  access: maySpace('view', role, space),
  admin: maySpace('share', role, space),
  viewInviteLinks: maySpace('share', role, space),
  edit: maySpace('edit', role, space),
  triggerGitSync: maySpace('gitSync', role, space),
  comment: maySpace('comment', role, space),
  merge: maySpace('merge', role, space),
  review: maySpace('review', role, space),
  installIntegration: NOT_SERVED,
});

export const collectionPermissions = (role: Role | null) => ({
  view: mayCollection('view', role),
  admin: mayCollection('update', role),
  viewInviteLinks: mayCollection('viewInviteLinks', role),
  create: mayCollection('createInside', role),
});

/** A site's `permissions` (the public document's Site.permissions). */
export const sitePermissions = (role: Role | null) => ({
  view: maySite('view', role),
  access: maySite('view', role),
  edit: maySite('edit', role),
  create: maySite('structure', role),
  admin: maySite('manage', role),
  installIntegration: NOT_SERVED,
  viewAdaptiveSchema: maySite('view', role),
  editAdaptiveSchema: maySite('manage', role),
});

export const organizationPermissions = (membership: { member: boolean; role: Role | null; ownsTeam: boolean }) => ({
  view: mayOrganization('view', membership),
  access: mayOrganization('view', membership),
  admin: mayOrganization('update', membership),
  /** A fact rather than a permission: the caller owns at least one team of the organization. */
  ownTeam: membership.member && membership.ownsTeam,
  createContent: mayOrganization('createContent', membership),
  createOpenAPISpec: mayOrganization('manageOpenAPISpecs', membership),
  viewBilling: NOT_SERVED,
  listMembers: mayOrganization('readMembers', membership),
  listTeams: mayOrganization('readTeams', membership),
  listIntegrations: NOT_SERVED,
  listInstallations: NOT_SERVED,
  installIntegration: NOT_SERVED,
});

export const teamPermissionsOf = (standing: TeamStanding) => ({ admin: TEAM_RULES.manage(standing), view: TEAM_RULES.view(standing), listMembers: TEAM_RULES.listMembers(standing) });
