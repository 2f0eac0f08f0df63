import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new block/inline key: 10 random base-62 characters (keys are unique within a document). */
export function newKey(): string {
  const bytes = randomBytes(10);
  let key = '';
  for (const byte of bytes) key += ALPHABET[byte % 62];
  return key;
}
