/**
 * The key pair quire signs its SAML AuthnRequests with, and the certificate it publishes for it
 * in its service-provider metadata (identity providers that check request signatures import it).
 * Every instance must use the same pair: the QUIRE_SAML_PRIVATE_KEY / QUIRE_SAML_CERTIFICATE
 * settings when given (PEM), otherwise an RSA-2048 key and a self-signed certificate (10 years)
 * generated once and stored in the database (the first instance to need them inserts them).
 */
import type { Db } from '../../../db/client.js';
import { instanceSetting } from '../../kernel/instance-settings.js';

export type SigningKeys = { privateKey: string; certificate: string };

export const SP_KEYS_SETTING = 'saml-sp-signing-keys';
const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/** An RSA-2048 key and a self-signed certificate for it, as stored (JSON of SigningKeys). */
async function generateKeys(): Promise<string> {
  const now = new Date();
  const { generate } = await import('selfsigned'); // with @peculiar/x509: loaded by the one start that makes the keys
  const pems = await generate([{ name: 'commonName', value: 'quire SAML service provider' }], { keySize: 2048, algorithm: 'sha256', notBeforeDate: now, notAfterDate: new Date(now.getTime() + TEN_YEARS_MS) });
  return JSON.stringify({ privateKey: pems.private, certificate: pems.cert } satisfies SigningKeys);
}

export async function serviceProviderKeys(db: Db, configured: Partial<SigningKeys> = {}): Promise<SigningKeys> {
  if (configured.privateKey && configured.certificate) return { privateKey: configured.privateKey, certificate: configured.certificate };
  return JSON.parse(await instanceSetting(db, SP_KEYS_SETTING, generateKeys)) as SigningKeys;
}
