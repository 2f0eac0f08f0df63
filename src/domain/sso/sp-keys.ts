/**
 * The key pair quire signs its SAML AuthnRequests with, and the certificate it publishes for it
 * in its service-provider metadata (identity providers that check request signatures import it).
 * Every instance must use the same pair: the QUIRE_SAML_PRIVATE_KEY / QUIRE_SAML_CERTIFICATE
 * settings when given (PEM), otherwise an RSA-2048 key and a self-signed certificate (10 years)
 * generated once and stored in the database (the first instance to need them inserts them).
 */
import { generate } from 'selfsigned';
import type { Db } from '../../db/client.js';

export type SigningKeys = { privateKey: string; certificate: string };

export const SP_KEYS_SETTING = 'saml-sp-signing-keys';
const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

const stored = new WeakMap<Db, Promise<SigningKeys>>();

async function loadOrCreate(db: Db): Promise<SigningKeys> {
  const existing = await db.setting.findUnique({ where: { key: SP_KEYS_SETTING } });
  if (!existing) {
    const now = new Date();
    const pems = await generate([{ name: 'commonName', value: 'quire SAML service provider' }], { keySize: 2048, algorithm: 'sha256', notBeforeDate: now, notAfterDate: new Date(now.getTime() + TEN_YEARS_MS) });
    // ON CONFLICT DO NOTHING: concurrent first uses agree on whichever pair was inserted first.
    await db.setting.createMany({ data: [{ key: SP_KEYS_SETTING, value: JSON.stringify({ privateKey: pems.private, certificate: pems.cert }) }], skipDuplicates: true });
  }
  const row = existing ?? (await db.setting.findUniqueOrThrow({ where: { key: SP_KEYS_SETTING } }));
  return JSON.parse(row.value) as SigningKeys;
}

export function serviceProviderKeys(db: Db, configured: Partial<SigningKeys> = {}): Promise<SigningKeys> {
  if (configured.privateKey && configured.certificate) return Promise.resolve({ privateKey: configured.privateKey, certificate: configured.certificate });
  let keys = stored.get(db);
  if (!keys) {
    keys = loadOrCreate(db);
    stored.set(db, keys);
    keys.catch(() => stored.delete(db));
  }
  return keys;
}
