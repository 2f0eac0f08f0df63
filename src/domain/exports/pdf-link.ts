/**
 * The token of a PDF download URL: a JWT (HS256) naming who asked, the change request, the
 * revision to print and the page selection, valid for an hour (as the public API document says of
 * its PDF URLs). It is signed with a key derived from the instance's signing secret (see
 * identity/signing-secret.ts), so every instance accepts the links of the others, and a token
 * made for another purpose (visitor claims) can never pass for a PDF link, nor the reverse.
 */
import { createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/** How long a PDF URL works. */
export const PDF_LINK_TTL_SECONDS = 60 * 60;

const AUDIENCE = 'quire:pdf';
const TYPE = 'quire-pdf+jwt';

export type PdfLinkClaims = {
  /** Who asked: access is checked again, as them, when the URL is fetched. */
  userId: string;
  spaceId: string;
  changeRequestId: string;
  /** The revision printed: the change request's when the URL was asked for. */
  revisionId: string;
  /** One page (and its descendants unless `only`); absent: every page. */
  page?: string;
  only?: boolean;
};

export type PdfLinkSigner = {
  secret: Uint8Array;
  /** The instance's public URL (`iss`). */
  issuer: string;
};

/** The key for PDF links: HMAC-SHA256 of a fixed label under the signing secret. */
const linkKey = (secret: Uint8Array) => new Uint8Array(createHmac('sha256', secret).update('quire pdf link v1').digest());

/** A signed token for `claims`, expiring `ttlSeconds` after `now`. */
export function signPdfLink(claims: PdfLinkClaims, signer: PdfLinkSigner, opts: { ttlSeconds?: number; now?: Date } = {}): Promise<string> {
  const issuedAt = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  return new SignJWT({
    spc: claims.spaceId,
    cr: claims.changeRequestId,
    rev: claims.revisionId,
    ...(claims.page ? { pg: claims.page, ...(claims.only ? { only: true } : {}) } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: TYPE })
    .setSubject(claims.userId)
    .setIssuer(signer.issuer)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (opts.ttlSeconds ?? PDF_LINK_TTL_SECONDS))
    .sign(linkKey(signer.secret));
}

export type VerifiedPdfLink = { ok: true; claims: PdfLinkClaims; expiresAt: Date } | { ok: false; reason: 'expired' | 'invalid' };

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The claims of a token this instance signed and that has not expired. */
export async function verifyPdfLink(token: string, signer: PdfLinkSigner, opts: { now?: Date } = {}): Promise<VerifiedPdfLink> {
  if (token.length > 2048 || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return { ok: false, reason: 'invalid' };
  try {
    const { payload } = await jwtVerify(token, linkKey(signer.secret), {
      algorithms: ['HS256'],
      typ: TYPE,
      issuer: signer.issuer,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp'],
      currentDate: opts.now,
      clockTolerance: 0,
    });
    const [userId, spaceId, changeRequestId, revisionId] = [str(payload.sub), str(payload.spc), str(payload.cr), str(payload.rev)];
    if (!userId || !spaceId || !changeRequestId || !revisionId) return { ok: false, reason: 'invalid' };
    const page = str(payload.pg);
    return {
      ok: true,
      claims: { userId, spaceId, changeRequestId, revisionId, ...(page ? { page, only: payload.only === true } : {}) },
      expiresAt: new Date(payload.exp! * 1000),
    };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    return { ok: false, reason: 'invalid' };
  }
}
