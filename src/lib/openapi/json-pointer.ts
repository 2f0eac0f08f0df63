/** JSON pointers (RFC 6901) into a parsed specification. */

export const appendPointer = (pointer: string, key: string | number): string =>
  `${pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

/** The value at a local reference (`#/components/schemas/Pet`), or undefined. */
export function resolveLocalRef(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return document;
  if (!pointer.startsWith('/')) return undefined;
  let value: unknown = document;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
