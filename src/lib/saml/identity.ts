/**
 * Who signed in, read from the verified assertion's NameID and attributes. Identity providers name
 * the same attribute differently (plain names, LDAP OIDs, the WS-Federation claim URIs of ADFS and
 * Entra ID), so each field is looked up under its usual names, first match wins.
 */
import { SamlError } from './saml-error.js';

const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';
const EMAIL_NAMES = ['email', 'mail', `${CLAIMS}emailaddress`, 'urn:oid:0.9.2342.19200300.100.1.3', 'Email', 'emailAddress'];
const FIRST_NAMES = ['firstName', 'givenName', 'given_name', `${CLAIMS}givenname`, 'urn:oid:2.5.4.42', 'first_name'];
const LAST_NAMES = ['lastName', 'surname', 'sn', 'family_name', `${CLAIMS}surname`, 'urn:oid:2.5.4.4', 'last_name'];

// Deliberately simple: one @, no spaces, a dot in the domain. Delivery is what really validates.
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

export type Attributes = Record<string, string | string[]>;

export interface SamlIdentity {
  nameId: string;
  nameIdFormat?: string;
  /** Lower-cased: providers differ in the case they send, members are matched by address. */
  email: string;
  firstName?: string;
  lastName?: string;
  attributes: Attributes;
  sessionIndex?: string;
}

/** Keeps the string values of node-saml's `profile.attributes` (complex values, e.g. NameIDs, are dropped). */
export function stringAttributes(raw: unknown): Attributes {
  const out: Attributes = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === 'string') out[name] = value;
    else if (Array.isArray(value)) {
      const strings = value.filter((v): v is string => typeof v === 'string');
      if (strings.length > 0) out[name] = strings;
    }
  }
  return out;
}

function first(attributes: Attributes, names: string[], accept: (v: string) => boolean = (v) => v !== ''): string | undefined {
  for (const name of names) {
    const value = attributes[name];
    const candidate = (Array.isArray(value) ? value : value === undefined ? [] : [value])
      .map((v) => v.trim())
      .find(accept);
    if (candidate !== undefined) return candidate;
  }
  return undefined;
}

export function readIdentity(input: {
  nameId: string | undefined;
  nameIdFormat?: string;
  attributes: Attributes;
  sessionIndex?: string;
}): SamlIdentity {
  const nameId = input.nameId?.trim();
  if (!nameId) throw new SamlError('MALFORMED');
  const isEmail = (v: string) => EMAIL.test(v);
  const email = isEmail(nameId) ? nameId : first(input.attributes, EMAIL_NAMES, isEmail);
  if (!email) throw new SamlError('NO_EMAIL');
  return {
    nameId,
    nameIdFormat: input.nameIdFormat,
    email: email.toLowerCase(),
    firstName: first(input.attributes, FIRST_NAMES),
    lastName: first(input.attributes, LAST_NAMES),
    attributes: input.attributes,
    sessionIndex: input.sessionIndex,
  };
}
