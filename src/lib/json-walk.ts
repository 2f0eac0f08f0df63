/**
 * A walk over a parsed JSON value that cannot overflow the stack. JSON.parse reads text nested
 * any depth; a recursive walker over its result then dies of "Maximum call stack size exceeded"
 * (a 500, or a job failing forever) on a few hundred kilobytes of brackets. This walk keeps its
 * own stack, so it can find such a value and refuse it before any recursive code sees it.
 */

/**
 * Where a value sits: its path (`input.title`, `users[2]`) and how many arrays and objects hold it.
 * `path` is built when read (read it only when answering: building it for every value of a
 * 10 MB body took ~100 ms), and only while `visit` runs.
 */
export type JsonPlace = { readonly path: string; readonly depth: number };

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

/** A value to visit: `key` is its index or key in `parent` (null at the root). */
type Frame = { value: unknown; key: string | number | null; parent: Frame | null; depth: number };

function pathOf(frame: Frame): string {
  const parts: string[] = [];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) parts.push(typeof f.key === 'number' ? `[${f.key}]` : f.parent?.key === null ? f.key : `.${f.key}`);
  return parts.reverse().join('');
}

/**
 * Visits `root`, then every key (as a string, at its value's path) and value within it, depth
 * first in document order; answers the first thing `visit` answers. Containers are opened only
 * after `visit` has seen them, so a visitor that answers at some depth bounds the walk there.
 */
export function findInJson<T>(root: unknown, visit: (value: unknown, place: JsonPlace) => T | undefined): T | undefined {
  const stack: Frame[] = [{ value: root, key: null, parent: null, depth: 0 }];
  let current = stack[0];
  const place: JsonPlace = {
    get path() {
      return pathOf(current);
    },
    get depth() {
      return current.depth;
    },
  };
  while (stack.length) {
    const frame = stack.pop()!;
    current = frame;
    const found = visit(frame.value, place);
    if (found !== undefined) return found;
    const { value, depth } = frame;
    if (!isContainer(value)) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: frame, depth: depth + 1 });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        const item: Frame = { value: (value as Record<string, unknown>)[key], key, parent: frame, depth: depth + 1 };
        // The key itself is visited first, at its value's path.
        stack.push(item, { value: key, key, parent: frame, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** Whether `value` nests arrays and objects more than `maxDepth` levels deep (`[]` is one level, `[[]]` two). */
export const nestsDeeperThan = (value: unknown, maxDepth: number): boolean => findInJson(value, (item, { depth }) => (isContainer(item) && depth >= maxDepth ? true : undefined)) ?? false;
