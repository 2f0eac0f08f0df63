/** The text of a specification at a URL, through the safe fetcher, with fetch failures as FETCH_TIMEOUT or FETCH_ERROR. */
import { ImportError } from '../import-readers/import-error.js';
import { decodeText } from '../import-readers/sources/text.js';
import type { SafeFetch } from '../import-readers/tree.js';
import { SpecProcessingError } from './processing-error.js';

/** Media types a specification is served as (`application/vnd.oai.openapi` with or without a suffix). */
export const SPEC_MEDIA_TYPES = [
  'application/json',
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
  'text/x-yaml',
  'text/plain',
  'application/vnd.oai.openapi',
  'application/vnd.oai.openapi+json',
  'application/vnd.oai.openapi+yaml',
];

export const MAX_SPEC_BYTES = 10 * 1024 * 1024;

export async function fetchSpecText(url: string, fetch: SafeFetch, maxBytes = MAX_SPEC_BYTES): Promise<string> {
  let resource;
  try {
    resource = await fetch(url, { accept: SPEC_MEDIA_TYPES, maxBytes });
  } catch (error) {
    throw toSpecError(error);
  }
  return decodeText(resource);
}

/**
 * The fetcher's failures: time-outs are FETCH_TIMEOUT, the rest (unreachable, blocked address,
 * HTTP error, too large, wrong content type) FETCH_ERROR with the fetcher's message. A cancelled
 * job is not a processing failure: its error passes through for the job runner.
 */
function toSpecError(error: unknown): unknown {
  if (error instanceof ImportError) {
    if (error.code === 'CANCELLED') return error;
    return new SpecProcessingError(error.code === 'FETCH_TIMEOUT' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', error.message);
  }
  return new SpecProcessingError('FETCH_ERROR', 'The specification could not be fetched.');
}
