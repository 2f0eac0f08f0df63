/**
 * Signed, expiring links (PDF exports, file downloads): a JWT (HS256) naming who it was made for
 * (`sub`) and what it opens, signed with a key derived from the instance's signing secret for its
 * purpose alone (see identity/signing-secret.ts). Every instance accepts the links of the others,
 * and a token made for one purpose (a PDF, a file, visitor claims) never passes for another.
 */
import { createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export type LinkSigner = {
  secret: Uint8Array;
  /** The instance's public URL (`iss`). */
  issuer: string;
};

export type VerifiedLink = { ok: true; subject: string; payload: Record<string, unknown>; expiresAt: Date } | { ok: false; reason: 'expired' | 'invalid' };

/** The key of one purpose's links: HMAC-SHA256 of a fixed label under the signing secret. */
const keyFor = (purpose: string, secret: Uint8Array) => new Uint8Array(createHmac('sha256', secret).update(`quire ${purpose} link v1`).digest());
const typeOf = (purpose: string) => `quire-${purpose}+jwt`;
const audienceOf = (purpose: string) => `quire:${purpose}`;

/** A token for `subject` carrying `payload`, expiring `ttlSeconds` after `now`. */
export function signLink(
  purpose: string,
  subject: string,
  payload: Record<string, unknown>,
  signer: LinkSigner,
  opts: { ttlSeconds: number; now?: Date },
): Promise<string> {
  const issuedAt = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: typeOf(purpose) })
    .setSubject(subject)
    .setIssuer(signer.issuer)
    .setAudience(audienceOf(purpose))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + opts.ttlSeconds)
    .sign(keyFor(purpose, signer.secret));
}

/** The payload of a token of `purpose` this instance signed and that has not expired. */
export async function verifyLink(purpose: string, token: string, signer: LinkSigner, opts: { now?: Date } = {}): Promise<VerifiedLink> {
  if (token.length > 2048 || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return { ok: false, reason: 'invalid' };
  try {
    const { payload } = await jwtVerify(token, keyFor(purpose, signer.secret), {
      algorithms: ['HS256'],
      typ: typeOf(purpose),
      issuer: signer.issuer,
      audience: audienceOf(purpose),
      requiredClaims: ['sub', 'exp'],
      currentDate: opts.now,
      clockTolerance: 0,
    });
    return { ok: true, subject: payload.sub!, payload, expiresAt: new Date(payload.exp! * 1000) };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** A claim that is a non-empty string, or undefined. */
export const stringClaim = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
