/** Fragments and presenters for collections (2.3), content permissions (4.12) and content links (2.9). */
import { presentTeam, TEAM_FRAGMENT } from './present-people.js';
import { presentUser, USER_FRAGMENT, wireEnum } from './present.js';

type Obj = Record<string, any>;

export const COLLECTION_FRAGMENT = /* GraphQL */ `
  fragment RestCollection on Collection {
    id title description organizationId parentId defaultLevel
    urls { location app } permissions { view admin viewInviteLinks create }
  }
`;

export const presentCollection = (c: Obj) => ({
  object: 'collection',
  id: c.id,
  title: c.title,
  ...(c.description ? { description: c.description } : {}),
  organization: c.organizationId,
  ...(c.parentId ? { parent: c.parentId } : {}),
  defaultLevel: c.defaultLevel,
  urls: c.urls,
  permissions: c.permissions,
});

export const USER_PERMISSION_FRAGMENT = /* GraphQL */ `
  fragment RestUserPermission on UserContentPermission { permission user { ...RestUser } }
  ${USER_FRAGMENT}
`;

export const presentUserPermission = (p: Obj) => ({ permission: p.permission, user: presentUser(p.user) });

export const TEAM_PERMISSION_FRAGMENT = /* GraphQL */ `
  fragment RestTeamPermission on TeamContentPermission { permission team { ...RestTeam } }
  ${TEAM_FRAGMENT}
`;

export const presentTeamPermission = (p: Obj) => ({ permission: p.permission, team: presentTeam(p.team) });

export const CONTENT_LINK_FRAGMENT = /* GraphQL */ `
  fragment RestContentLink on ContentLink { status target location { page path } }
`;

/** `target` is the ContentRef as stored in the page; GraphQL's `in_app` is `in-app` on the wire. */
export const presentContentLink = (l: Obj) => ({
  object: 'content-link',
  status: wireEnum(l.status),
  target: l.target,
  location: { page: l.location.page, path: l.location.path },
});
