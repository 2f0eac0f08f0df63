/**
 * Files uploaded into a change request (GraphQL multipart): each streamed into the file store (no
 * file whole in memory; an image's dimensions read from its first bytes), then added as one revision.
 */
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { badRequest } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { BlobTooLarge } from '../files/blob-backend.js';
import type { BlobStore } from '../files/blob-store.js';
import { checkFile, IMAGE_HEAD_BYTES, imageDimensions, MAX_FILE_BYTES, tooLarge } from '../files/file-input.js';
import { fileVersion, type StoredFile } from '../files/store-files.js';
import { editContent } from './write-content.js';

export const MAX_FILES_PER_UPLOAD = 20;

/** A file as it arrived, not read yet: its first bytes and a stream of all of them on demand. */
export type UploadedFile = {
  name: string;
  contentType?: string | null;
  size: number;
  head(bytes: number): Promise<Uint8Array>;
  stream(): AsyncIterable<Uint8Array>;
};

export async function uploadFiles(db: Db, access: Access, store: BlobStore, spaceId: string, changeRequest: string, files: UploadedFile[]): Promise<{ changeRequestId: string; outcomes: string[] }> {
  if (!files.length || files.length > MAX_FILES_PER_UPLOAD) throw badRequest(`Invalid value for "files": 1 to ${MAX_FILES_PER_UPLOAD} files`, 'files');
  const checked = files.map((file, i) => checkFile(file, `files.${i}`));
  // Checked before any byte is stored: nobody else can fill the store.
  await access.requireChangeRequest(spaceId, changeRequest, 'edit');
  const stored: StoredFile[] = [];
  for (const [i, file] of files.entries()) {
    const { contentType } = checked[i]!;
    const dimensions = contentType.startsWith('image/') ? imageDimensions(contentType, await file.head(IMAGE_HEAD_BYTES)) : undefined;
    let written;
    try {
      written = await store.write(file.stream(), { maxBytes: MAX_FILE_BYTES });
    } catch (error) {
      if (error instanceof BlobTooLarge) throw tooLarge(`files.${i}`);
      throw error;
    }
    stored.push({ name: checked[i]!.name, data: { contentType, size: written.size, storageKey: written.key, ...(dimensions ? { dimensions } : {}) } });
  }
  return editContent(db, access, spaceId, changeRequest, async (_tx, ws) =>
    stored.map((file) => {
      const id = newId('File');
      ws.write('file', id, fileVersion(file));
      return id;
    }),
  );
}
