/** The safe fetcher for one request's files by URL (`insert_files` with a `url`): one file's size each, a few at most. */
import type { Config } from '../../../config.js';
import { MAX_FILE_BYTES } from './file-input.js';
import { DEFAULT_IMPORT_LIMITS, type SafeFetch } from '../../../lib/import-readers/tree.js';
import { createSafeFetch } from '../../../lib/fetch/safe-fetch.js';

export function fileFetch(config: Pick<Config, 'fetchAllowPrivateNetworks'>): SafeFetch {
  return createSafeFetch({
    limits: { ...DEFAULT_IMPORT_LIMITS, maxResponseBytes: MAX_FILE_BYTES, maxTotalBytes: 5 * MAX_FILE_BYTES },
    allowPrivateNetworks: config.fetchAllowPrivateNetworks,
  });
}
