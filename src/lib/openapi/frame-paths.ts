/**
 * The JSON pointer of a validation error. The parser reports schema errors with a code frame of
 * the document printed as `JSON.stringify(document, null, 2)`; the line it marks with `>` is where
 * the offending value starts. Printing the document the same way, line by line, gives the pointer
 * of that line. The marked line's text must match ours, so a different print never yields a wrong path.
 */
import { appendPointer } from './json-pointer.js';

/** `{ line, text }` of the line a code frame marks (`> 12 |     "title": 5,`), 1-based. */
export function markedLine(message: string): { line: number; text: string } | undefined {
  const match = /^>\s*(\d+)\s*\|(.*)$/m.exec(message);
  return match ? { line: Number(match[1]), text: match[2] } : undefined;
}

/** For each line of `JSON.stringify(value, null, 2)`, the pointer of the value starting there and its text (no trailing comma). */
export function printedLines(value: unknown): { pointer: string; text: string }[] {
  const lines: { pointer: string; text: string }[] = [];
  const open = new Set<object>(); // guards against cycles (stringify would throw; there is nothing to map then)
  const print = (current: unknown, pointer: string, label: string, depth: number) => {
    const pad = '  '.repeat(depth);
    if (current === null || typeof current !== 'object') {
      lines.push({ pointer, text: pad + label + primitive(current) });
      return;
    }
    if (open.has(current)) throw new Error('cycle');
    const entries = Array.isArray(current)
      ? current.map((item, index) => [index, item] as const)
      : Object.entries(current).filter(([, item]) => item !== undefined && typeof item !== 'function' && typeof item !== 'symbol');
    const [start, end] = Array.isArray(current) ? ['[', ']'] : ['{', '}'];
    if (!entries.length) {
      lines.push({ pointer, text: `${pad}${label}${start}${end}` });
      return;
    }
    open.add(current);
    lines.push({ pointer, text: `${pad}${label}${start}` });
    for (const [key, item] of entries) print(item, appendPointer(pointer, key), typeof key === 'number' ? '' : `${JSON.stringify(key)}: `, depth + 1);
    lines.push({ pointer, text: pad + end });
    open.delete(current);
  };
  print(value, '', '', 0);
  return lines;
}

function primitive(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  return 'null'; // null, and undefined or functions in arrays
}

/** Pointers for the marked lines of `messages`, or undefined where the print does not match. */
export function framePointers(document: unknown, messages: string[]): (string | undefined)[] {
  const marks = messages.map(markedLine);
  if (!marks.some(Boolean)) return marks.map(() => undefined);
  let lines: { pointer: string; text: string }[];
  try {
    lines = printedLines(document);
  } catch {
    return marks.map(() => undefined);
  }
  return marks.map((mark) => {
    const line = mark && lines[mark.line - 1];
    const marked = mark?.text.trim();
    return line && (marked === line.text.trim() || marked === `${line.text.trim()},`) ? line.pointer : undefined;
  });
}
