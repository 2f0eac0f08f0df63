/** Sibling order of sections, section groups and site spaces: fractional keys, so a move rewrites one row (where: kernel/position.ts). */
import { generateKeyBetween } from 'fractional-indexing';
import { badRequest } from '../../../lib/errors.js';
import { anchorOf, type Position } from '../../kernel/position.js';

type Sibling = { id: string; position: string };

export const bySiblingOrder = (a: Sibling, b: Sibling) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The key that puts `self` at `position` among `siblings` (any order; `self` among them or not). */
export function positionAmong(siblings: readonly Sibling[], self: string | null, position?: Position | null): string {
  const others = siblings.filter((s) => s.id !== self).sort(bySiblingOrder);
  const anchor = anchorOf(position);
  let index = others.length;
  if (anchor) {
    const at = others.findIndex((s) => s.id === anchor.id);
    if (at < 0) throw badRequest(`Invalid value for "${anchor.field}": it must name a sibling`, anchor.field);
    index = anchor.side === 'before' ? at : at + 1;
  }
  return generateKeyBetween(others[index - 1]?.position ?? null, others[index]?.position ?? null);
}
