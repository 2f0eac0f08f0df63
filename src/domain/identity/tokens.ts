/** API tokens: random, shown once, stored as a SHA-256 digest. */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { newId } from '../ids.js';

const PREFIX = 'quire_';

export const digestToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues a token for a user and returns its clear text (the only time it exists). */
export async function issueToken(db: Pick<Db, 'apiToken'>, userId: string): Promise<string> {
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  await db.apiToken.create({ data: { id: newId('ApiToken'), userId, digest: digestToken(token) } });
  return token;
}

/** The user ID behind a bearer token, or null when the token is unknown. */
export async function authenticate(db: Db, authorization: string | null | undefined): Promise<string | null> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  const token = await db.apiToken.findUnique({ where: { digest: digestToken(match[1]) }, select: { userId: true } });
  return token?.userId ?? null;
}
