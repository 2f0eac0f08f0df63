/** Git's id of a blob, computed without a repository: what `git hash-object` prints for the bytes. */
import { createHash } from 'node:crypto';

export function blobOid(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}
