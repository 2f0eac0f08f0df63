/**
 * Content references (OpenAPI `ContentRef`): where a link points, e.g. `{kind: 'page', page, space?}`
 * or `{kind: 'url', url}`. They are kept exactly as stored; only `kind` and the fields it names
 * are read.
 */
export type ContentRef = { kind?: unknown; [field: string]: unknown };

export const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** A stored reference, or null when the value is not a JSON object at all (nothing to report). */
export const asContentRef = (value: unknown): ContentRef | null => (isObject(value) ? value : null);

/** A string field of a reference; absent or of another type gives undefined. */
export const refField = (ref: ContentRef, field: string): string | undefined => {
  const value = ref[field];
  return typeof value === 'string' ? value : undefined;
};
