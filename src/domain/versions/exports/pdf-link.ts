/**
 * The token of a PDF download URL (a signed link, identity/signed-links.ts): who asked, the change
 * request, the revision to print and the page selection, valid for an hour (as the public API
 * document says of its PDF URLs).
 */
import { signLink, stringClaim, verifyLink, type LinkSigner } from '../../kernel/signed-links.js';

export type { LinkSigner as PdfLinkSigner };

/** How long a PDF URL works. */
export const PDF_LINK_TTL_SECONDS = 60 * 60;

const PURPOSE = 'pdf';

export type PdfLinkClaims = {
  /** Who asked: access is checked again, as them, when the URL is fetched. */
  userId: string;
  spaceId: string;
  /** Null: the space's own content (`GET /spaces/{id}/pdf`). */
  changeRequestId: string | null;
  /** The revision printed: the change request's (or the space's) when the URL was asked for. */
  revisionId: string;
  /** One page (and its descendants unless `only`); absent: every page. */
  page?: string;
  only?: boolean;
};

/** A signed, expiring token for `claims` (see identity/signed-links.ts). */
export function signPdfLink(claims: PdfLinkClaims, signer: LinkSigner, opts: { ttlSeconds?: number; now?: Date } = {}): Promise<string> {
  const payload = {
    spc: claims.spaceId,
    ...(claims.changeRequestId ? { cr: claims.changeRequestId } : {}),
    rev: claims.revisionId,
    ...(claims.page ? { pg: claims.page, ...(claims.only ? { only: true } : {}) } : {}),
  };
  return signLink(PURPOSE, claims.userId, payload, signer, { ttlSeconds: opts.ttlSeconds ?? PDF_LINK_TTL_SECONDS, now: opts.now });
}

export type VerifiedPdfLink = { ok: true; claims: PdfLinkClaims; expiresAt: Date } | { ok: false; reason: 'expired' | 'invalid' };

/** The claims of a token this instance signed and that has not expired. */
export async function verifyPdfLink(token: string, signer: LinkSigner, opts: { now?: Date } = {}): Promise<VerifiedPdfLink> {
  const link = await verifyLink(PURPOSE, token, signer, opts);
  if (!link.ok) return link;
  const { payload } = link;
  const [spaceId, changeRequestId, revisionId] = [stringClaim(payload.spc), stringClaim(payload.cr) ?? null, stringClaim(payload.rev)];
  if (!spaceId || !revisionId) return { ok: false, reason: 'invalid' };
  const page = stringClaim(payload.pg);
  return {
    ok: true,
    claims: { userId: link.subject, spaceId, changeRequestId, revisionId, ...(page ? { page, only: payload.only === true } : {}) },
    expiresAt: link.expiresAt,
  };
}
