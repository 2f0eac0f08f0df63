/**
 * `condition` of site sections, site spaces and header links (2.12, 2.13): a JavaScript-like
 * expression over the visitor deciding whether the item is shown, e.g.
 * `visitor.claims.plan === "enterprise" && !visitor.claims.beta`. Parsed with jsep, held to a
 * small safe subset, and evaluated by walking the tree (never eval/Function).
 */
import jsep from 'jsep';
import { LRUCache } from 'lru-cache';
import { badRequest } from '../../../../lib/errors.js';

export const CONDITION_MAX_LENGTH = 1024;
export type VisitorContext = { visitor: { claims: Record<string, unknown> } & Record<string, unknown> };

/** Tree depth the evaluator recurses through at most. */
const MAX_DEPTH = 64;
/** Brackets, ternaries and unary runs before parsing: jsep recurses on each, so a deep one could exhaust the stack. */
const MAX_NESTING = 32;
const ROOT = 'visitor';
const METHODS: Record<string, [min: number, max: number]> = {
  includes: [1, 2],
  startsWith: [1, 2],
  endsWith: [1, 2],
  toLowerCase: [0, 0],
  toUpperCase: [0, 0],
};
const BINARY = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=', '&&', '||', '??', '+', '-', '*', '/', '%', 'in']);
const UNARY = new Set(['!', '-']);
const FORBIDDEN_MEMBER = /^(?:__.*|constructor|prototype)$/;

// jsep's operator table is global to the process; nothing else in quire parses with jsep.
// Precedence 7 is that of the other relational operators, as in JavaScript.
jsep.addBinaryOp('in', 7);

type Expression = jsep.Expression;
class Unsupported extends Error {}

/** Deepest nesting of brackets plus ternaries plus the longest run of prefix operators, outside string literals. */
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let ternaries = 0;
  let run = 0;
  let longestRun = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    run = '!-+~'.includes(c) ? run + 1 : 0;
    longestRun = Math.max(longestRun, run);
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === ')' || c === ']') depth--;
    else if (c === '?') {
      if (text[i + 1] === '?' || text[i + 1] === '.') i++;
      else ternaries++;
    }
  }
  return deepest + ternaries + longestRun;
}

function memberName(node: jsep.MemberExpression): string {
  const property = node.property as Expression;
  if (!node.computed) return (property as jsep.Identifier).name;
  if (property.type === 'Literal' && ['string', 'number'].includes(typeof (property as jsep.Literal).value)) {
    return String((property as jsep.Literal).value);
  }
  throw new Unsupported('a computed member must be a string or number literal, as in `visitor.claims["plan"]`');
}

/** Throws Unsupported for anything outside the subset; `depth` caps the recursion of evaluation. */
function check(node: Expression | null, depth = 1): void {
  if (!node) throw new Unsupported('an element is missing');
  if (depth > MAX_DEPTH) throw new Unsupported(`is nested more than ${MAX_DEPTH} levels deep`);
  const next = depth + 1;
  switch (node.type) {
    case 'Literal':
      return;
    case 'Identifier':
      if ((node as jsep.Identifier).name !== ROOT) throw new Unsupported(`\`${(node as jsep.Identifier).name}\` is not allowed: only \`${ROOT}\` can be read`);
      return;
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.forEach((e) => check(e, next));
    case 'MemberExpression': {
      const name = memberName(node as jsep.MemberExpression);
      if (FORBIDDEN_MEMBER.test(name)) throw new Unsupported(`the member \`${name}\` is not allowed`);
      return check((node as jsep.MemberExpression).object, next);
    }
    case 'CallExpression': {
      const { callee, arguments: args } = node as jsep.CallExpression;
      const name = callee.type === 'MemberExpression' && !(callee as jsep.MemberExpression).computed ? memberName(callee as jsep.MemberExpression) : '';
      const arity = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
      if (!arity) throw new Unsupported(`only these methods can be called: ${Object.keys(METHODS).join(', ')}`);
      if (args.length < arity[0] || args.length > arity[1]) throw new Unsupported(`\`${name}\` takes ${arity[0]}-${arity[1]} arguments`);
      check((callee as jsep.MemberExpression).object, next);
      return args.forEach((a) => check(a, next));
    }
    case 'UnaryExpression':
      if (!UNARY.has((node as jsep.UnaryExpression).operator)) throw new Unsupported(`the operator \`${(node as jsep.UnaryExpression).operator}\` is not allowed`);
      return check((node as jsep.UnaryExpression).argument, next);
    case 'BinaryExpression': {
      const { operator, left, right } = node as jsep.BinaryExpression;
      if (!BINARY.has(operator)) throw new Unsupported(`the operator \`${operator}\` is not allowed`);
      check(left, next);
      return check(right, next);
    }
    case 'ConditionalExpression': {
      const { test, consequent, alternate } = node as jsep.ConditionalExpression;
      [test, consequent, alternate].forEach((e) => check(e, next));
      return;
    }
    case 'ThisExpression':
      throw new Unsupported('`this` is not allowed');
    default:
      throw new Unsupported(node.type === 'Compound' || node.type === 'SequenceExpression' ? 'must be a single expression' : `${node.type} is not allowed`);
  }
}

type Parsed = { tree: Expression } | { problem: string };
const parsed = new LRUCache<string, Parsed>({ max: 1000 });

function parse(text: string): Parsed {
  const cached = parsed.get(text);
  if (cached) return cached;
  let outcome: Parsed;
  try {
    if (!text.trim()) throw new Unsupported('must not be empty');
    if (nesting(text) > MAX_NESTING) throw new Unsupported(`is nested more than ${MAX_NESTING} levels deep`);
    const tree = jsep(text);
    check(tree);
    outcome = { tree };
  } catch (error) {
    if (error instanceof Unsupported) outcome = { problem: error.message };
    else if (error instanceof RangeError) outcome = { problem: 'is nested too deeply' };
    else outcome = { problem: `is not a valid expression: ${(error as Error).message}` };
  }
  parsed.set(text, outcome);
  return outcome;
}

/** The condition as given, or a 400 naming `field`. `null` (removal) is the caller's to handle. */
export function validateCondition(text: unknown, field: string): string {
  const fail = (problem: string) => badRequest(`Invalid value for "${field}": ${problem}`, field);
  if (typeof text !== 'string') throw fail('must be a string');
  if (text.length < 1 || text.length > CONDITION_MAX_LENGTH) throw fail(`must be 1-${CONDITION_MAX_LENGTH} characters long`);
  const outcome = parse(text);
  if ('problem' in outcome) throw fail(outcome.problem);
  return text;
}

/** Reads own properties only, so nothing inherited (prototypes, methods) is reachable; missing reads as undefined. */
function member(object: unknown, name: string): unknown {
  if (object === null || object === undefined) return undefined;
  return Object.hasOwn(Object(object), name) ? (object as Record<string, unknown>)[name] : undefined;
}

function call(receiver: unknown, name: string, args: unknown[]): unknown {
  if (name === 'includes' && Array.isArray(receiver)) return receiver.includes(args[0], args[1] as number | undefined);
  if (typeof receiver !== 'string') throw new TypeError(`${name} of a ${receiver === null ? 'null' : typeof receiver}`);
  if (name === 'toLowerCase') return receiver.toLowerCase();
  if (name === 'toUpperCase') return receiver.toUpperCase();
  const [search, position] = [String(args[0]), args[1] as number | undefined];
  if (name === 'includes') return receiver.includes(search, position);
  return name === 'startsWith' ? receiver.startsWith(search, position) : receiver.endsWith(search, position);
}

/* eslint-disable eqeqeq -- the expressions' own loose equality */
function binary(operator: string, l: any, r: any): unknown {
  switch (operator) {
    case '==': return l == r;
    case '!=': return l != r;
    case '===': return l === r;
    case '!==': return l !== r;
    case '<': return l < r;
    case '<=': return l <= r;
    case '>': return l > r;
    case '>=': return l >= r;
    case '+': return l + r;
    case '-': return l - r;
    case '*': return l * r;
    case '/': return l / r;
    case '%': return l % r;
    case 'in':
      if (typeof r !== 'object' || r === null) throw new TypeError('`in` needs an object or array');
      return Object.hasOwn(r, String(l));
  }
  throw new TypeError(`operator ${operator}`);
}
/* eslint-enable eqeqeq */

function evaluate(node: Expression, context: VisitorContext): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier':
      return context.visitor; // the check lets no other name through
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((e) => evaluate(e as Expression, context));
    case 'MemberExpression':
      return member(evaluate((node as jsep.MemberExpression).object, context), memberName(node as jsep.MemberExpression));
    case 'CallExpression': {
      const { callee, arguments: args } = node as jsep.CallExpression;
      const receiver = evaluate((callee as jsep.MemberExpression).object, context);
      return call(receiver, memberName(callee as jsep.MemberExpression), args.map((a) => evaluate(a, context)));
    }
    case 'UnaryExpression': {
      const { operator, argument } = node as jsep.UnaryExpression;
      const value = evaluate(argument, context) as number;
      return operator === '!' ? !value : -value;
    }
    case 'BinaryExpression': {
      const { operator, left, right } = node as jsep.BinaryExpression;
      const l = evaluate(left, context);
      if (operator === '&&') return l && evaluate(right, context);
      if (operator === '||') return l || evaluate(right, context);
      if (operator === '??') return l ?? evaluate(right, context);
      return binary(operator, l, evaluate(right, context));
    }
    case 'ConditionalExpression': {
      const { test, consequent, alternate } = node as jsep.ConditionalExpression;
      return evaluate(test, context) ? evaluate(consequent, context) : evaluate(alternate, context);
    }
  }
  throw new TypeError(`unexpected ${node.type}`);
}

/** Whether the item is shown: the expression's truthiness; false when it is invalid or its evaluation throws. */
export function evaluateCondition(text: string, context: VisitorContext): boolean {
  const outcome = parse(text);
  if ('problem' in outcome) return false;
  try {
    return Boolean(evaluate(outcome.tree, context));
  } catch {
    return false;
  }
}
