/**
 * A user's API tokens, managed by the user themself (GraphQL `viewer.apiTokens`, `createApiToken`,
 * `revokeApiToken`) or by an operator (the admin CLI). Nobody sees another user's tokens, and no
 * one ever sees a token's clear text again after it was issued.
 */
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../errors.js';
import { parseInput } from '../validation.js';
import { issueNamedToken, TOKEN_FIELDS } from './tokens.js';

const createInput = z.object({
  name: z.string().trim().max(100).optional(),
  expiresAt: z.date().nullish(),
});

export function listTokens(db: Db, userId: string) {
  return db.apiToken.findMany({ where: { userId }, select: TOKEN_FIELDS, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function createToken(db: Db, userId: string, raw: z.input<typeof createInput>) {
  const data = parseInput(createInput, raw);
  if (data.expiresAt && data.expiresAt.getTime() <= Date.now()) throw badRequest('Invalid value for "expiresAt": must be in the future', 'expiresAt');
  return issueNamedToken(db, userId, { name: data.name, expiresAt: data.expiresAt });
}

/** Deletes one of the user's tokens; another user's token is "not found". */
export async function revokeToken(db: Db, userId: string, tokenId: string): Promise<void> {
  const { count } = await db.apiToken.deleteMany({ where: { id: tokenId, userId } });
  if (!count) throw notFound('API token');
}
