/**
 * GraphQL fragments selected by REST operations, and the functions that turn their results into
 * the documented JSON shapes (`object` discriminators, hyphenated enum values, absent optionals).
 */
type Obj = Record<string, any>;

/** Omits null/undefined optional fields, as the documented shapes do. */
const optional = (fields: Obj) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));

export const wireEnum = (value: string) => value.replaceAll('_', '-');

/**
 * `mergeRules`, which the public document requires on organizations and spaces: this server has
 * no merge rules to configure yet (they arrive with change requests), so change requests merge
 * without review — which the document spells `{type: "none"}`.
 */
const NO_MERGE_RULES = { type: 'none' } as const;

export const USER_FRAGMENT = /* GraphQL */ `
  fragment RestUser on User { id displayName email photoURL urls { location } }
`;

export const presentUser = (u: Obj) => ({
  object: 'user',
  id: u.id,
  displayName: u.displayName,
  email: u.email,
  ...optional({ photoURL: u.photoURL }),
  urls: u.urls,
});

export const ORGANIZATION_FRAGMENT = /* GraphQL */ `
  fragment RestOrganization on Organization {
    id title createdAt emailDomains hostname type useCase communityType defaultRole
    defaultContent { type site } sso ai inviteLinks plan trial { status count }
    urls { location app logo }
    permissions { view access admin ownTeam createContent createOpenAPISpec viewBilling listMembers listTeams listIntegrations listInstallations installIntegration }
  }
`;

export const presentOrganization = (o: Obj) => ({
  object: 'organization',
  id: o.id,
  title: o.title,
  createdAt: o.createdAt,
  emailDomains: o.emailDomains,
  type: o.type,
  defaultRole: o.defaultRole,
  ...optional({ hostname: o.hostname, useCase: o.useCase, communityType: o.communityType, defaultContent: o.defaultContent }),
  sso: o.sso,
  ai: o.ai,
  inviteLinks: o.inviteLinks,
  plan: o.plan,
  trial: o.trial,
  mergeRules: NO_MERGE_RULES,
  urls: optional(o.urls),
  permissions: o.permissions,
});

export const SPACE_FRAGMENT = /* GraphQL */ `
  fragment RestSpace on Space {
    id title emoji visibility editMode defaultLevel createdAt updatedAt deletedAt revisionId
    organizationId parentId comments changeRequestCount changeRequestsOpen changeRequestsDraft
    urls { location app } permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }
  }
`;

export const presentSpace = (s: Obj) => ({
  object: 'space',
  id: s.id,
  title: s.title,
  emoji: s.emoji,
  visibility: wireEnum(s.visibility),
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  ...optional({ deletedAt: s.deletedAt }),
  editMode: s.editMode,
  urls: s.urls,
  organization: s.organizationId,
  ...optional({ parent: s.parentId }),
  revision: s.revisionId,
  defaultLevel: s.defaultLevel,
  comments: s.comments,
  changeRequests: s.changeRequestCount,
  changeRequestsOpen: s.changeRequestsOpen,
  changeRequestsDraft: s.changeRequestsDraft,
  mergeRules: NO_MERGE_RULES,
  permissions: s.permissions,
});
