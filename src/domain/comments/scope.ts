/**
 * The place of a comment operation, access checked: the space (and the change request, by ID or
 * number, when given) the caller may `action` on (capabilities.ts: reading needs `view`, writing
 * `comment`). An unreadable space or change request is 404; a readable one the caller may not
 * write is 403. `revisionId`: the place's current content (the space's, or the request's).
 */
import type { Access } from '../access/access.js';
import type { SpaceAction } from '../access/capabilities.js';
import type { SpaceRow } from '../content/spaces/rows.js';
import type { ChangeRequestRow } from '../versions/change-requests/rows.js';
import type { CommentPlace } from './rows.js';

export type CommentScope = { space: SpaceRow; changeRequest: ChangeRequestRow | null; place: CommentPlace; revisionId: string };

export async function requireCommentScope(access: Access, spaceId: string, changeRequestId: string | null | undefined, action: SpaceAction): Promise<CommentScope> {
  if (changeRequestId == null) {
    const { space } = await access.requireSpace(spaceId, action);
    return { space, changeRequest: null, place: { spaceId: space.id, changeRequestId: null }, revisionId: space.revisionId };
  }
  const { space, changeRequest } = await access.requireChangeRequest(spaceId, changeRequestId, action);
  return { space, changeRequest, place: { spaceId: space.id, changeRequestId: changeRequest.id }, revisionId: changeRequest.revisionId };
}
