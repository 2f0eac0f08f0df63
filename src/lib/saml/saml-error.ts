/**
 * Why a SAML response was refused, as a stable code. The message is safe to show to the person
 * signing in; the library's own error (which may quote audiences, IDs or XML) is kept only as
 * `cause`, for server logs.
 */
export const SAML_ERROR_CODES = [
  /** No valid signature by the identity provider's certificate covers the assertion. */
  'INVALID_SIGNATURE',
  /** The assertion's audience is not our entity ID. */
  'WRONG_AUDIENCE',
  /** The response's Destination or the assertion's Recipient is not our ACS URL. */
  'WRONG_DESTINATION',
  /** The assertion was issued by another entity than the configured identity provider. */
  'WRONG_ISSUER',
  /** NotOnOrAfter has passed (beyond the accepted clock skew). */
  'EXPIRED',
  /** NotBefore is still in the future (beyond the accepted clock skew). */
  'NOT_YET_VALID',
  /** InResponseTo is missing, or names no AuthnRequest we issued (or it was already used). */
  'UNKNOWN_REQUEST',
  /** The assertion was already accepted once. */
  'REPLAYED',
  /** The identity provider answered with a non-success status (e.g. the user was refused). */
  'IDP_ERROR',
  /** Not a readable SAML response (bad base64 or XML, missing elements, too large). */
  'MALFORMED',
  /** Neither the NameID nor a usual attribute holds an e-mail address. */
  'NO_EMAIL',
] as const;

export type SamlErrorCode = (typeof SAML_ERROR_CODES)[number];

const MESSAGES: Record<SamlErrorCode, string> = {
  INVALID_SIGNATURE: 'The SAML response is not validly signed by the identity provider',
  WRONG_AUDIENCE: 'The SAML assertion is not intended for this service provider',
  WRONG_DESTINATION: 'The SAML response was sent to another destination',
  WRONG_ISSUER: 'The SAML assertion was not issued by the configured identity provider',
  EXPIRED: 'The SAML assertion has expired',
  NOT_YET_VALID: 'The SAML assertion is not yet valid',
  UNKNOWN_REQUEST: 'The SAML response does not answer a sign-in request started here',
  REPLAYED: 'The SAML assertion has already been used',
  IDP_ERROR: 'The identity provider did not authenticate the user',
  MALFORMED: 'The SAML response could not be read',
  NO_EMAIL: 'The SAML assertion carries no e-mail address',
};

export class SamlError extends Error {
  constructor(
    readonly code: SamlErrorCode,
    options?: { cause?: unknown },
  ) {
    super(MESSAGES[code], options);
    this.name = 'SamlError';
  }
}

/** A service provider set up with unusable settings (a bad certificate or key): a 400 for admins. */
export class SamlConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamlConfigError';
  }
}
