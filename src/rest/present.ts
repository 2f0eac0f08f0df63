/**
 * GraphQL fragments selected by REST operations, and the functions that turn their results into
 * the documented JSON shapes (`object` discriminators, hyphenated enum values, absent optionals).
 */
type Obj = Record<string, any>;

/** Omits null/undefined optional fields, as the documented shapes do. */
const optional = (fields: Obj) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));

export const wireEnum = (value: string) => value.replaceAll('_', '-');

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
    urls { location app logo } permissions { admin createContent }
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
  urls: optional(o.urls),
  permissions: o.permissions,
});

export const SPACE_FRAGMENT = /* GraphQL */ `
  fragment RestSpace on Space {
    id title emoji visibility editMode defaultLevel createdAt updatedAt deletedAt revision
    organizationId parentId comments changeRequests changeRequestsOpen changeRequestsDraft
    urls { location app } permissions { access admin edit comment merge review }
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
  revision: s.revision,
  defaultLevel: s.defaultLevel,
  comments: s.comments,
  changeRequests: s.changeRequests,
  changeRequestsOpen: s.changeRequestsOpen,
  changeRequestsDraft: s.changeRequestsDraft,
  permissions: s.permissions,
});
