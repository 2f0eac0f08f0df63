/** Paths of sections and site spaces in a published site's URLs: one segment, unique among siblings. */
import { z } from 'zod';
import { slugOf } from '../../../../lib/documents/slug.js';
import { lazySchema } from '../../../../lib/validation.js';

export const sitePathSchema = lazySchema(() => z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N}._~-]*$/u, 'letters, digits, ".", "_", "~" and "-", starting with a letter or digit'));

/** A path from a title, not among `taken` (`docs`, `docs-2`, …). */
export function freePath(title: string, taken: ReadonlySet<string>): string {
  const base = (slugOf(title) || 'docs').slice(0, 90);
  for (let n = 1; ; n++) {
    const path = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(path)) return path;
  }
}
