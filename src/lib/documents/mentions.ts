/**
 * The users a document mentions: inline `mention` nodes whose `data.ref` is a user reference
 * (`{kind: 'user', user: '<userId>'}`, ../shared/reference/content-model.md), anywhere in the
 * tree (blocks, inlines, fragments such as table cells and captions).
 */
import { badRequest } from '../errors.js';
import { isObject } from './content-ref.js';

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
 * The distinct users `document` mentions, in document order. The walk keeps its own stack (a
 * deeply nested body cannot overflow the call stack); more than `max` distinct users is a 400
 * naming `field`.
 */
export function mentionedUsers(document: unknown, field = 'body', max = MAX_MENTIONS): string[] {
  const users = new Set<string>();
  const stack: unknown[] = [document];
  while (stack.length) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    const user = mentionedUser(node);
    if (user !== null && !users.has(user)) {
      if (users.size >= max) throw badRequest(`${field} mentions more than ${max} users`, field);
      users.add(user);
    }
    const children = [...(Array.isArray(node.nodes) ? node.nodes : []), ...(Array.isArray(node.fragments) ? node.fragments : [])];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return [...users];
}
