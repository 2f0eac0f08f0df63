/**
 * node-saml reports failures as plain `Error`s whose messages are its only distinguishing mark
 * (checked against @node-saml/node-saml 5.1: lib/saml.js, lib/xml.js). Anything not recognised
 * becomes MALFORMED, the safe default: it is still a refusal.
 */
import { SamlStatusError } from '@node-saml/node-saml';
import { SamlError, type SamlErrorCode } from './saml-error.js';

const PATTERNS: Array<[RegExp, SamlErrorCode]> = [
  // "Invalid signature: No response found", "Unknown SAML response message": not a Response at all.
  [/No response found|Unknown SAML response/i, 'MALFORMED'],
  // "Invalid document signature", "Invalid signature[: multiple assertions | : ID cannot refer…]",
  // "Too many signatures found…", "ref URI included quote character…", "Cannot obtain assertion from signed data"
  [/signature|ref URI|signed data/i, 'INVALID_SIGNATURE'],
  [/not yet valid/i, 'NOT_YET_VALID'],
  [/expired/i, 'EXPIRED'],
  [/audience/i, 'WRONG_AUDIENCE'],
];

export function fromLibraryError(error: unknown): SamlError {
  if (error instanceof SamlError) return error;
  if (error instanceof SamlStatusError) return new SamlError('IDP_ERROR', { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  const code = PATTERNS.find(([pattern]) => pattern.test(message))?.[1] ?? 'MALFORMED';
  return new SamlError(code, { cause: error });
}
