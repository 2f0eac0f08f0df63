/** The Rison decoder (lib/rison.ts) that reads a site preview's `claims`. */
import { describe, expect, it } from 'vitest';
import { decodeRison, RisonError } from '../src/lib/rison.js';

describe('decodeRison', () => {
  it('decodes objects, arrays, strings, numbers, booleans and null', () => {
    expect(decodeRison("(plan:pro,beta:!t,off:!f,none:!n,n:-12.5e2,tags:!(a,'b c',!()),name:'Jane Doe',quote:'it!'s !!',empty:())")).toEqual({
      plan: 'pro',
      beta: true,
      off: false,
      none: null,
      n: -1250,
      tags: ['a', 'b c', []],
      name: 'Jane Doe',
      quote: "it's !",
      empty: {},
    });
    expect(decodeRison('42')).toBe(42);
    expect(decodeRison("''")).toBe('');
    expect(decodeRison('(a:(b:(c:x)))')).toEqual({ a: { b: { c: 'x' } } });
  });

  it('keeps keys such as __proto__ as plain data', () => {
    const value = decodeRison('(__proto__:(admin:!t))') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuses what is not Rison, saying where', () => {
    for (const text of ['', '(a:', '(a)', "'open", '!x', '(a:1,)', 'a b', '(a:1))', "'bad!escape'", '!(a', '-']) {
      expect(() => decodeRison(text), text).toThrow(RisonError);
    }
    expect(() => decodeRison('(a:1))')).toThrow(/character 6/);
    expect(() => decodeRison('!('.repeat(40) + ')'.repeat(40))).toThrow(/nested too deeply/);
  });
});
