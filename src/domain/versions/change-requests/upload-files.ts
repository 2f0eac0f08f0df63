/** Files uploaded into a change request (GraphQL multipart): stored, then added as one revision. */
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { badRequest } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import type { BlobStore } from '../files/blob-store.js';
import { acceptFile } from '../files/file-input.js';
import { fileVersion, storeFiles } from '../files/store-files.js';
import { editContent } from './write-content.js';

export const MAX_FILES_PER_UPLOAD = 20;

export async function uploadFiles(
  db: Db,
  access: Access,
  store: BlobStore,
  spaceId: string,
  changeRequest: string,
  files: { name: string; contentType?: string | null; bytes: Uint8Array }[],
): Promise<{ changeRequestId: string; outcomes: string[] }> {
  if (!files.length || files.length > MAX_FILES_PER_UPLOAD) throw badRequest(`Invalid value for "files": 1 to ${MAX_FILES_PER_UPLOAD} files`, 'files');
  const accepted = files.map((file, i) => acceptFile(file, `files.${i}`));
  // Checked before any byte is stored: nobody else can fill the store.
  await access.requireChangeRequest(spaceId, changeRequest, 'edit');
  const stored = await storeFiles(store, accepted);
  return editContent(db, access, spaceId, changeRequest, async (_tx, ws) =>
    stored.map((file) => {
      const id = newId('File');
      ws.write('file', id, fileVersion(file));
      return id;
    }),
  );
}
