/**
 * The users a document mentions: inline `mention` nodes whose `data.ref` is a user reference
 * (`{kind: 'user', user: '<userId>'}`, ../shared/reference/content-model.md), anywhere in the
 * tree (blocks, inlines, fragments such as table cells and captions).
 */
import { badRequest } from '../errors.js';
import { isObject } from './content-ref.js';
import { documentNodes } from './walk.js';

/** The most distinct users one post may mention: each is a row and a mail. */
export const MAX_MENTIONS = 50;

/** The user ID a node mentions, or null when it is not a user mention. */
export function mentionedUser(node: Record<string, unknown>): string | null {
  if (node.object !== 'inline' || node.type !== 'mention' || !isObject(node.data)) return null;
  const ref = node.data.ref;
  if (!isObject(ref) || ref.kind !== 'user' || typeof ref.user !== 'string' || !ref.user) return null;
  return ref.user;
}

/**
 * The distinct users `document` mentions, in document order (walk.ts: a deeply nested body cannot
 * overflow the call stack); more than `max` distinct users is a 400 naming `field`.
 */
export function mentionedUsers(document: unknown, field = 'body', max = MAX_MENTIONS): string[] {
  const users = new Set<string>();
  for (const node of documentNodes(document)) {
    const user = mentionedUser(node);
    if (user !== null && !users.has(user)) {
      if (users.size >= max) throw badRequest(`${field} mentions more than ${max} users`, field);
      users.add(user);
    }
  }
  return [...users];
}

const BLOCK_BREAK = Symbol('block break');

/**
 * The plain text of a post for a notification: its texts in document order, blocks on lines of
 * their own, each mention as `@<name>` (`nameOf` its user; '@someone' when unknown), cut to about
 * `max` characters on a word boundary with an ellipsis. Never markup: what the body holds is read
 * as text only. Iterative, like `mentionedUsers`.
 */
export function postExcerpt(document: unknown, nameOf: (userId: string) => string | undefined, max = 500): string {
  const parts: string[] = [];
  let length = 0;
  const stack: unknown[] = [document];
  while (stack.length && length <= max) {
    const node = stack.pop();
    if (node === BLOCK_BREAK) {
      if (parts.length && parts[parts.length - 1] !== '\n') parts.push('\n');
      continue;
    }
    if (!isObject(node)) continue;
    let part = '';
    if (node.object === 'text' && Array.isArray(node.leaves)) part = node.leaves.map((leaf) => (isObject(leaf) && typeof leaf.text === 'string' ? leaf.text : '')).join('');
    const user = mentionedUser(node);
    if (user !== null) part = `@${nameOf(user) ?? 'someone'}`;
    if (part) {
      parts.push(part);
      length += part.length;
    }
    if (user !== null) continue; // a mention's own children are its rendering, not more text
    if (node.object === 'block' || node.object === 'fragment') stack.push(BLOCK_BREAK);
    const children = [...(Array.isArray(node.nodes) ? node.nodes : []), ...(Array.isArray(node.fragments) ? node.fragments : [])];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  const text = parts
    .join('')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .replace(/[^\S\n]+/g, ' ').replace(/ *\n[\s]*/g, '\n').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return `${(space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
