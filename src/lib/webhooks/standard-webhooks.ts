/**
 * Signing as the Standard Webhooks specification says (https://www.standardwebhooks.com), so
 * receivers can verify with its libraries:
 *
 *   webhook-id:        the message's ID (the same on every retry and redelivery: receivers drop duplicates by it)
 *   webhook-timestamp: seconds since the epoch, of this attempt
 *   webhook-signature: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, one per secret, space-separated
 *
 * A secret is `whsec_` + base64 of its key (32 random bytes). While a rotated-out secret is still
 * honoured, the message carries both signatures; a receiver holding either one accepts it.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The key a secret stands for: the base64 after the prefix. */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('A webhook secret has no key');
  return key;
}

/** One `v1,<base64>` signature of a message. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a message signed with every secret given (the current one first). */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  if (!secrets.length) throw new Error('A webhook message needs at least one secret');
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => sign(s, id, timestamp, body)).join(' '),
  };
}
