/** API tokens: random, shown once, stored as a SHA-256 digest. */
import { hash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../../db/client.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';

const PREFIX = 'quire_';

// One-shot `hash`: a digest per request, without a Hash object's set-up.
export const digestToken = (token: string) => hash('sha256', token, 'hex');

/** The digest of the token an Authorization header carries (`Bearer`, any case and spacing), or null: one token, one digest. */
export function bearerDigest(authorization: string | null | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? digestToken(match[1]) : null;
}

/**
 * `confinedTo`: the one organization the token reaches (access/reach.ts), when an organization
 * vouched for its holder. A token without it claims the account (User.claimedAt): from then on no
 * organization's link gives the account a credential.
 */
/**
 * `actorId`: who issues it — the user themself unless said (null: an operator, the CLI).
 * `announced: false`: no `apiTokenCreated` (the first token of an account an operator bootstraps,
 * whose joining is the event).
 */
export type TokenOptions = { name?: string; expiresAt?: Date | null; ssoOrganizationId?: string; confinedTo?: string | null; actorId?: string | null; announced?: boolean };

/** Issues a token for a user and returns its clear text (the only time it exists). */
export async function issueToken(tx: Prisma.TransactionClient, userId: string, opts: TokenOptions = {}): Promise<string> {
  return (await issueNamedToken(tx, userId, opts)).token;
}

/**
 * Issues a token; returns its record and clear text. Each organization the token reaches is told
 * (`apiTokenCreated`, the audit log): the one it is confined to, else every organization its
 * holder is an active member of.
 */
export async function issueNamedToken(tx: Prisma.TransactionClient, userId: string, opts: TokenOptions = {}) {
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  const confinedTo = opts.confinedTo ?? null;
  const record = await tx.apiToken.create({
    data: { id: newId('ApiToken'), userId, digest: digestToken(token), name: opts.name ?? '', expiresAt: opts.expiresAt ?? null, ssoOrganizationId: opts.ssoOrganizationId ?? null, organizationId: confinedTo },
    select: TOKEN_FIELDS,
  });
  if (!confinedTo) await tx.user.updateMany({ where: { id: userId, claimedAt: null }, data: { claimedAt: new Date() } });
  const data = { userId, name: record.name, confined: !!confinedTo, sso: !!opts.ssoOrganizationId, expiresAt: record.expiresAt?.toISOString() ?? null };
  if (opts.announced !== false) await recordTokenEvents(tx, 'apiTokenCreated', { id: record.id, userId, organizationId: confinedTo }, opts.actorId === undefined ? userId : opts.actorId, data);
  return { token, record };
}

/** Records a token's event for every organization it reaches (see issueNamedToken). */
export async function recordTokenEvents(
  tx: Prisma.TransactionClient,
  kind: 'apiTokenCreated' | 'apiTokenRevoked',
  token: { id: string; userId: string; organizationId: string | null },
  actorId: string | null,
  data: Prisma.InputJsonObject,
): Promise<void> {
  const organizationIds = token.organizationId
    ? [token.organizationId]
    : (await tx.member.findMany({ where: { userId: token.userId, disabled: false }, select: { organizationId: true } })).map((m) => m.organizationId);
  await recordEvents(tx, organizationIds.map((organizationId) => ({ kind, organizationId, subjectId: token.id, actorId, data })));
}

/** What may be shown of a token: never its digest. */
export const TOKEN_FIELDS = { id: true, userId: true, name: true, createdAt: true, lastUsedAt: true, expiresAt: true, organizationId: true } as const;

/** `lastUsedAt` is written at most this often per token (and instance). */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who a token speaks for: the user, the one organization it reaches when an organization vouched
 * for it (`confinedTo`, access/reach.ts), the organization whose SAML sign-in issued it (if any), and
 * whether the user is bound to SSO somewhere — an SSO member, not an admin, of an organization
 * that enforces SSO (`sso: true`), whose content then needs a token of its own sign-in (access.ts).
 */
export type TokenHolder = { userId: string; confinedTo: string | null; ssoOrganizationId: string | null; ssoBound: boolean };

export type Authenticator = (authorization: string | null | undefined) => Promise<TokenHolder | null>;

type TokenRow = { id: string; userId: string; expiresAt: Date | null; lastUsedAt: Date | null; organizationId: string | null; ssoOrganizationId: string | null; ssoBound: boolean };

/**
 * Resolves bearer tokens to their holders, remembering known tokens for `ttlMs` (at most `max` of
 * them, least recently used dropped first) so a busy client does not cost a lookup per request.
 * A revoked token, or a change of SSO enforcement, may therefore take up to `ttlMs` to reach an
 * instance that saw the token; unknown tokens are never remembered (a token issued a moment later
 * works at once).
 */
export function createAuthenticator(db: Pick<Db, 'apiToken' | '$queryRaw'>, { ttlMs = 10_000, max = 10_000 } = {}): Authenticator {
  const known = ttlMs > 0 ? new LRUCache<string, TokenHolder>({ max, ttl: ttlMs }) : undefined;
  return async (authorization) => {
    const digest = bearerDigest(authorization);
    if (!digest) return null;
    const cached = known?.get(digest);
    if (cached) return cached;
    const [token] = await db.$queryRaw<TokenRow[]>`
      SELECT t."id", t."userId", t."expiresAt", t."lastUsedAt", t."organizationId", t."ssoOrganizationId",
        EXISTS (SELECT 1 FROM "Member" m JOIN "Organization" o ON o."id" = m."organizationId"
          WHERE m."userId" = t."userId" AND m."sso" AND NOT m."disabled" AND o."sso" AND m."role" IS DISTINCT FROM 'admin') AS "ssoBound"
      FROM "ApiToken" t WHERE t."digest" = ${digest}`;
    const now = Date.now();
    if (!token || (token.expiresAt && token.expiresAt.getTime() <= now)) return null;
    const holder: TokenHolder = { userId: token.userId, confinedTo: token.organizationId, ssoOrganizationId: token.ssoOrganizationId, ssoBound: token.ssoBound };
    // Remembered no longer than it stays valid.
    known?.set(digest, holder, { ttl: token.expiresAt ? Math.min(ttlMs, token.expiresAt.getTime() - now) : ttlMs });
    if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      // Not awaited: a request does not wait for bookkeeping, nor fail with it.
      db.apiToken.updateMany({ where: { id: token.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
    }
    return holder;
  };
}
