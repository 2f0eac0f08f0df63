/** The slug of an OpenAPI specification (section 2.15): 1-100 lower-case letters and digits in dash-separated words. */
import { z } from 'zod';
import { badRequest } from '../errors.js';
import { lazySchema } from '../validation.js';

export const SPEC_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SPEC_SLUG_MAX = 100;

export const slugSchema = lazySchema(() => z
  .string()
  .min(1, 'must not be empty')
  .max(SPEC_SLUG_MAX, `must be at most ${SPEC_SLUG_MAX} characters`)
  .regex(SPEC_SLUG_PATTERN, 'must be lower-case letters and digits in words separated by single dashes (e.g. "petstore-v2")'));

/** The slug, or a 400 naming `field`. */
export function validateSlug(value: unknown, field = 'slug'): string {
  const result = slugSchema.safeParse(value);
  if (result.success) return result.data;
  const message = typeof value === 'string' ? result.error.issues[0].message : 'must be a string';
  throw badRequest(`Invalid value for "${field}": ${message}`, field);
}
