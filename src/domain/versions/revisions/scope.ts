/**
 * Where a revision sits: its line and place in it, and for a change request's revision the seq of
 * the space revision it is laid over (see the Revision model). Every content read starts here.
 */
import type { Revision } from '../../../generated/prisma/client.js';

export type RevisionScope = Pick<Revision, 'id' | 'spaceId' | 'lineId' | 'seq' | 'baseSeq'>;

/** The columns a scope needs, for `select`. */
export const SCOPE_SELECT = { id: true, spaceId: true, lineId: true, seq: true, baseSeq: true } as const;

/** Whether the revision belongs to a change request (its content is an overlay on a space revision). */
export const isOverlay = (scope: RevisionScope) => scope.lineId !== scope.spaceId;
