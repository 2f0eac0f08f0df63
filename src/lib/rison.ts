/**
 * A Rison decoder (the URI-friendly JSON the public document's `claims` parameter is written in):
 * `(plan:pro,beta:!t,tags:!(a,b),name:'Jane Doe',n:12)`. `!t` `!f` `!n` are true, false, null;
 * `!( … )` an array; `'…'` a string (`!'` a quote, `!!` a bang); bare words are strings, and
 * numbers are numbers. Input is bounded by the caller; nesting is bounded here.
 */

const MAX_DEPTH = 32;
/** Characters that end a bare word. */
const NOT_ID = new Set([' ', "'", '!', ':', '(', ')', ',', '*', '@', '$']);
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?(e[-+]?\d+)?/;

export class RisonError extends Error {}

/** The value `text` encodes; a RisonError saying where it went wrong otherwise. */
export function decodeRison(text: string): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new RisonError(`${what} at character ${at + 1}`);
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    const c = text[at];
    if (c === undefined) return fail('unexpected end');
    if (c === '!') {
      const next = text[at + 1];
      at += 2;
      if (next === 't') return true;
      if (next === 'f') return false;
      if (next === 'n') return null;
      if (next === '(') return list(depth, []);
      at -= 2;
      return fail('unknown "!" escape');
    }
    if (c === '(') {
      at++;
      const object: Record<string, unknown> = {};
      if (text[at] === ')') return (at++, object);
      for (;;) {
        const key = text[at] === "'" ? quoted() : word();
        if (typeof key !== 'string' || text[at] !== ':') fail('expected "key:"');
        at++;
        Object.defineProperty(object, key as string, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
        if (text[at] === ',') (at++);
        else if (text[at] === ')') return (at++, object);
        else fail('expected "," or ")"');
      }
    }
    if (c === "'") return quoted();
    if (c === '-' || (c >= '0' && c <= '9')) {
      const match = NUMBER.exec(text.slice(at));
      if (!match) return fail('malformed number');
      at += match[0].length;
      return Number(match[0]);
    }
    return word();
  };
  const list = (depth: number, items: unknown[]): unknown[] => {
    if (text[at] === ')') return (at++, items);
    for (;;) {
      items.push(value(depth + 1));
      if (text[at] === ',') at++;
      else if (text[at] === ')') return (at++, items);
      else fail('expected "," or ")"');
    }
  };
  const quoted = (): string => {
    let out = '';
    at++;
    for (;;) {
      const c = text[at++];
      if (c === undefined) fail('unterminated string');
      if (c === "'") return out;
      if (c === '!') {
        const escaped = text[at++];
        if (escaped !== '!' && escaped !== "'") fail('bad escape in string');
        out += escaped;
      } else out += c;
    }
  };
  const word = (): string => {
    const start = at;
    while (at < text.length && !NOT_ID.has(text[at])) at++;
    if (at === start) fail('unexpected character');
    return text.slice(start, at);
  };
  const result = value(0);
  if (at !== text.length) fail('unexpected text after the value');
  return result;
}
