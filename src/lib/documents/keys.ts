import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_LENGTH = 10;
/**
 * Random bytes for 400 keys, drawn at once: a randomBytes call per key (a page of markdown makes
 * dozens) was ~5% of a page's conversion. Each key still takes 10 bytes of its own, in order.
 */
const POOL_BYTES = 400 * KEY_LENGTH;
let pool = Buffer.alloc(0);
let used = 0;

/** A new block/inline key: 10 random base-62 characters (keys are unique within a document). */
export function newKey(): string {
  if (used + KEY_LENGTH > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  let key = '';
  for (let i = used; i < used + KEY_LENGTH; i++) key += ALPHABET[pool[i]! % 62];
  used += KEY_LENGTH;
  return key;
}
