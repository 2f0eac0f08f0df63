/** Files of a batch read and stored before its transaction (their bytes are stored by content, so a rolled-back batch leaves only unreferenced bytes). */
import { badRequest } from '../errors.js';
import type { EntityVersion } from '../revisions/commit.js';
import type { FileData } from '../revisions/entries.js';
import type { BlobStore } from './blob-store.js';
import { acceptFile, decodeBase64, type IncomingFile } from './file-input.js';

export type StoredFile = { name: string; data: FileData };

/** Stores accepted files; answers what their entries hold. */
export async function storeFiles(store: BlobStore, files: IncomingFile[]): Promise<StoredFile[]> {
  return Promise.all(
    files.map(async (file) => ({
      name: file.name,
      data: { contentType: file.contentType, size: file.bytes.byteLength, storageKey: await store.put(file.bytes), ...(file.dimensions ? { dimensions: file.dimensions } : {}) },
    })),
  );
}

/** The files of an `insert_files` change, decoded and checked (`field`: the change's path). */
export function inlineFiles(files: { name: string; contentType?: string; base64?: string; url?: string }[], field: string): IncomingFile[] {
  return files.map((file, i) => {
    const at = `${field}.files.${i}`;
    if (file.url !== undefined) throw badRequest(`Invalid value for "${at}.url": this server does not fetch files by URL yet; send the bytes as base64`, `${at}.url`);
    if (file.base64 === undefined) throw badRequest(`Invalid value for "${at}": give the bytes as base64`, at);
    if (!file.contentType) throw badRequest(`Invalid value for "${at}.contentType": required with base64`, `${at}.contentType`);
    return acceptFile({ name: file.name, contentType: file.contentType, bytes: decodeBase64(file.base64, `${at}.base64`) }, at);
  });
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
