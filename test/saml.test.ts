/**
 * The SAML service-provider core (src/lib/saml) against a test identity provider whose keys and
 * certificate are made at run time (test/helpers/saml-idp.ts): the signed AuthnRequest redirect,
 * a valid sign-in, and every refusal — unsigned, forged, tampered, signature wrapping, replay,
 * expiry, audience, destination, InResponseTo, issuer, missing e-mail. No database needed.
 */
import { verify } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  MemoryReplayStore,
  MemoryRequestIdStore,
  SamlConfigError,
  normalizeCertificate,
  serviceProvider,
  type ServiceProvider,
  type ServiceProviderConfig,
} from '../src/lib/saml/index.js';
import { TestIdp, makeKeyPair, newId, signElement, toBase64, type KeyPair, type ResponseOptions } from './helpers/saml-idp.js';

const ENTITY_ID = 'https://quire.test/orgs/org1/saml/p1/metadata';
const ACS_URL = 'https://quire.test/orgs/org1/saml/p1/acs';

let idp: TestIdp;
let forger: KeyPair;
let spKeys: KeyPair;
let config: ServiceProviderConfig;
let sp: ServiceProvider;

beforeAll(() => {
  idp = new TestIdp();
  forger = makeKeyPair('quire-test-forger');
  spKeys = makeKeyPair('quire-test-sp');
  config = {
    entityId: ENTITY_ID,
    acsUrl: ACS_URL,
    idp: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: idp.keys.certificate },
    privateKey: spKeys.privateKey,
    certificate: spKeys.certificate,
  };
  sp = serviceProvider(config);
});

function stores() {
  return { requestIds: new MemoryRequestIdStore(), replays: new MemoryReplayStore() };
}

function authnRequestXml(url: string): string {
  const request = new URL(url).searchParams.get('SAMLRequest');
  return inflateRawSync(Buffer.from(request!, 'base64')).toString('utf8');
}

/** Starts a login as the ACS flow would and answers the AuthnRequest ID the IdP must answer to. */
async function startLogin(requestIds: MemoryRequestIdStore, provider = sp): Promise<string> {
  const xml = authnRequestXml(await provider.loginUrl('state-1', requestIds));
  return /\sID="([^"]+)"/.exec(xml)![1];
}

function options(requestId: string, overrides: Partial<ResponseOptions> = {}): ResponseOptions {
  return {
    audience: ENTITY_ID,
    destination: ACS_URL,
    inResponseTo: requestId,
    nameId: 'Ada@Example.com',
    attributes: { firstName: 'Ada', lastName: 'Lovelace', groups: ['eng', 'docs'] },
    ...overrides,
  };
}

async function refusal(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a refusal with ${code}`);
    },
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: 'SamlError', code });
  // Stable, user-facing text: no entity IDs, URLs, request IDs or library wording.
  const message = (error as Error).message;
  expect(message).not.toMatch(/https?:|_[0-9a-f]{8}|Expected|Received/);
}

describe('loginUrl', () => {
  it('redirects to the IdP with a signed AuthnRequest naming our ACS URL and entity ID', async () => {
    const requestIds = new MemoryRequestIdStore();
    const url = await sp.loginUrl('relay-123', requestIds);
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe('https://idp.example.test/sso');
    expect(parsed.searchParams.get('tenant')).toBe('t1');
    expect(parsed.searchParams.get('RelayState')).toBe('relay-123');
    expect(parsed.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');

    const xml = authnRequestXml(url);
    expect(xml).toMatch(/^<\?xml|^<samlp:AuthnRequest/);
    expect(xml).toContain(`AssertionConsumerServiceURL="${ACS_URL}"`);
    expect(xml).toContain(`Destination="${idp.ssoUrl.replace('&', '&amp;')}"`);
    expect(xml).toContain(`<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${ENTITY_ID}</saml:Issuer>`);
    expect(xml).toContain('ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"');
    expect(xml).not.toContain('RequestedAuthnContext');

    // HTTP-Redirect binding §3.4.4.1: the signature covers the query parameters as sent, in order.
    const raw = url.split('?')[1].split('&');
    const param = (name: string) => raw.find((p) => p.startsWith(`${name}=`))!;
    const signed = [param('SAMLRequest'), param('RelayState'), param('SigAlg')].join('&');
    const signature = Buffer.from(decodeURIComponent(param('Signature').split('=')[1]), 'base64');
    expect(verify('RSA-SHA256', Buffer.from(signed), spKeys.certificate, signature)).toBe(true);
    const altered = signed.replace('relay-123', 'relay-124');
    expect(verify('RSA-SHA256', Buffer.from(altered), spKeys.certificate, signature)).toBe(false);
    expect(verify('RSA-SHA256', Buffer.from(signed), idp.keys.certificate, signature)).toBe(false);

    // The request ID is recorded, and only it.
    const id = /\sID="([^"]+)"/.exec(xml)![1];
    expect(requestIds.size).toBe(1);
    expect(await requestIds.consume(id)).toBe(true);
  });

  it('issues a fresh request ID every time', async () => {
    const requestIds = new MemoryRequestIdStore();
    const a = await startLogin(requestIds);
    const b = await startLogin(requestIds);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^_[0-9a-f]{40}$/);
    expect(requestIds.size).toBe(2);
  });

  it('sends an unsigned request when no private key is configured', async () => {
    const unsigned = serviceProvider({ ...config, privateKey: undefined, certificate: undefined });
    const url = new URL(await unsigned.loginUrl('s', new MemoryRequestIdStore()));
    expect(url.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(url.searchParams.has('Signature')).toBe(false);
    expect(url.searchParams.has('SigAlg')).toBe(false);
  });

  it('refuses a RelayState that is too long or would be encoded ambiguously', async () => {
    await expect(sp.loginUrl('x'.repeat(81), new MemoryRequestIdStore())).rejects.toThrow(TypeError);
    await expect(sp.loginUrl('a b', new MemoryRequestIdStore())).rejects.toThrow(TypeError);
    await expect(sp.loginUrl('a~b', new MemoryRequestIdStore())).rejects.toThrow(TypeError);
  });
});

describe('validate: accepted responses', () => {
  it('answers the identity of a valid response to a request we issued, and consumes the request', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const assertionId = newId();
    const login = await sp.validate(idp.response(options(requestId, { assertionId })), requestIds, replays);
    expect(login).toMatchObject({
      nameId: 'Ada@Example.com',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      sessionIndex: '_session-1',
      inResponseTo: requestId,
      assertionId,
      issuer: idp.entityId,
    });
    expect(login.attributes).toEqual({ firstName: 'Ada', lastName: 'Lovelace', groups: ['eng', 'docs'] });
    expect(requestIds.size).toBe(0);

    // The request was used up: another (fresh, valid) assertion answering it is refused.
    await refusal(sp.validate(idp.response(options(requestId)), requestIds, replays), 'UNKNOWN_REQUEST');
  });

  it.each(['response', 'both'] as const)('accepts a response whose signature is over the %s', async (sign) => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const login = await sp.validate(idp.response(options(requestId, { sign })), requestIds, replays);
    expect(login.email).toBe('ada@example.com');
  });

  it.each([
    'email',
    'mail',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  ])('takes the e-mail from the %s attribute when the NameID is not one', async (name) => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(
      options(requestId, {
        nameId: '00u1abcd2EFGH3ijk4',
        nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
        attributes: { [name]: 'Grace@Example.org', givenName: 'Grace', sn: 'Hopper' },
      }),
    );
    const login = await sp.validate(response, requestIds, replays);
    expect(login).toMatchObject({ nameId: '00u1abcd2EFGH3ijk4', email: 'grace@example.org', firstName: 'Grace', lastName: 'Hopper' });
  });

  it('accepts an expiry within the clock skew (default 60 s), and refuses it with no skew', async () => {
    const { requestIds, replays } = stores();
    const thirtySecondsAgo = new Date(Date.now() - 30_000);
    const first = await startLogin(requestIds);
    const login = await sp.validate(idp.response(options(first, { notOnOrAfter: thirtySecondsAgo })), requestIds, replays);
    expect(login.email).toBe('ada@example.com');

    const strict = serviceProvider({ ...config, clockSkewMs: 0 });
    const second = await startLogin(requestIds, strict);
    await refusal(strict.validate(idp.response(options(second, { notOnOrAfter: thirtySecondsAgo })), requestIds, replays), 'EXPIRED');
  });

  it('accepts an IdP certificate given as bare base64 with line breaks', async () => {
    const bare = idp.keys.certificate.replace(/-----[A-Z ]+-----/g, '').trim();
    expect(bare).toContain('\n');
    const provider = serviceProvider({ ...config, idp: { ...config.idp, certificate: bare } });
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds, provider);
    expect((await provider.validate(idp.response(options(requestId)), requestIds, replays)).email).toBe('ada@example.com');
  });

  it('does not use up the request on a refused response', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    await refusal(sp.validate(idp.response(options(requestId, { signWith: forger })), requestIds, replays), 'INVALID_SIGNATURE');
    expect((await sp.validate(idp.response(options(requestId)), requestIds, replays)).inResponseTo).toBe(requestId);
  });
});

describe('validate: signatures', () => {
  it('refuses an unsigned response', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    await refusal(sp.validate(idp.response(options(requestId, { sign: 'none' })), requestIds, replays), 'INVALID_SIGNATURE');
  });

  it.each(['assertion', 'response'] as const)('refuses a %s signed by another key (forged, own certificate embedded)', async (sign) => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId, { sign, signWith: forger }));
    await refusal(sp.validate(response, requestIds, replays), 'INVALID_SIGNATURE');
  });

  it.each(['assertion', 'response'] as const)('refuses a %s-signed response whose e-mail was changed after signing', async (sign) => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const xml = idp.responseXml(options(requestId, { sign }));
    expect(xml).toContain('Ada@Example.com');
    const tampered = toBase64(xml.replace('Ada@Example.com', 'eve@example.com'));
    await refusal(sp.validate(tampered, requestIds, replays), 'INVALID_SIGNATURE');
  });

  it('refuses signature wrapping: an unsigned assertion added beside the signed one', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const signed = signElement(idp.assertionXml(options(requestId)), "//*[local-name(.)='Assertion']", idp.keys);
    const evil = idp.assertionXml(options(requestId, { nameId: 'eve@example.com' }));
    for (const assertions of [evil + signed, signed + evil]) {
      const response = toBase64(idp.wrap(assertions, options(requestId)));
      await refusal(sp.validate(response, requestIds, replays), 'INVALID_SIGNATURE');
    }
  });

  it('refuses signature wrapping: the signed assertion hidden inside an evil one carrying its signature', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const signed = signElement(idp.assertionXml(options(requestId)), "//*[local-name(.)='Assertion']", idp.keys);
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signed)![0];
    // Evil assertion: eve's identity, the original's signature moved in, the original in Advice.
    const evil = idp
      .assertionXml(options(requestId, { nameId: 'eve@example.com' }))
      .replace('</saml:Issuer>', `</saml:Issuer>${signature}`)
      .replace('<saml:Conditions', `<saml:Advice>${signed.replace(signature, '')}</saml:Advice><saml:Conditions`);
    await refusal(sp.validate(toBase64(idp.wrap(evil, options(requestId))), requestIds, replays), 'INVALID_SIGNATURE');

    // The same with the evil assertion taking the signed one's ID.
    const id = /\sID="([^"]+)"/.exec(signed)![1];
    const sameId = evil.replace(/ID="_[0-9a-f]+"/, `ID="${id}"`);
    await refusal(sp.validate(toBase64(idp.wrap(sameId, options(requestId))), requestIds, replays), 'INVALID_SIGNATURE');
  });

  it('refuses signature wrapping: the signed assertion moved out of the way into Extensions', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const signed = signElement(idp.assertionXml(options(requestId)), "//*[local-name(.)='Assertion']", idp.keys);
    const evil = idp.assertionXml(options(requestId, { nameId: 'eve@example.com' }));
    const xml = idp
      .wrap(evil, options(requestId))
      .replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`);
    await refusal(sp.validate(toBase64(xml), requestIds, replays), 'INVALID_SIGNATURE');
  });

  it('refuses signature wrapping of a signed response: a second assertion added', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const xml = idp.responseXml(options(requestId, { sign: 'response' }));
    const evil = idp.assertionXml(options(requestId, { nameId: 'eve@example.com' }));
    const wrapped = xml.replace('</samlp:Response>', `${evil}</samlp:Response>`);
    await refusal(sp.validate(toBase64(wrapped), requestIds, replays), 'INVALID_SIGNATURE');
  });
});

describe('validate: replay and requests', () => {
  it('refuses the same response posted twice', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId));
    await sp.validate(response, requestIds, replays);
    await refusal(sp.validate(response, requestIds, replays), 'REPLAYED');
  });

  it('accepts only one of two concurrent posts of the same response', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId));
    const results = await Promise.allSettled([sp.validate(response, requestIds, replays), sp.validate(response, requestIds, replays)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'REPLAYED' });
  });

  it('refuses an InResponseTo we never issued', async () => {
    const { requestIds, replays } = stores();
    await startLogin(requestIds);
    await refusal(sp.validate(idp.response(options(newId())), requestIds, replays), 'UNKNOWN_REQUEST');
  });

  it('refuses an unsolicited (IdP-initiated) response without InResponseTo', async () => {
    const { requestIds, replays } = stores();
    await startLogin(requestIds);
    const response = idp.response(options('', { inResponseTo: undefined }));
    await refusal(sp.validate(response, requestIds, replays), 'UNKNOWN_REQUEST');
  });

  it('refuses a Response whose InResponseTo differs from the signed assertion’s', async () => {
    const { requestIds, replays } = stores();
    const mine = await startLogin(requestIds);
    const other = await startLogin(requestIds);
    const response = idp.response(options(other, { responseInResponseTo: mine }));
    await refusal(sp.validate(response, requestIds, replays), 'UNKNOWN_REQUEST');
  });

  it('refuses an answer to a request that has expired', async () => {
    let now = Date.now();
    const requestIds = new MemoryRequestIdStore(() => now);
    const requestId = await startLogin(requestIds);
    now += 31 * 60_000; // past the default 30 min
    await refusal(sp.validate(idp.response(options(requestId)), requestIds, new MemoryReplayStore()), 'UNKNOWN_REQUEST');
  });
});

describe('validate: conditions', () => {
  it('refuses an assertion expired beyond the clock skew', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId, { notBefore: new Date(Date.now() - 600_000), notOnOrAfter: new Date(Date.now() - 120_000) }));
    await refusal(sp.validate(response, requestIds, replays), 'EXPIRED');
  });

  it('refuses a bearer confirmation expired beyond the clock skew even when Conditions are valid', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId, { subjectNotOnOrAfter: new Date(Date.now() - 120_000) }));
    await refusal(sp.validate(response, requestIds, replays), 'EXPIRED');
  });

  it('refuses an assertion not yet valid beyond the clock skew', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId, { notBefore: new Date(Date.now() + 300_000), notOnOrAfter: new Date(Date.now() + 600_000) }));
    await refusal(sp.validate(response, requestIds, replays), 'NOT_YET_VALID');
  });

  it('refuses an assertion for another audience', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId, { audience: 'https://other.test/saml/metadata' }));
    await refusal(sp.validate(response, requestIds, replays), 'WRONG_AUDIENCE');
  });

  it('refuses a response sent to another destination', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId, { destination: 'https://other.test/acs', recipient: ACS_URL, sign: 'both' }));
    await refusal(sp.validate(response, requestIds, replays), 'WRONG_DESTINATION');
  });

  it('refuses an assertion whose bearer Recipient is another ACS URL', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId, { recipient: 'https://other.test/acs' }));
    await refusal(sp.validate(response, requestIds, replays), 'WRONG_DESTINATION');
  });

  it('refuses an assertion issued by another entity', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(options(requestId, { issuer: 'https://evil.test/idp' }));
    await refusal(sp.validate(response, requestIds, replays), 'WRONG_ISSUER');
  });
});

describe('validate: identity and input', () => {
  it('refuses an assertion with no e-mail address', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const response = idp.response(
      options(requestId, {
        nameId: 'ada',
        nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
        attributes: { email: 'not-an-address', firstName: 'Ada' },
      }),
    );
    await refusal(sp.validate(response, requestIds, replays), 'NO_EMAIL');
  });

  it.each([
    ['empty', ''],
    ['not base64', '<samlp:Response/>'],
    ['not XML', toBase64('hello world')],
    ['not a Response', toBase64('<foo xmlns="urn:x"/>')],
    ['too large', 'A'.repeat(600 * 1024)],
  ])('refuses a malformed response (%s)', async (_label, input) => {
    const { requestIds, replays } = stores();
    await refusal(sp.validate(input, requestIds, replays), 'MALFORMED');
  });

  it('reports an IdP refusal status', async () => {
    const { requestIds, replays } = stores();
    const requestId = await startLogin(requestIds);
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="${newId()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${ACS_URL}" InResponseTo="${requestId}">` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:RequestDenied"/></samlp:StatusCode></samlp:Status></samlp:Response>`;
    await refusal(sp.validate(toBase64(xml), requestIds, replays), 'IDP_ERROR');
  });
});

describe('metadata and configuration', () => {
  it('describes our entity ID, ACS URL and request-signing certificate', () => {
    const xml = sp.metadata();
    expect(xml).toContain(`entityID="${ENTITY_ID}"`);
    expect(xml).toMatch(new RegExp(`<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${ACS_URL}"`));
    expect(xml).toContain('AuthnRequestsSigned="true"');
    expect(xml).toContain('WantAssertionsSigned="true"');
    const body = spKeys.certificate.replace(/-----[A-Z ]+-----|\s/g, '');
    expect(xml.replace(/\s/g, '')).toContain(body);
  });

  it('omits the signing key from metadata without a certificate', () => {
    const xml = serviceProvider({ ...config, certificate: undefined }).metadata();
    expect(xml).toContain(`entityID="${ENTITY_ID}"`);
    expect(xml).not.toContain('KeyDescriptor');
  });

  it('refuses an unusable certificate, key or URL when set up', () => {
    expect(() => normalizeCertificate('not a certificate!')).toThrow(SamlConfigError);
    expect(() => normalizeCertificate('QUJDRA==')).toThrow(SamlConfigError);
    expect(normalizeCertificate(idp.keys.certificate.replace(/\n/g, '\r\n'))).toBe(normalizeCertificate(idp.keys.certificate));
    expect(() => serviceProvider({ ...config, idp: { ...config.idp, certificate: 'garbage' } })).toThrow(SamlConfigError);
    expect(() => serviceProvider({ ...config, privateKey: 'garbage' })).toThrow(SamlConfigError);
    expect(() => serviceProvider({ ...config, acsUrl: 'not a url' })).toThrow(SamlConfigError);
    expect(() => serviceProvider({ ...config, idp: { ...config.idp, ssoUrl: 'javascript:alert(1)' } })).toThrow(SamlConfigError);
  });
});

describe('memory stores', () => {
  it('consumes a request ID once and not after it expires', async () => {
    let now = 1_000_000;
    const store = new MemoryRequestIdStore(() => now);
    await store.save('a', new Date(now + 1000));
    await store.save('b', new Date(now + 1000));
    expect(await store.consume('a')).toBe(true);
    expect(await store.consume('a')).toBe(false);
    now += 1000;
    expect(await store.consume('b')).toBe(false);
    expect(await store.consume('never')).toBe(false);
  });

  it('remembers an assertion ID until its expiry, then forgets it', async () => {
    let now = 1_000_000;
    const store = new MemoryReplayStore(() => now);
    expect(await store.seen('x', new Date(now + 1000))).toBe(false);
    expect(await store.seen('x', new Date(now + 1000))).toBe(true);
    now += 1000;
    expect(await store.seen('y', new Date(now + 1000))).toBe(false);
    expect(store.size).toBe(1); // x swept
    expect(await store.seen('x', new Date(now + 1000))).toBe(false);
  });
});
