/**
 * Whether a comment is outdated: its page is gone from its place's current content (the space's
 * revision, or its change request's), or its block's key is no longer in the page's current
 * document. Read through the request's loaders, so a page of comments costs a few statements
 * whatever its size: the place's row, the distinct pages of the page (one statement), and their
 * documents (one statement).
 */
import type { Loaders } from '../loaders/index.js';
import { revisionEntityKey } from '../loaders/nodes.js';
import { documentKeys } from './anchor.js';
import type { CommentRow } from './rows.js';

/** The current revision of a comment's place (null: the place is gone). */
async function currentRevision(loaders: Loaders, comment: Pick<CommentRow, 'spaceId' | 'changeRequestId'>): Promise<string | null> {
  if (comment.changeRequestId) return (await loaders.changeRequest.load(comment.changeRequestId))?.revisionId ?? null;
  return (await loaders.space.load(comment.spaceId))?.revisionId ?? null;
}

export async function commentOutdated(loaders: Loaders, comment: Pick<CommentRow, 'spaceId' | 'changeRequestId' | 'pageId' | 'nodeKey'>): Promise<boolean> {
  if (!comment.pageId) return false;
  const revisionId = await currentRevision(loaders, comment);
  if (!revisionId) return false;
  const page = await loaders.revisionEntity.load(revisionEntityKey(revisionId, 'page', comment.pageId));
  if (!page) return true;
  if (!comment.nodeKey) return false;
  const document = page.documentId ? await loaders.document.load(page.documentId) : null;
  return !document || !documentKeys(document).has(comment.nodeKey);
}
