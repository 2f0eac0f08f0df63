/**
 * Download URLs of files: signed, expiring links (identity/signed-links.ts), so a browser can fetch
 * the bytes without the API token. Only a caller who can read the file's space is given one, and
 * the download checks again that this user still can.
 */
import { signLink, stringClaim, verifyLink, type LinkSigner } from '../../kernel/signed-links.js';

/** How long a download URL works. */
export const DOWNLOAD_TTL_SECONDS = 60 * 60;

const PURPOSE = 'file';

export type FileClaims = { key: string; name: string; type: string; userId: string; spaceId: string };

export function signFileToken(signer: LinkSigner, claims: FileClaims): Promise<string> {
  return signLink(PURPOSE, claims.userId, { k: claims.key, n: claims.name, t: claims.type, s: claims.spaceId }, signer, { ttlSeconds: DOWNLOAD_TTL_SECONDS });
}

/** The file a token names, or null when it is forged, altered or expired. */
export async function verifyFileToken(signer: LinkSigner, token: string): Promise<FileClaims | null> {
  const link = await verifyLink(PURPOSE, token, signer);
  if (!link.ok) return null;
  const [key, name, type, spaceId] = [stringClaim(link.payload.k), stringClaim(link.payload.n), stringClaim(link.payload.t), stringClaim(link.payload.s)];
  return key && name && type && spaceId ? { key, name, type, userId: link.subject, spaceId } : null;
}
