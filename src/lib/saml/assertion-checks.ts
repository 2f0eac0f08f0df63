/**
 * The checks of the Web Browser SSO profile (SAML 2.0 profiles §4.1.4) that node-saml 5.1 leaves
 * to its caller: the issuer, the bearer SubjectConfirmation (Recipient, its own time window,
 * InResponseTo) and the Response's Destination. They read only the assertion node-saml verified
 * (covered by a signature), except Destination/InResponseTo of the Response element, which are
 * compared but never trusted alone.
 */
import { SamlError } from './saml-error.js';
import { attr, child, children, text, type XmlJs } from './xmljs.js';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

export interface AssertionFacts {
  assertionId: string;
  issuer: string | undefined;
  inResponseTo: string;
  /** After this instant (skew included) the assertion is refused anyway: how long to remember it. */
  expiresAt: Date;
}

export interface CheckContext {
  acsUrl: string;
  idpEntityId: string;
  clockSkewMs: number;
  now: number;
  /** Attributes of the (possibly unsigned) Response element. */
  response: { destination?: string; inResponseTo?: string };
}

function instant(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new SamlError('MALFORMED');
  return ms;
}

type Confirmation = { ok: true; inResponseTo: string; notOnOrAfter: number } | { ok: false; error: SamlError };

function checkConfirmation(confirmation: XmlJs, ctx: CheckContext): Confirmation {
  const data = child(confirmation, 'SubjectConfirmationData');
  const notBefore = instant(attr(data, 'NotBefore'));
  const notOnOrAfter = instant(attr(data, 'NotOnOrAfter'));
  const inResponseTo = attr(data, 'InResponseTo');
  // The profile makes Recipient and NotOnOrAfter mandatory on bearer confirmations.
  if (attr(data, 'Recipient') !== ctx.acsUrl) return { ok: false, error: new SamlError('WRONG_DESTINATION') };
  if (notOnOrAfter === undefined) return { ok: false, error: new SamlError('MALFORMED') };
  if (ctx.now - ctx.clockSkewMs >= notOnOrAfter) return { ok: false, error: new SamlError('EXPIRED') };
  if (notBefore !== undefined && ctx.now + ctx.clockSkewMs < notBefore) {
    return { ok: false, error: new SamlError('NOT_YET_VALID') };
  }
  // SP-initiated only: an unsolicited (IdP-initiated) response has no request to bind to.
  if (!inResponseTo) return { ok: false, error: new SamlError('UNKNOWN_REQUEST') };
  return { ok: true, inResponseTo, notOnOrAfter };
}

/** Runs the checks on the verified assertion (xml2js shape); throws SamlError on the first failure. */
export function checkAssertion(assertionDoc: XmlJs, ctx: CheckContext): AssertionFacts {
  // xml2js keeps the root element as an object (not an array) under its name.
  const assertion = assertionDoc['Assertion'] as XmlJs | undefined;
  const assertionId = attr(assertion, 'ID');
  if (!assertion || !assertionId) throw new SamlError('MALFORMED');

  const issuer = text(child(assertion, 'Issuer'))?.trim();
  if (ctx.idpEntityId && issuer !== ctx.idpEntityId) throw new SamlError('WRONG_ISSUER');

  if (ctx.response.destination !== undefined && ctx.response.destination !== ctx.acsUrl) {
    throw new SamlError('WRONG_DESTINATION');
  }

  const bearers = children(child(assertion, 'Subject'), 'SubjectConfirmation').filter(
    (c) => attr(c, 'Method') === BEARER,
  );
  if (bearers.length === 0) throw new SamlError('MALFORMED');
  const results = bearers.map((c) => checkConfirmation(c, ctx));
  const accepted = results.find((r) => r.ok);
  if (!accepted || !accepted.ok) throw (results[0] as { error: SamlError }).error;

  // The Response's InResponseTo is unsigned when only the assertion is signed: it must agree.
  if (ctx.response.inResponseTo !== undefined && ctx.response.inResponseTo !== accepted.inResponseTo) {
    throw new SamlError('UNKNOWN_REQUEST');
  }

  const conditionsEnd = instant(attr(child(assertion, 'Conditions'), 'NotOnOrAfter'));
  const end = Math.min(accepted.notOnOrAfter, conditionsEnd ?? Infinity);
  return { assertionId, issuer, inResponseTo: accepted.inResponseTo, expiresAt: new Date(end + ctx.clockSkewMs) };
}
