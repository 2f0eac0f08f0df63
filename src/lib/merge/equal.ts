/**
 * Value comparison for the merge. Content is JSON, so a property set to `undefined` counts as
 * absent, and object key order never matters.
 */

type Dict = Record<string, unknown>;

function definedKeys(value: Dict): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

/** Deep equality ignoring object key order (Dates by time, typed arrays by bytes, arrays by item). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b || Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.byteLength !== b.byteLength) return false;
    return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  }
  const keysA = definedKeys(a as Dict);
  const keysB = definedKeys(b as Dict);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && deepEqual((a as Dict)[key], (b as Dict)[key]));
}

/** JSON text with object keys sorted: equal under `deepEqual` ⇒ equal text (for JSON values). */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const sorted: Dict = {};
      for (const key of Object.keys(item).sort()) sorted[key] = (item as Dict)[key];
      return sorted;
    }) ?? 'undefined'
  );
}
