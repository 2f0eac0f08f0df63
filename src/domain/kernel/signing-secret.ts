/**
 * The secret that signs the JWTs this server issues. Every instance must use the same one: the
 * QUIRE_SECRET setting when given, otherwise a random secret generated once and stored in the
 * database (the first instance to need it inserts it; the others read the same row).
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { instanceSetting } from './instance-settings.js';

export const SIGNING_SECRET_KEY = 'jwt-signing-secret';

/** `QUIRE_SECRET` when configured, else the instances' shared generated secret (instance-settings.ts). */
export async function signingSecret(db: Db, configured?: string): Promise<Uint8Array> {
  const secret = configured || (await instanceSetting(db, SIGNING_SECRET_KEY, () => randomBytes(32).toString('base64url')));
  return new TextEncoder().encode(secret);
}
