/**
 * A bound on how deep a specification nests. Past a few hundred levels the YAML parser, the
 * validator and the walkers after them overflow the stack: a JSON document 20,000 objects deep
 * failed its job three times with "Maximum call stack size exceeded" and left the specification in
 * `progress` forever. So nesting is measured before anything recursive reads the document: the
 * text, when it goes to the YAML parser (an estimate that never undercounts flow collections or
 * indentation), and the parsed value, exactly, without recursion.
 */
import { nestsDeeperThan } from '../json-walk.js';
import { parseError } from './processing-error.js';

/** The deepest a specification may nest its objects and arrays; real ones stay under 50. */
export const MAX_SPEC_DEPTH = 128;

export const depthError = () => parseError('The specification could not be read', [{ message: `Objects and arrays are nested deeper than ${MAX_SPEC_DEPTH} levels` }]);

/** Throws PARSE_ERROR when the parsed document nests deeper than {@link MAX_SPEC_DEPTH}. */
export function assertSpecDepth(document: unknown): void {
  if (nestsDeeperThan(document, MAX_SPEC_DEPTH)) throw depthError();
}

/** A quote opens a YAML (or JSON) scalar only where a node can start: not inside `don't`. */
const OPENS_NODE = new Set(['', ' ', '\t', '[', '{', ',', ':']);

/**
 * Whether YAML text may nest deeper than `max`: open block indentation levels, plus compact
 * `- `/`? ` entries starting a line, plus open flow brackets (outside quoted scalars and comments).
 * It may count a bracket of a plain or block scalar as nesting; real text never holds a hundred
 * unclosed ones.
 */
export function yamlMayNestDeeperThan(text: string, max: number): boolean {
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | undefined;
  for (const line of text.split(/\r?\n|\r/)) {
    let start = 0;
    let compact = 0;
    if (!quote && flow === 0) {
      const indent = /^ */.exec(line)![0].length;
      const rest = line.slice(indent);
      if (rest === '' || rest.startsWith('#')) continue;
      while (indents.length && indents[indents.length - 1] > indent) indents.pop();
      if (!indents.length || indents[indents.length - 1] < indent) indents.push(indent);
      const entries = /^(?:[-?][ \t]+)*/.exec(rest)![0];
      compact = (entries.match(/[-?]/g) ?? []).length;
      start = indent + entries.length;
    }
    for (let i = start; i < line.length; i++) {
      const char = line[i];
      if (quote) {
        if (quote === '"' && char === '\\') i++;
        else if (char === quote) {
          if (quote === "'" && line[i + 1] === "'") i++; // '' is an escaped quote
          else quote = undefined;
        }
        continue;
      }
      const before = i === start ? '' : line[i - 1];
      if ((char === '"' || char === "'") && OPENS_NODE.has(before)) quote = char;
      else if (char === '#' && (before === ' ' || before === '\t' || before === '')) break;
      else if (char === '[' || char === '{') flow++;
      else if ((char === ']' || char === '}') && flow > 0) flow--;
      if (indents.length + compact + flow > max) return true;
    }
    if (indents.length + compact + flow > max) return true;
  }
  return false;
}
