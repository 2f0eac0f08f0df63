/** Sibling order of sections and site spaces: fractional keys, so a move rewrites one row. */
import { generateKeyBetween } from 'fractional-indexing';
import { badRequest } from '../../../lib/errors.js';

/** Before or after a sibling (by ID); omitted: at the end. */
export type SitePosition = { before?: string | null; after?: string | null };

type Sibling = { id: string; position: string };

export const bySiblingOrder = (a: Sibling, b: Sibling) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The key that puts `self` at `position` among `siblings` (any order; `self` among them or not). */
export function positionAmong(siblings: readonly Sibling[], self: string | null, position?: SitePosition | null): string {
  const others = siblings.filter((s) => s.id !== self).sort(bySiblingOrder);
  if (position?.before && position?.after) throw badRequest('Give either "position.before" or "position.after", not both', 'position');
  let index = others.length;
  const anchor = position?.before ?? position?.after;
  if (anchor) {
    const field = position?.before ? 'position.before' : 'position.after';
    const at = others.findIndex((s) => s.id === anchor);
    if (at < 0) throw badRequest(`Invalid value for "${field}": it must name a sibling`, field);
    index = position?.before ? at : at + 1;
  }
  return generateKeyBetween(others[index - 1]?.position ?? null, others[index]?.position ?? null);
}
