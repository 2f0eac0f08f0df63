/** Files of a batch read and stored before its transaction (their bytes are stored by content, so a rolled-back batch leaves only unreferenced bytes). */
import { badRequest } from '../../../lib/errors.js';
import { ImportError } from '../../../lib/import-readers/import-error.js';
import type { SafeFetch } from '../../../lib/import-readers/tree.js';
import type { EntityVersion } from '../revisions/commit.js';
import type { FileData } from '../revisions/entries.js';
import type { BlobStore } from './blob-store.js';
import { acceptFile, decodeBase64, type IncomingFile } from './file-input.js';

export type StoredFile = { name: string; data: FileData };

/** Stores accepted files (their keys recorded in one statement); answers what their entries hold. */
export async function storeFiles(store: BlobStore, files: IncomingFile[]): Promise<StoredFile[]> {
  const keys = await store.putAll(files.map((file) => file.bytes));
  return files.map((file, i) => ({
    name: file.name,
    data: { contentType: file.contentType, size: file.bytes.byteLength, storageKey: keys[i]!, ...(file.dimensions ? { dimensions: file.dimensions } : {}) },
  }));
}

/** Checks an `insert_files` change's files before anything is fetched (`field`: the change's path). */
export function checkBatchFiles(files: { name: string; contentType?: string; base64?: string; url?: string }[], field: string): void {
  files.forEach((file, i) => {
    const at = `${field}.files.${i}`;
    if ((file.url === undefined) === (file.base64 === undefined)) throw badRequest(`Invalid value for "${at}": give the bytes as base64, or a url to fetch them from`, at);
    if (file.base64 !== undefined && !file.contentType) throw badRequest(`Invalid value for "${at}.contentType": required with base64`, `${at}.contentType`);
  });
}

/**
 * The files of an `insert_files` change, decoded or fetched (through the safe fetcher: public
 * addresses only unless the operator allows private ones, bounded in time and size), and checked.
 */
export async function readBatchFiles(files: { name: string; contentType?: string; base64?: string; url?: string }[], field: string, fetch: SafeFetch): Promise<IncomingFile[]> {
  checkBatchFiles(files, field);
  const read: IncomingFile[] = [];
  for (const [i, file] of files.entries()) {
    const at = `${field}.files.${i}`;
    if (file.base64 !== undefined) {
      read.push(acceptFile({ name: file.name, contentType: file.contentType, bytes: decodeBase64(file.base64, `${at}.base64`) }, at));
      continue;
    }
    try {
      const fetched = await fetch(file.url!);
      read.push(acceptFile({ name: file.name, contentType: file.contentType ?? fetched.contentType, bytes: fetched.bytes }, at));
    } catch (error) {
      if (error instanceof ImportError) throw badRequest(`Invalid value for "${at}.url": could not fetch it (${error.code}): ${error.message}`, `${at}.url`);
      throw error;
    }
  }
  return read;
}

/** A file entry's version: files have no place in the page tree. */
export const fileVersion = (file: StoredFile): EntityVersion => ({
  parentId: null,
  position: '',
  type: '',
  title: file.name,
  slug: '',
  documentId: null,
  data: file.data as unknown as Record<string, unknown>,
  createdAt: new Date(),
});
