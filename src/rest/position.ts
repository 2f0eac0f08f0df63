/**
 * A move's `position` in a REST body, for every ordered list (spaces and collections, site
 * sections, section groups, site spaces): the public document's pointers
 * (`{before: {type: "space", space: "…"}}`, `{after: {type: "site-space", siteSpace: "…"}}`) or
 * plain IDs, as GraphQL's `PositionInput` (`{before, after}` IDs; domain/kernel/position.ts).
 */
import { badRequest } from '../lib/errors.js';

/** `pointers`: the keys a pointer of this list carries its ID in. Absent or null: at the end (null). */
export function restPosition(position: unknown, pointers: readonly string[]): { before: string | null; after: string | null } | null {
  if (position === undefined || position === null) return null;
  if (typeof position !== 'object' || Array.isArray(position)) throw badRequest('Invalid value for "position": an object with "before" or "after"', 'position');
  const id = (value: unknown, side: string) => {
    if (value === undefined || value === null) return null;
    if (typeof value === 'string') return value;
    const named = value && typeof value === 'object' && !Array.isArray(value) ? pointers.map((key) => (value as Record<string, unknown>)[key]).find((v) => v != null) : undefined;
    if (typeof named !== 'string') throw badRequest(`Invalid value for "position.${side}": a ${pointers.join(' or ')} pointer`, `position.${side}`);
    return named;
  };
  const { before, after, ...rest } = position as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra) throw badRequest(`Invalid value for "position.${extra}": unknown field`, `position.${extra}`);
  return { before: id(before, 'before'), after: id(after, 'after') };
}
