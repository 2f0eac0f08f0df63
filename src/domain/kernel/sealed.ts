/**
 * Secrets kept in the database sealed: AES-256-GCM under a key derived from the instance's
 * signing secret for one `purpose` alone (HMAC-SHA256 of the purpose), so a seal made for one use
 * (git credentials, webhook secrets) opens for no other, and none opens under another instance
 * secret. The sealed form is `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const keyOf = (purpose: string, secret: Uint8Array) => createHmac('sha256', secret).update(purpose).digest();

export function seal(purpose: string, plaintext: string, secret: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(purpose, secret), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The plaintext, or undefined when the seal is absent, damaged, or made for another purpose or secret. */
export function unseal(purpose: string, sealed: string | null | undefined, secret: Uint8Array): string | undefined {
  if (!sealed) return undefined;
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(purpose, secret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
