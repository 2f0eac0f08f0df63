/**
 * One way to place an item among its siblings, whatever the list: spaces and collections in the
 * content tree, a site's sections, section groups and site spaces. A move names a sibling to go
 * before or after (by ID), or nothing: to the end. Each list keeps its own storage behind this
 * input — integers with gaps in the content tree (content-tree/position.ts), fractional keys in
 * sites (publishing/sites/order.ts) — since both must move one row per move and page stably.
 */
import { z } from 'zod';
import { badRequest } from '../../lib/errors.js';
import { lazySchema } from '../../lib/validation.js';

/** Before or after a sibling (by ID); neither: at the end. */
export type Position = { before?: string | null; after?: string | null };

export const positionSchema = lazySchema(() => z.object({ before: z.string().nullish(), after: z.string().nullish() }).strict());

/** A move's input where the position is all there is to say (sections, section groups, site spaces). */
export const moveSchema = lazySchema(() => z.object({ position: positionSchema.optional() }).strict());

/** The sibling a position names and on which side, with the input field that named it; null: at the end. */
export type Anchor = { id: string; side: 'before' | 'after'; field: 'position.before' | 'position.after' };

/** 400 when both sides are given. */
export function anchorOf(position?: Position | null): Anchor | null {
  if (position?.before && position?.after) throw badRequest('Give either "position.before" or "position.after", not both', 'position');
  if (position?.before) return { id: position.before, side: 'before', field: 'position.before' };
  if (position?.after) return { id: position.after, side: 'after', field: 'position.after' };
  return null;
}
