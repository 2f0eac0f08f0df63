/**
 * An endpoint's signing secrets, sealed in its row (kernel/sealed.ts, a key for this purpose
 * alone). The secret itself is answered only by the write that makes it (create, rotate).
 */
import type { WebhookEndpoint } from '../../generated/prisma/client.js';
import { seal, unseal } from '../kernel/sealed.js';

const PURPOSE = 'quire webhook secret v1';

export const sealSecret = (secret: string, instanceSecret: Uint8Array) => seal(PURPOSE, secret, instanceSecret);

/**
 * The secrets that sign a message sent `at`: the current one, then the previous one while its
 * grace period lasts. A secret sealed under another instance secret cannot sign: none is answered.
 */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, instanceSecret: Uint8Array, at: Date): string[] {
  const current = unseal(PURPOSE, endpoint.secret, instanceSecret);
  if (current === undefined) return [];
  const stillValid = endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at;
  const previous = stillValid ? unseal(PURPOSE, endpoint.previousSecret, instanceSecret) : undefined;
  return previous === undefined ? [current] : [current, previous];
}
