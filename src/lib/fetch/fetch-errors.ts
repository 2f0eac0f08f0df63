/** Node's network errors as ImportErrors a person can read (never the internal error text). */
import { ImportError } from '../import-readers/import-error.js';
import { BlockedAddressError } from './guarded-lookup.js';

export const IMPORT_ADDRESS_POLICY = 'imports only read public addresses';

/** `policy` says who may reach only public addresses (imports by default). */
export const blockedAddress = (host: string, policy = IMPORT_ADDRESS_POLICY) =>
  new ImportError('BLOCKED_ADDRESS', `${host} is a private or otherwise non-public address; ${policy}.`);

export const cancelled = () => new ImportError('CANCELLED', 'The import was cancelled.');

/** The caller's abort reason when it is an ImportError (a time-out of the job, say), else CANCELLED. */
export const abortReason = (reason: unknown) => (reason instanceof ImportError ? reason : cancelled());

/** Throws the abort reason (as above) once `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal.reason);
}

export function toImportError(error: unknown, url: URL, addressPolicy?: string): ImportError {
  if (error instanceof ImportError) return error;
  if (error instanceof BlockedAddressError) return blockedAddress(url.hostname, addressPolicy);
  const code = typeof error === 'object' && error && 'code' in error ? String(error.code) : '';
  const host = url.host;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA') return fetchError(`Could not find the server ${host}.`);
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') {
    return fetchError(`Could not connect to ${host}.`);
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return fetchError(`The connection to ${host} was interrupted.`);
  }
  if (code.startsWith('Z_')) return fetchError(`The response from ${host} could not be decompressed.`);
  if (code.startsWith('HPE_')) return fetchError(`${host} sent an invalid HTTP response.`);
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code)) {
    return fetchError(`Could not establish a secure connection to ${host}.`);
  }
  return fetchError(`Could not fetch ${url.href}.`);
}

const fetchError = (message: string) => new ImportError('FETCH_ERROR', message);
