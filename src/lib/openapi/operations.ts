/** The number of operations of a specification: HTTP methods under `paths`, path items reached through local `$ref`s. */
import { resolveLocalRef } from './json-pointer.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const MAX_REF_HOPS = 10;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export function countOperations(document: unknown): number {
  const paths = isObject(document) ? document.paths : undefined;
  if (!isObject(paths)) return 0;
  let count = 0;
  for (const entry of Object.values(paths)) {
    let item: unknown = entry;
    for (let hops = 0; isObject(item) && typeof item.$ref === 'string' && hops < MAX_REF_HOPS; hops++) item = resolveLocalRef(document, item.$ref);
    if (!isObject(item)) continue;
    count += METHODS.filter((method) => isObject(item[method])).length;
  }
  return count;
}
