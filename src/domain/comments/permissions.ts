/**
 * What the caller may do with a comment or a reply (its `permissions`), from the capability table:
 * view it (`view`), reply and react (`comment`), edit it (its author, still with `comment`),
 * delete it (its author with `comment`, or `moderateComments`). The writes check the same rules.
 */
import { maySpace } from '../access/capabilities.js';
import type { Role } from '../access/roles.js';
import type { Space } from '../../generated/prisma/client.js';

export type PostPermissions = { view: boolean; edit: boolean; reply: boolean; delete: boolean };

type SpaceState = Pick<Space, 'editMode'>;

export const mayDeletePost = (space: SpaceState, role: Role | null, isAuthor: boolean) =>
  maySpace('moderateComments', role, space) || (isAuthor && maySpace('comment', role, space));

export const mayEditPost = (space: SpaceState, role: Role | null, isAuthor: boolean) => isAuthor && maySpace('comment', role, space);

export function postPermissions(space: SpaceState, role: Role | null, isAuthor: boolean): PostPermissions {
  return {
    view: maySpace('view', role, space),
    edit: mayEditPost(space, role, isAuthor),
    reply: maySpace('comment', role, space),
    delete: mayDeletePost(space, role, isAuthor),
  };
}
