/**
 * Where a git operation's credentials wait while it is queued: sealed (kernel/sealed.ts, under a
 * key for this purpose alone) in the job row's `secret` column, which no API answer, event or log
 * reads, and erased when the job ends. The remote's URL is stored without them: the next
 * operation must bring its own, as the public API expects.
 */
import type { GitAuth } from '../../lib/git/remote.js';
import { seal, unseal } from '../kernel/sealed.js';

/** The key's purpose: unchanged since credentials were first sealed, so queued jobs still open. */
const PURPOSE = 'quire git credentials v1';

export function sealCredentials(auth: GitAuth, secret: Uint8Array): string {
  return seal(PURPOSE, JSON.stringify(auth), secret);
}

/** The credentials, or undefined when the seal is absent or was made under another secret. */
export function openCredentials(sealed: string | null | undefined, secret: Uint8Array): GitAuth | undefined {
  const text = unseal(PURPOSE, sealed, secret);
  if (text === undefined) return undefined;
  try {
    const auth = JSON.parse(text) as GitAuth;
    return typeof auth.username === 'string' && typeof auth.password === 'string' ? auth : undefined;
  } catch {
    return undefined;
  }
}
