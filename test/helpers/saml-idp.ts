/**
 * A test SAML identity provider: RSA keys and a self-signed X.509 certificate made at run time
 * with openssl (Node 20 cannot issue certificates), and SAML Responses built as text and signed
 * with xml-crypto (RSA-SHA256, exclusive c14n, enveloped signature) over the Response, the
 * Assertion, both, or neither.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignedXml } from 'xml-crypto';

export interface KeyPair {
  privateKey: string;
  certificate: string;
}

export function makeKeyPair(commonName: string): KeyPair {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-saml-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2',
      '-subj', `/CN=${commonName}`, '-keyout', key, '-out', cert,
    ], { stdio: 'ignore' });
    return { privateKey: readFileSync(key, 'utf8'), certificate: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type SignWhat = 'response' | 'assertion' | 'both' | 'none';

export interface ResponseOptions {
  audience: string;
  /** Response@Destination and, unless `recipient` is given, SubjectConfirmationData@Recipient. */
  destination: string;
  recipient?: string;
  /** SubjectConfirmationData@InResponseTo and, unless overridden, Response@InResponseTo. */
  inResponseTo?: string;
  responseInResponseTo?: string | null;
  nameId: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** SubjectConfirmationData@NotOnOrAfter; defaults to `notOnOrAfter`. */
  subjectNotOnOrAfter?: Date;
  issuer?: string;
  assertionId?: string;
  sign?: SignWhat;
  /** Sign with these keys instead of the IdP's (a forger). */
  signWith?: KeyPair;
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const iso = (d: Date) => d.toISOString();
export const newId = () => `_${randomBytes(16).toString('hex')}`;

const ASSERTION = "//*[local-name(.)='Assertion']";
const RESPONSE = "/*[local-name(.)='Response']";

/** Signs the element selected by `xpath`, placing ds:Signature right after its Issuer as the schema requires. */
export function signElement(xml: string, xpath: string, keys: KeyPair): string {
  const sig = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

export const toBase64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

export class TestIdp {
  readonly keys: KeyPair;
  constructor(
    readonly entityId = 'https://idp.example.test/metadata',
    readonly ssoUrl = 'https://idp.example.test/sso?tenant=t1',
    keys?: KeyPair,
  ) {
    this.keys = keys ?? makeKeyPair('quire-test-idp');
  }

  /** An unsigned assertion element. */
  assertionXml(o: ResponseOptions): string {
    const now = new Date();
    const notBefore = o.notBefore ?? new Date(now.getTime() - 60_000);
    const notOnOrAfter = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
    const subjectEnd = o.subjectNotOnOrAfter ?? notOnOrAfter;
    const irt = o.inResponseTo ? ` InResponseTo="${escape(o.inResponseTo)}"` : '';
    const format = o.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
    const attributes = Object.entries(o.attributes ?? {})
      .map(([name, value]) => {
        const values = (Array.isArray(value) ? value : [value])
          .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escape(v)}</saml:AttributeValue>`)
          .join('');
        return `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values}</saml:Attribute>`;
      })
      .join('');
    return (
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${escape(o.assertionId ?? newId())}" Version="2.0" IssueInstant="${iso(now)}">` +
      `<saml:Issuer>${escape(o.issuer ?? this.entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${escape(format)}">${escape(o.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData NotOnOrAfter="${iso(subjectEnd)}" Recipient="${escape(o.recipient ?? o.destination)}"${irt}/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}">` +
      `<saml:AudienceRestriction><saml:Audience>${escape(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_session-1"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      `</saml:Assertion>`
    );
  }

  /** A Response wrapping `assertion` (XML text, signed or not); the Response itself unsigned. */
  wrap(assertion: string, o: Pick<ResponseOptions, 'destination' | 'inResponseTo' | 'responseInResponseTo' | 'issuer'>): string {
    const irt = o.responseInResponseTo === undefined ? o.inResponseTo : o.responseInResponseTo;
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${iso(new Date())}" Destination="${escape(o.destination)}"${irt ? ` InResponseTo="${escape(irt)}"` : ''}>` +
      `<saml:Issuer>${escape(o.issuer ?? this.entityId)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`
    );
  }

  /** The Response as XML text, signed as asked (default: the assertion). */
  responseXml(o: ResponseOptions): string {
    const keys = o.signWith ?? this.keys;
    const sign = o.sign ?? 'assertion';
    let assertion = this.assertionXml(o);
    if (sign === 'assertion' || sign === 'both') assertion = signElement(assertion, ASSERTION, keys);
    const response = this.wrap(assertion, o);
    return sign === 'response' || sign === 'both' ? signElement(response, RESPONSE, keys) : response;
  }

  /** The Response, base64-encoded as the HTTP-POST binding carries it. */
  response(o: ResponseOptions): string {
    return toBase64(this.responseXml(o));
  }
}
