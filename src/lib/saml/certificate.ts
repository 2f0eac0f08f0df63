/**
 * Identity-provider certificates arrive pasted by administrators: PEM, or the bare base64 of the
 * DER from the IdP's metadata, often with line breaks or spaces. Normalize to PEM and make sure it
 * really is an X.509 certificate, so a typo is reported when the provider is saved, not at login.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { SamlConfigError } from './saml-error.js';

const PEM = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/;

/** Answers the certificate as PEM (64-character lines); throws SamlConfigError if it is not one. */
export function normalizeCertificate(input: string): string {
  const body = (PEM.exec(input)?.[1] ?? input).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new SamlConfigError('The certificate is not PEM or base64');
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw new SamlConfigError('The certificate is not a valid X.509 certificate');
  }
  return pem;
}

/** Checks that a PEM private key (for signing AuthnRequests) can be loaded. */
export function checkPrivateKey(pem: string): void {
  try {
    createPrivateKey(pem);
  } catch {
    throw new SamlConfigError('The private key is not a valid PEM private key');
  }
}
