/**
 * Opaque list cursors: the sort key of the last item seen, tagged with the list it belongs to.
 * A cursor is only accepted by the list (and sort) that issued it; anything else — garbage, a
 * cursor of another list, values of the wrong type — is a 400 naming the argument.
 */
import { badRequest } from '../../../lib/errors.js';

/** Types of sort-key values, and how each travels in a cursor (JSON-safe). */
export type KeyType = 'text' | 'int' | 'timestamp' | 'bytea';
export type KeyValue = string | number | Date | Uint8Array;

function encodeValue(type: KeyType, value: KeyValue): string | number {
  switch (type) {
    case 'timestamp':
      // A Date, or a row's time already as ISO text (IsoDateTime, see rows-as-json.ts).
      return typeof value === 'string' ? value : (value as Date).toISOString();
    case 'bytea':
      return Buffer.from(value as Uint8Array).toString('hex');
    default:
      return value as string | number;
  }
}

function decodeValue(type: KeyType, value: unknown): KeyValue | undefined {
  switch (type) {
    case 'text':
      // PostgreSQL text cannot hold NUL.
      return typeof value === 'string' && value.length <= 1024 && !value.includes('\u0000') ? value : undefined;
    case 'int':
      return Number.isInteger(value) && Math.abs(value as number) < 2 ** 31 ? (value as number) : undefined;
    case 'timestamp': {
      // Years 1–9999 only: PostgreSQL refuses the expanded years JavaScript can write.
      const date = typeof value === 'string' ? new Date(value) : undefined;
      return date && !Number.isNaN(date.getTime()) && /^\d{4}-/.test(date.toISOString()) && date.getUTCFullYear() >= 1 ? date : undefined;
    }
    case 'bytea':
      return typeof value === 'string' && /^(?:[0-9a-f]{2}){0,4096}$/.test(value) ? Buffer.from(value, 'hex') : undefined;
  }
}

export function encodeCursor(tag: string, types: readonly KeyType[], key: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify([tag, ...types.map((t, i) => encodeValue(t, key[i]))])).toString('base64url');
}

/** The sort key in `cursor`, or a 400 naming `field` when it is not a cursor of this list. */
export function decodeCursor(tag: string, types: readonly KeyType[], cursor: string, field: string): KeyValue[] {
  const invalid = () => badRequest(`Invalid value for "${field}": not a cursor of this list`, field);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== types.length + 1 || parsed[0] !== tag) throw invalid();
  const key = types.map((type, i) => decodeValue(type, parsed[i + 1]));
  if (key.some((v) => v === undefined)) throw invalid();
  return key as KeyValue[];
}
