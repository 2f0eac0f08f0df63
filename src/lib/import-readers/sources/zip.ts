/** The `zip` import source: an archive of markdown (the platform's git layout, or plain folders) or HTML. */
import type { ImportSource } from '../tree.js';
import { readZipTree } from '../zip/read-zip-tree.js';

export { readZipTree, type ReadZipOptions } from '../zip/read-zip-tree.js';

/** What a zip archive is served as. */
export const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];

export const zipSource: ImportSource = async (url, context) => {
  const response = await context.fetch(url, { accept: ZIP_TYPES });
  return readZipTree(response.bytes, {
    limits: context.limits,
    signal: context.signal,
    progress: (done, total) => context.progress(done, total),
  });
};
