/**
 * How far a credential reaches. Users are global: one account may belong to many organizations,
 * and an organization's admin is trusted inside that organization only. So a credential that one
 * organization vouched for — a token of its SAML sign-in, of its invitation link, and any token
 * made with such a token — is *confined* to that organization: everywhere else its holder is a
 * stranger (404, as for a non-member), and no list the holder reads names another organization.
 * A token an operator made, or made with such a token, reaches every organization its user is a
 * member of.
 *
 * Every check of the caller's access goes through `reaches` (Access, access.ts); the few reads
 * keyed on the caller alone (their organizations, their tokens) filter with `reachSql`.
 */
import { Prisma } from '../../generated/prisma/client.js';

/** The organization a credential is confined to; null or absent: it reaches all of its user's. */
export type Reach = { confinedTo?: string | null };

export const reaches = (reach: Reach, organizationId: string): boolean => !reach.confinedTo || reach.confinedTo === organizationId;

/** A predicate on `column` (an organization ID column) keeping only what the credential reaches. */
export function reachSql(reach: Reach, column: string): Prisma.Sql {
  return reach.confinedTo ? Prisma.sql`${Prisma.raw(column)} = ${reach.confinedTo}` : Prisma.sql`true`;
}
