/** Visitor claims: a signed JWT (HS256) stating who the caller is in an organization. */
import { SignJWT } from 'jose';
import type { Role } from '../../access/roles.js';

export const VISITOR_CLAIMS_TTL = '1h';

export type VisitorClaims = { userId: string; organizationId: string; role: Role | null };

/** Claims: `sub` (user ID), `org` (organization ID), `role` (null for guests), `iss`, `iat`, `exp`. */
export function signVisitorClaims(claims: VisitorClaims, signer: { secret: Uint8Array; issuer: string }): Promise<string> {
  return new SignJWT({ org: claims.organizationId, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(signer.issuer)
    .setIssuedAt()
    .setExpirationTime(VISITOR_CLAIMS_TTL)
    .sign(signer.secret);
}
