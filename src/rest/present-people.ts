/**
 * GraphQL fragments and presenters for organization members and teams (sections 2.6 and 2.7; the
 * shapes the description leaves out follow the OpenAPI document). `sites` of OrganizationMember,
 * which the document requires, counts the sites the member can see (GraphQL `Member.sites`).
 */
import { presentUser, USER_FRAGMENT } from './present.js';

type Obj = Record<string, any>;

export const MEMBER_FRAGMENT = /* GraphQL */ `
  fragment RestMember on Member { id role disabled joinedAt lastSeenAt sso spaces teams sites user { ...RestUser } }
  ${USER_FRAGMENT}
`;

export const presentMember = (m: Obj) => ({
  object: 'member',
  id: m.id,
  role: m.role,
  user: presentUser(m.user),
  disabled: m.disabled,
  joinedAt: m.joinedAt,
  ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
  sso: m.sso,
  spaces: m.spaces,
  teams: m.teams,
  sites: m.sites,
});

export const TEAM_FRAGMENT = /* GraphQL */ `
  fragment RestTeam on Team { id title createdAt spaces memberCount permissions { admin view } }
`;

export const presentTeam = (t: Obj) => ({
  object: 'team',
  id: t.id,
  title: t.title,
  members: t.memberCount,
  spaces: t.spaces,
  createdAt: t.createdAt,
  permissions: t.permissions,
});

/** An item of a team's member list: the organization member, their team role, the caller's rights. */
export const presentTeamMember = (edge: Obj) => ({
  organization: presentMember(edge.node),
  team: { role: edge.role },
  permissions: edge.permissions,
});
