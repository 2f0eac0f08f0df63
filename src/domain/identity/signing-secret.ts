/**
 * The secret that signs the JWTs this server issues. Every instance must use the same one: the
 * QUIRE_SECRET setting when given, otherwise a random secret generated once and stored in the
 * database (the first instance to need it inserts it; the others read the same row).
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.js';

export const SIGNING_SECRET_KEY = 'jwt-signing-secret';

const stored = new WeakMap<Db, Promise<Uint8Array>>();

async function loadOrCreate(db: Db): Promise<Uint8Array> {
  // ON CONFLICT DO NOTHING: concurrent first uses agree on whichever row was inserted first.
  await db.setting.createMany({ data: [{ key: SIGNING_SECRET_KEY, value: randomBytes(32).toString('base64url') }], skipDuplicates: true });
  const row = await db.setting.findUniqueOrThrow({ where: { key: SIGNING_SECRET_KEY } });
  return new TextEncoder().encode(row.value);
}

export function signingSecret(db: Db, configured?: string): Promise<Uint8Array> {
  if (configured) return Promise.resolve(new TextEncoder().encode(configured));
  let secret = stored.get(db);
  if (!secret) {
    secret = loadOrCreate(db);
    stored.set(db, secret);
    secret.catch(() => stored.delete(db));
  }
  return secret;
}
