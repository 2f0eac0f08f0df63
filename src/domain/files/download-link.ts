/**
 * Download URLs of files: signed (HS256, the instance's signing secret) and expiring, so a browser
 * can fetch the bytes without the API token. Only a caller who can read the file's space is given
 * one, and the download checks again that this user still can.
 */
import { jwtVerify, SignJWT } from 'jose';

export const FILE_DOWNLOAD_PATH = '/files/';

/** How long a download URL works. */
export const DOWNLOAD_TTL_SECONDS = 60 * 60;

export type FileClaims = { key: string; name: string; type: string; userId: string; spaceId: string };

export async function signFileToken(secret: Uint8Array, claims: FileClaims): Promise<string> {
  return new SignJWT({ k: claims.key, n: claims.name, t: claims.type, u: claims.userId, s: claims.spaceId })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience('quire:file')
    .setExpirationTime(`${DOWNLOAD_TTL_SECONDS}s`)
    .sign(secret);
}

/** The file a token names, or null when it is forged, altered or expired. */
export async function verifyFileToken(secret: Uint8Array, token: string): Promise<FileClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { audience: 'quire:file', algorithms: ['HS256'] });
    const { k, n, t, u, s } = payload as Record<string, unknown>;
    const strings = [k, n, t, u, s].every((v) => typeof v === 'string');
    return strings ? { key: k as string, name: n as string, type: t as string, userId: u as string, spaceId: s as string } : null;
  } catch {
    return null;
  }
}
