/**
 * A walk over a parsed JSON value that cannot overflow the stack. JSON.parse reads text nested
 * any depth; a recursive walker over its result then dies of "Maximum call stack size exceeded"
 * (a 500, or a job failing forever) on a few hundred kilobytes of brackets. This walk keeps its
 * own stack, so it can find such a value and refuse it before any recursive code sees it.
 */

/** Where a value sits: its path (`input.title`, `users[2]`) and how many arrays and objects hold it. */
export type JsonPlace = { path: string; depth: number };

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

/**
 * Visits `root`, then every key (as a string, at its value's path) and value within it, depth
 * first in document order; answers the first thing `visit` answers. Containers are opened only
 * after `visit` has seen them, so a visitor that answers at some depth bounds the walk there.
 */
export function findInJson<T>(root: unknown, visit: (value: unknown, place: JsonPlace) => T | undefined): T | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    const found = visit(value, { path, depth });
    if (found !== undefined) return found;
    if (!isContainer(value)) continue;
    const children: { value: unknown; path: string; depth: number }[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, i) => children.push({ value: item, path: `${path}[${i}]`, depth: depth + 1 }));
    } else {
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        children.push({ value: key, path: at, depth: depth + 1 }, { value: item, path: at, depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return undefined;
}

/** Whether `value` nests arrays and objects more than `maxDepth` levels deep (`[]` is one level, `[[]]` two). */
export const nestsDeeperThan = (value: unknown, maxDepth: number): boolean => findInJson(value, (item, { depth }) => (isContainer(item) && depth >= maxDepth ? true : undefined)) ?? false;
