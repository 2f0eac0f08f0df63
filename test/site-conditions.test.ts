/**
 * Visitor conditions of site sections, site spaces and header links (src/domain/publishing/sites/visitors/condition.ts):
 * which expressions are accepted (the safe subset), which are refused with a 400 naming the field —
 * hostile and absurdly nested ones included — and what they evaluate to against a visitor's claims.
 * No database needed.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.js';
import { evaluateCondition, validateCondition } from '../src/domain/publishing/sites/visitors/condition.js';

const FIELD = 'siteSpaces.0.condition';

describe('validateCondition', () => {
  const valid = [
    'visitor.claims.plan === "enterprise"',
    'visitor.claims.unsigned.region == "eu" && !visitor.claims.beta',
    '["a","b"].includes(visitor.claims.role)',
    'visitor.claims.email.toLowerCase().endsWith("@acme.com")',
    "visitor.claims.name.startsWith('A', 0) || visitor.claims.name.toUpperCase() != 'BOB'",
    '"admin" in visitor.claims',
    'visitor.claims["plan-id"] >= 2 ? visitor.claims.trial : false',
    'visitor.claims.count % 2 === 0 && visitor.claims.count * 3 / 2 - 1 + 0 < 10',
    'visitor.claims.tags[0] ?? "none"',
    '-visitor.claims.n <= 0',
    'visitor?.claims?.plan == null',
    'visitor.claims.a == 1 || '.repeat(40) + 'true',
    `visitor.claims.note === "${'x'.repeat(1024 - 'visitor.claims.note === ""'.length)}"`, // exactly 1024
  ];
  it.each(valid)('accepts %s', (text) => {
    expect(validateCondition(text, FIELD)).toBe(text);
  });

  const deep = (open: string, middle: string, close: string, n: number) => open.repeat(n) + middle + close.repeat(n);
  const invalid: [name: string, text: unknown, message: RegExp][] = [
    ['a number', 42, /must be a string/],
    ['null', null, /must be a string/],
    ['an empty string', '', /1-1024 characters/],
    ['only spaces', '   ', /must not be empty/],
    ['1025 characters', `visitor.claims.note === "${'x'.repeat(1025 - 'visitor.claims.note === ""'.length)}"`, /1-1024 characters/],
    ['a syntax error', 'visitor.claims.plan ===', /not a valid expression/],
    ['an unclosed string', 'visitor.claims.plan === "pro', /not a valid expression/],
    ['constructor.constructor("x")()', 'constructor.constructor("x")()', /only these methods can be called/],
    ['reaching the Function constructor through a string', '"".constructor.constructor("return process")()', /only these methods can be called/],
    ['visitor.__proto__', 'visitor.__proto__', /member `__proto__` is not allowed/],
    ['__proto__ as a computed member', 'visitor["__proto__"].polluted', /member `__proto__` is not allowed/],
    ['constructor of a claim', 'visitor.claims.constructor', /member `constructor` is not allowed/],
    ['prototype', 'visitor.claims.prototype == null', /member `prototype` is not allowed/],
    ['a computed member built at run time', 'visitor["constr" + "uctor"]', /string or number literal/],
    ['process.exit()', 'process.exit()', /only these methods can be called/],
    ['reading process', 'process.env.SECRET == "x"', /`process` is not allowed: only `visitor` can be read/],
    ['a global', 'globalThis.visitor', /`globalThis` is not allowed/],
    ['eval', 'eval("1")', /only these methods can be called/],
    ['this', 'this', /`this` is not allowed/],
    ['this.visitor', 'this.visitor.claims.plan', /`this` is not allowed/],
    ['a method outside the allow-list', 'visitor.claims.plan.replace("a", "b") == "b"', /only these methods can be called: includes, startsWith/],
    ['toString', 'visitor.claims.toString()', /only these methods/],
    ['a method called with too many arguments', 'visitor.claims.plan.toLowerCase(1)', /takes 0-0 arguments/],
    ['includes without an argument', 'visitor.claims.tags.includes()', /takes 1-2 arguments/],
    ['assignment', 'visitor.claims.plan = "free"', /not a valid expression|single expression/],
    ['two statements', 'visitor.claims.a; visitor.claims.b', /single expression/],
    ['a sequence', '(visitor.claims.a, visitor.claims.b)', /single expression|SequenceExpression/],
    ['a bitwise operator', 'visitor.claims.flags | 1', /operator `\|` is not allowed/],
    ['exponentiation', 'visitor.claims.n ** 2 > 4', /operator `\*\*` is not allowed/],
    ['unary ~', '~visitor.claims.n', /operator `~` is not allowed/],
    ['an array hole', '[1, , 2].includes(visitor.claims.n)', /missing|not a valid expression/],
    ['500 nested parentheses', deep('(', 'visitor', ')', 500), /nested/],
    ['500 nested arrays', deep('[', '', ']', 500), /nested/],
    ['1000 negations', `${'!'.repeat(1000)}visitor`, /nested/],
    ['spaced negations', `${'! '.repeat(500)}visitor`, /nested/],
    ['a chain of 300 ternaries', `${'visitor ? 1 : '.repeat(70)}0`, /nested/],
    ['a chain too long to evaluate recursively', `${'visitor.a||'.repeat(70)}true`, /nested more than 64 levels/],
  ];
  it.each(invalid)('refuses %s', (_name, text, message) => {
    let error: unknown;
    try {
      validateCondition(text, FIELD);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).field).toBe(FIELD);
    expect((error as AppError).message).toMatch(`Invalid value for "${FIELD}": `);
    expect((error as AppError).message).toMatch(message);
    if (typeof text === 'string') expect(evaluateCondition(text, { visitor: { claims: {} } })).toBe(false);
  });

  it('refuses deep nesting even when the stack is nearly used up', () => {
    const nearlyFull = (n: number): boolean => (n === 0 ? evaluateCondition(deep('(', '1', ')', 511), { visitor: { claims: {} } }) : nearlyFull(n - 1));
    expect(nearlyFull(5000)).toBe(false);
  });
});

describe('evaluateCondition', () => {
  const claims = {
    plan: 'enterprise',
    role: 'editor',
    beta: false,
    trial: true,
    unsigned: { region: 'eu' },
    email: 'Ann@Acme.com',
    count: 4,
    tags: ['x', 'y'],
    'plan-id': 3,
    nothing: null,
  };
  const cases: [text: string, expected: boolean][] = [
    ['visitor.claims.plan === "enterprise"', true],
    ['visitor.claims.plan === "free"', false],
    ['visitor.claims.plan !== "free"', true],
    ['visitor.claims.unsigned.region == "eu" && !visitor.claims.beta', true],
    ['visitor.claims.unsigned.region == "us" || visitor.claims.beta', false],
    ['["admin", "editor"].includes(visitor.claims.role)', true],
    ['["admin", "owner"].includes(visitor.claims.role)', false],
    ['visitor.claims.tags.includes("y")', true],
    ['visitor.claims.email.toLowerCase().endsWith("@acme.com")', true],
    ['visitor.claims.email.endsWith("@acme.com")', false],
    ['visitor.claims.email.startsWith("Ann")', true],
    ['visitor.claims.email.includes("@")', true],
    ['visitor.claims.role.toUpperCase() === "EDITOR"', true],
    ['"role" in visitor.claims', true],
    ['"admin" in visitor.claims', false],
    ['"constructor" in visitor.claims', false], // own claims only, nothing inherited
    ['visitor.claims.count % 2 === 0 && visitor.claims.count > 3 && visitor.claims.count <= 4', true],
    ['visitor.claims.count * 2 - 1 == "7"', true], // loose equality, as in JavaScript
    ['visitor.claims.count / 0 > 1000', true],
    ['-visitor.claims.count < 0', true],
    ['visitor.claims.tags[1] === "y" && visitor.claims.tags.length === 2', true],
    ['visitor.claims["plan-id"] + 1 === 4', true],
    ['visitor.claims.plan + "!" === "enterprise!"', true],
    ['visitor.claims.nothing ?? visitor.claims.trial', true],
    ['visitor.claims.beta ? false : true', true],
    ['visitor.claims.plan', true], // truthiness decides
    ['visitor.claims.beta', false],
    ['visitor.claims.missing', false],
    ['visitor.claims.missing == null', true], // a missing claim reads as undefined
    ['visitor.claims.missing.deeper.still == null', true],
    ['visitor.claims.missing.toLowerCase() === "x"', false], // a call on undefined throws: false
    ['visitor.claims.count.startsWith("4")', false], // a string method on a number throws: false
    ['"x" in visitor.claims.plan', false], // `in` on a string throws: false
    ['visitor.claims.plan.length === 10', true],
    ['visitor?.claims?.plan === "enterprise"', true],
    ['process.exit()', false], // invalid: never evaluated
  ];
  it.each(cases)('%s → %s', (text, expected) => {
    expect(evaluateCondition(text, { visitor: { claims } })).toBe(expected);
  });

  it('does not read inherited members of claims parsed from JSON', () => {
    const hostile = JSON.parse('{"__proto__": {"admin": true}}');
    expect(evaluateCondition('visitor.claims.admin', { visitor: { claims: hostile } })).toBe(false);
    expect(evaluateCondition('visitor.claims.plan.length > 0', { visitor: { claims: {} } })).toBe(false);
  });

  it('gives the same answers from the parse cache', () => {
    for (let i = 0; i < 3; i++) expect(evaluateCondition('visitor.claims.plan === "enterprise"', { visitor: { claims } })).toBe(true);
    expect(evaluateCondition('visitor.claims.plan === "enterprise"', { visitor: { claims: { plan: 'free' } } })).toBe(false);
  });
});
