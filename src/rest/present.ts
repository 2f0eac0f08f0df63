/**
 * GraphQL fragments selected by REST operations, and the functions that turn their results into
 * the documented JSON shapes (`object` discriminators, hyphenated enum values, absent optionals).
 */
type Obj = Record<string, any>;

/** Omits null/undefined optional fields, as the documented shapes do (a loop: it runs for every listed item). */
function optional(fields: Obj): Obj {
  const present: Obj = {};
  for (const key in fields) if (fields[key] != null) present[key] = fields[key];
  return present;
}

export const wireEnum = (value: string) => value.replaceAll('_', '-');

export const USER_FRAGMENT = /* GraphQL */ `
  fragment RestUser on User { id displayName email photoURL urls { location } }
`;

export const presentUser = (u: Obj) => ({
  object: 'user',
  id: u.id,
  displayName: u.displayName,
  ...optional({ email: u.email, photoURL: u.photoURL }),
  urls: u.urls,
});

export const ORGANIZATION_FRAGMENT = /* GraphQL */ `
  fragment RestOrganization on Organization {
    id title createdAt emailDomains hostname type useCase communityType defaultRole
    defaultContent { type site } sso ai inviteLinks plan trial { status count }
    urls { location app logo } mergeRules
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
  // The audit log is served to every organization (its admins read it: GET …/audit-events).
  auditLogs: true,
  plan: o.plan,
  trial: o.trial,
  mergeRules: o.mergeRules,
  urls: optional(o.urls),
  permissions: o.permissions,
});

export const SPACE_FRAGMENT = /* GraphQL */ `
  fragment RestSpace on Space {
    id title emoji visibility editMode defaultLevel createdAt updatedAt deletedAt revisionId
    organizationId parentId comments changeRequestCount changeRequestsOpen changeRequestsDraft
    urls { location app } permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration } mergeRules
  }
`;

/**
 * Absent optionals are undefined here, which JSON leaves out as `optional` does: every space of a
 * list (a hundred a page) is then one object literal of one shape, with no object spread into it.
 */
export const presentSpace = (s: Obj) => ({
  object: 'space',
  id: s.id,
  title: s.title,
  emoji: s.emoji,
  visibility: wireEnum(s.visibility),
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  deletedAt: s.deletedAt ?? undefined,
  editMode: s.editMode,
  urls: s.urls,
  organization: s.organizationId,
  parent: s.parentId ?? undefined,
  revision: s.revisionId,
  defaultLevel: s.defaultLevel,
  comments: s.comments,
  changeRequests: s.changeRequestCount,
  changeRequestsOpen: s.changeRequestsOpen,
  changeRequestsDraft: s.changeRequestsDraft,
  /** As stored: `{type: "inherit"}` (the organization's, the default), `{type: "none"}` or `{type: "rules", rules}`. */
  mergeRules: s.mergeRules,
  permissions: s.permissions,
});
