/**
 * `$ref`s that point outside the document (a URL, an absolute or relative file). They are never
 * fetched or read (that would let a specification reach internal addresses or the server's
 * files); they stay unresolved and are reported as warnings.
 */
import { appendPointer } from './json-pointer.js';
import type { SpecIssue } from './processing-error.js';

const MAX_LISTED = 20;

/** Each non-local `$ref` with where it is (the first {@link MAX_LISTED}, then a count of the rest). */
export function externalRefIssues(document: unknown): SpecIssue[] {
  const found: SpecIssue[] = [];
  let total = 0;
  const seen = new Set<object>();
  const visit = (value: unknown, pointer: string) => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    for (const [key, child] of Object.entries(value)) {
      const at = appendPointer(pointer, key);
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) {
        total++;
        if (found.length < MAX_LISTED) found.push({ message: `External reference "${child}" was not followed; only references within the document are resolved.`, path: at });
      } else {
        visit(child, at);
      }
    }
  };
  visit(document, '');
  if (total > found.length) found.push({ message: `${total - found.length} more external references were not followed.` });
  return found;
}
