/**
 * Where a git operation's credentials wait while it is queued: sealed (AES-256-GCM under a key
 * derived from the instance's signing secret for this purpose alone) in the job row's `secret`
 * column, which no API answer, event or log reads, and erased when the job ends. The remote's
 * URL is stored without them: the next operation must bring its own, as the public API expects.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { GitAuth } from '../../lib/git/remote.js';

const keyOf = (secret: Uint8Array) => createHmac('sha256', secret).update('quire git credentials v1').digest();

/** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export function sealCredentials(auth: GitAuth, secret: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(auth), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The credentials, or undefined when the seal is absent or was made under another secret. */
export function openCredentials(sealed: string | null | undefined, secret: Uint8Array): GitAuth | undefined {
  if (!sealed) return undefined;
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    const auth = JSON.parse(text) as GitAuth;
    return typeof auth.username === 'string' && typeof auth.password === 'string' ? auth : undefined;
  } catch {
    return undefined;
  }
}
