/**
 * quire as a SAML 2.0 service provider for one identity provider: the AuthnRequest redirect
 * (HTTP-Redirect binding), validation of the response posted to the ACS URL (HTTP-POST binding),
 * and our metadata. Signatures, audience and the Conditions time window are node-saml's work;
 * what it leaves to callers (issuer, Recipient/Destination, a one-time InResponseTo, replay)
 * is done in assertion-checks.ts with the stores passed in.
 */
import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo, generateServiceProviderMetadata, type SamlConfig } from '@node-saml/node-saml';
// Not re-exported by the package root; the package has no "exports" map, so the path is stable per version.
import { parseXml2JsFromString } from '@node-saml/node-saml/lib/xml.js';
import { checkAssertion } from './assertion-checks.js';
import { checkPrivateKey, normalizeCertificate } from './certificate.js';
import { readIdentity, stringAttributes, type SamlIdentity } from './identity.js';
import { fromLibraryError } from './library-errors.js';
import { SamlConfigError, SamlError } from './saml-error.js';
import type { ReplayStore, RequestIdStore } from './stores.js';
import { attr, type XmlJs } from './xmljs.js';

export interface ServiceProviderConfig {
  /** Our entity ID: the Issuer of our requests and the audience we require. */
  entityId: string;
  /** Our Assertion Consumer Service URL: the required Destination/Recipient. */
  acsUrl: string;
  idp: { entityId: string; ssoUrl: string; certificate: string /* PEM or bare base64 */ };
  /** PEM key signing our AuthnRequests; unsigned requests without it. */
  privateKey?: string;
  /** PEM certificate of `privateKey`, published in our metadata so the IdP can verify requests. */
  certificate?: string;
  /** Tolerated difference between the IdP's clock and ours; default 60 s. */
  clockSkewMs?: number;
  /** How long an issued AuthnRequest ID stays answerable; default 30 min (MFA, password resets). */
  requestTtlMs?: number;
}

export interface SamlLogin extends SamlIdentity {
  issuer?: string;
  inResponseTo: string;
  assertionId: string;
}

export interface ServiceProvider {
  loginUrl(relayState: string, requestIds: RequestIdStore): Promise<string>;
  validate(samlResponseBase64: string, requestIds: RequestIdStore, replays: ReplayStore): Promise<SamlLogin>;
  metadata(): string;
}

const DEFAULT_CLOCK_SKEW_MS = 60_000;
const DEFAULT_REQUEST_TTL_MS = 30 * 60_000;
/** A response with a few certificates and attributes is a few kilobytes; refuse parsing megabytes. */
const MAX_RESPONSE_BASE64 = 512 * 1024;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/**
 * SAML bindings §3.4.3: at most 80 bytes. Only characters that node-saml's signed string
 * (querystring) and the URL it returns (URLSearchParams) encode alike, so IdPs verifying the
 * signature against the received query see the signed bytes (`~` and spaces differ).
 */
const RELAY_STATE = /^[A-Za-z0-9._-]{0,80}$/;

function checkUrl(value: string, what: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SamlConfigError(`${what} is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SamlConfigError(`${what} must be an HTTP(S) URL`);
}

export function serviceProvider(config: ServiceProviderConfig): ServiceProvider {
  if (!config.entityId) throw new SamlConfigError('The service provider entity ID is required');
  checkUrl(config.acsUrl, 'The ACS URL');
  checkUrl(config.idp.ssoUrl, 'The SSO URL');
  const idpCert = normalizeCertificate(config.idp.certificate);
  if (config.privateKey) checkPrivateKey(config.privateKey);
  const spCert = config.certificate ? normalizeCertificate(config.certificate) : undefined;
  const clockSkewMs = config.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS;
  const requestTtlMs = config.requestTtlMs ?? DEFAULT_REQUEST_TTL_MS;

  const options: SamlConfig = {
    issuer: config.entityId,
    callbackUrl: config.acsUrl,
    entryPoint: config.idp.ssoUrl,
    idpCert,
    audience: config.entityId,
    privateKey: config.privateKey || undefined,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    // Either a signed Response or a signed Assertion is accepted (IdPs differ); node-saml still
    // requires one of the two to be valid and reads the assertion only from the signed bytes.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: clockSkewMs,
    // InResponseTo is checked here instead, against a store with an atomic consume.
    validateInResponseTo: ValidateInResponseTo.never,
    // No NameIDPolicy Format and no RequestedAuthnContext: the defaults (emailAddress, exact
    // PasswordProtectedTransport) make IdPs using MFA or another NameID format refuse the request.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  };
  const verifier = new SAML(options);

  return {
    async loginUrl(relayState, requestIds) {
      if (!RELAY_STATE.test(relayState)) throw new TypeError('relayState must be at most 80 URL-safe characters');
      const id = `_${randomBytes(20).toString('hex')}`;
      await requestIds.save(id, new Date(Date.now() + requestTtlMs));
      const saml = new SAML({ ...options, generateUniqueId: () => id });
      return saml.getAuthorizeUrlAsync(relayState, undefined, {});
    },

    async validate(samlResponseBase64, requestIds, replays) {
      const compact = typeof samlResponseBase64 === 'string' ? samlResponseBase64.replace(/\s+/g, '') : '';
      if (!compact || compact.length > MAX_RESPONSE_BASE64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
        throw new SamlError('MALFORMED');
      }
      let profile;
      let response: XmlJs | undefined;
      try {
        ({ profile } = await verifier.validatePostResponseAsync({ SAMLResponse: compact }));
        const doc = (await parseXml2JsFromString(Buffer.from(compact, 'base64').toString('utf8'))) as XmlJs;
        response = doc['Response'] as XmlJs | undefined;
      } catch (error) {
        throw fromLibraryError(error);
      }
      // A null profile is a NoPassive or logout answer: not a sign-in.
      if (!profile || !response || !profile.getAssertion) throw new SamlError('MALFORMED');

      const facts = checkAssertion(profile.getAssertion() as XmlJs, {
        acsUrl: config.acsUrl,
        idpEntityId: config.idp.entityId,
        clockSkewMs,
        now: Date.now(),
        response: { destination: attr(response, 'Destination'), inResponseTo: attr(response, 'InResponseTo') },
      });
      const identity = readIdentity({
        nameId: profile.nameID,
        nameIdFormat: profile.nameIDFormat,
        attributes: stringAttributes(profile['attributes']),
        sessionIndex: profile.sessionIndex,
      });
      // Replay first: a second post of a response must say REPLAYED, not that its request is unknown.
      if (await replays.seen(facts.assertionId, facts.expiresAt)) throw new SamlError('REPLAYED');
      if (!(await requestIds.consume(facts.inResponseTo))) throw new SamlError('UNKNOWN_REQUEST');
      return { ...identity, issuer: facts.issuer, inResponseTo: facts.inResponseTo, assertionId: facts.assertionId };
    },

    metadata() {
      // node-saml can only describe the signing key with its certificate.
      const signing = config.privateKey && spCert ? { privateKey: config.privateKey, publicCerts: spCert } : {};
      return generateServiceProviderMetadata({
        issuer: config.entityId,
        callbackUrl: config.acsUrl,
        identifierFormat: EMAIL_FORMAT,
        wantAssertionsSigned: true,
        signatureAlgorithm: 'sha256',
        ...signing,
      });
    },
  };
}
