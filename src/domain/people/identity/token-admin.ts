/**
 * A user's API tokens, managed by the user themself (GraphQL `viewer.apiTokens`, `createApiToken`,
 * `revokeApiToken`) or by an operator (the admin CLI). Nobody sees another user's tokens, and no
 * one ever sees a token's clear text again after it was issued. A credential confined to one
 * organization (access/reach.ts) manages only tokens confined to that organization, and the
 * tokens it makes are confined there too: it never mints, lists or revokes one of wider reach.
 */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import type { Reach } from '../../access/reach.js';
import { issueNamedToken, recordTokenEvents, TOKEN_FIELDS } from './tokens.js';
import { transactionFrom, type RequestOrigin } from '../../kernel/request-origin.js';

const createInput = lazySchema(() => z.object({
  name: z.string().trim().max(100).optional(),
  expiresAt: z.date().nullish(),
}));

/** Whose tokens, as seen by which credential: an operator's is not confined. `from`: where the owner's request comes from (the token's events record it). */
export type TokenOwner = Reach & { userId: string; from?: RequestOrigin | null };

const within = (owner: TokenOwner) => ({ userId: owner.userId, ...(owner.confinedTo ? { organizationId: owner.confinedTo } : {}) });

export function listTokens(db: Db, owner: TokenOwner) {
  return db.apiToken.findMany({ where: within(owner), select: TOKEN_FIELDS, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** `actorId`: who asks — the owner, or null for an operator (the admin CLI). */
export async function createToken(db: Db, owner: TokenOwner, raw: z.input<typeof createInput>, actorId: string | null = owner.userId) {
  const data = parseInput(createInput, raw);
  if (data.expiresAt && data.expiresAt.getTime() <= Date.now()) throw badRequest('Invalid value for "expiresAt": must be in the future', 'expiresAt');
  return transactionFrom(db, owner.from, (tx) =>
    issueNamedToken(tx, owner.userId, { name: data.name, expiresAt: data.expiresAt, confinedTo: owner.confinedTo, actorId }),
  );
}

/**
 * Deletes one of the owner's tokens; another user's token, or one beyond the credential's reach,
 * is "not found". The organizations it reached are told (`apiTokenRevoked`).
 */
export async function revokeToken(db: Db, owner: TokenOwner, tokenId: string, actorId: string | null = owner.userId): Promise<void> {
  await transactionFrom(db, owner.from, async (tx) => {
    const [token] = await tx.apiToken.findMany({ where: { id: tokenId, ...within(owner) }, select: { id: true, userId: true, name: true, organizationId: true } });
    if (!token) throw notFound('API token');
    await tx.apiToken.delete({ where: { id: token.id } });
    await recordTokenEvents(tx, 'apiTokenRevoked', token, actorId, { userId: token.userId, name: token.name });
  });
}
