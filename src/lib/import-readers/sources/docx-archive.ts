/**
 * A .docx is a zip, and mammoth (through JSZip) inflates the parts it reads whole, in memory. So
 * before mammoth sees one, the archive is checked here: it must be a zip, its entry count and
 * declared uncompressed sizes must fit the limits, and every entry is inflated once (streamed,
 * nothing kept) to check that it really is that size: yauzl fails an entry that inflates past
 * its declared size, so a lying zip bomb stops at its first extra byte.
 */
import type { Readable } from 'node:stream';
import yauzl, { type ZipFile } from 'yauzl';
import { throwIfAborted } from '../../fetch/fetch-errors.js';
import { ImportError } from '../import-error.js';
import type { ImportLimits } from '../tree.js';

export const notADocx = () => new ImportError('PARSE_ERROR', 'The file is not a Word document (.docx), or it is corrupt.');

const mb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024 / 1024))} MB`;

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

type Limits = Pick<ImportLimits, 'maxZipEntries' | 'maxResponseBytes' | 'maxTotalBytes'>;

/** Throws PARSE_ERROR (not a zip, corrupt), TOO_LARGE, or the signal's reason once aborted. */
export async function checkDocxArchive(bytes: Uint8Array, limits: Limits, signal?: AbortSignal): Promise<void> {
  if (!isZip(bytes)) throw notADocx();
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, validateEntrySizes: true });
  } catch {
    throw notADocx();
  }
  const tooLarge = () => new ImportError('TOO_LARGE', `The document is larger than the import limits allow (at most ${limits.maxZipEntries} parts and ${mb(limits.maxTotalBytes)} uncompressed).`);
  try {
    // yauzl reads exactly the end record's count of entries, so this bounds the loops below.
    if (zip.entryCount > limits.maxZipEntries) throw tooLarge();
    const entries = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      declared += entry.uncompressedSize;
      if (entry.uncompressedSize > limits.maxResponseBytes || declared > limits.maxTotalBytes) throw tooLarge();
      entries.push(entry);
    }
    for (const entry of entries) {
      throwIfAborted(signal);
      if (entry.fileName.endsWith('/')) continue;
      if (entry.isEncrypted()) throw notADocx();
      const stream: Readable = await zip.openReadStreamPromise(entry);
      // Nothing kept: the loop only drains the stream, which fails past the declared size.
      for await (const chunk of stream) void chunk;
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw notADocx();
  } finally {
    zip.close();
  }
}
