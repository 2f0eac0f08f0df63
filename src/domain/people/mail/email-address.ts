/**
 * E-mail address validation for user input (invites, members): a single addr-spec
 * `local@domain` in the dot-atom form of RFC 5322 (no quoted local parts, comments or display
 * names), at most 254 characters (RFC 5321 path limit), local part ≤ 64. The domain is
 * lower-cased (domains are case-insensitive; local parts, strictly, are not) and must be a
 * hostname with a dot; internationalized domains are accepted and checked in their ASCII form.
 */
import { domainToASCII } from 'node:url';
import { badRequest } from '../../../lib/errors.js';

const MAX_LENGTH = 254;
const MAX_LOCAL = 64;
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

function validDomain(domain: string): boolean {
  const ascii = domainToASCII(domain);
  if (!ascii || ascii.length > 253) return false;
  const labels = ascii.split('.');
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && TOP_LEVEL.test(labels.at(-1)!);
}

export function normalizeEmail(value: unknown, field: string): string {
  const invalid = (why: string) => badRequest(`Invalid value for "${field}": ${why}`, field);
  if (typeof value !== 'string') throw invalid('expected an e-mail address');
  const trimmed = value.trim();
  if (!trimmed) throw invalid('an e-mail address is required');
  if (trimmed.length > MAX_LENGTH) throw invalid(`an e-mail address has at most ${MAX_LENGTH} characters`);
  const at = trimmed.lastIndexOf('@');
  const local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1).toLowerCase();
  if (at < 1 || local.length > MAX_LOCAL || !LOCAL_PART.test(local) || !validDomain(domain)) {
    throw invalid('not a valid e-mail address');
  }
  return `${local}@${domain}`;
}
