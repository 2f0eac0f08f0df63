/**
 * Reads a zip archive held in memory, defensively: entry names are checked before anything is
 * inflated, symlinks are refused, and the bytes actually inflated are counted while streaming
 * (an entry's header may lie about its size), so a zip bomb stops at the first byte over a limit.
 */
import type { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ImportError } from '../import-error.js';
import type { ImportLimits } from '../tree.js';
import { isSkipped, isSymlink, refuseSymlink, safeEntryPath } from './entry-path.js';

/**
 * A file of the archive; `bytes` only for the entries the caller wanted read, and `reread` to
 * inflate them again from the archive later (the same bytes: they were read and checked once),
 * so a caller may drop them meanwhile.
 */
export type ZipEntry = { path: string; bytes?: Uint8Array; reread?: () => Uint8Array };

export type ReadEntriesOptions = {
  limits: Pick<ImportLimits, 'maxZipEntries' | 'maxResponseBytes' | 'maxTotalBytes'>;
  signal?: AbortSignal;
  progress?: (done: number, total?: number) => void;
  /** Whether to inflate this (safe, not skipped) path; the others are listed without being read. */
  wanted: (path: string) => boolean;
};

const notAZip = () => new ImportError('PARSE_ERROR', 'The file is not a zip archive, or the archive is corrupt.');

/**
 * The archive's files in archive order, directories and clutter left out (entry-path.ts). Throws
 * PARSE_ERROR (not a zip, corrupt, unsafe path, symlink, encrypted), TOO_LARGE, or the signal's
 * reason once aborted.
 */
export async function readZipEntries(bytes: Uint8Array, options: ReadEntriesOptions): Promise<ZipEntry[]> {
  const { limits } = options;
  let zip: ZipFile;
  const zipBytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    // decodeStrings off: yauzl would turn `\` into `/` and reject bad names with its own message.
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch {
    throw notAZip();
  }
  // yauzl reads exactly the count of the end record, so checking it bounds the loop below.
  if (zip.entryCount > limits.maxZipEntries) {
    zip.close();
    throw new ImportError('TOO_LARGE', `The zip archive has ${zip.entryCount} entries; imports read at most ${limits.maxZipEntries}.`);
  }
  const budget = { total: 0 };
  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  try {
    let done = 0;
    for await (const entry of zip.eachEntry()) {
      throwIfAborted(options.signal);
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const path = safeEntryPath(name);
      if (isSymlink(entry.externalFileAttributes)) refuseSymlink(name);
      if (!isSkipped(path) && !seen.has(path)) {
        seen.add(path);
        entries.push(options.wanted(path) ? { path, bytes: await inflate(zip, zipBytes, entry, path, limits, budget, options.signal), reread: rereader(zipBytes, entry) } : { path });
      }
      options.progress?.(++done, zip.entryCount);
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw notAZip();
  } finally {
    zip.close();
  }
  return entries;
}

/**
 * An entry's bytes read again from the archive, synchronously: its size was checked when it was
 * first inflated, and bounds this inflation too.
 */
function rereader(archive: Buffer, entry: Entry): () => Uint8Array {
  const { relativeOffsetOfLocalHeader, compressedSize, compressionMethod, uncompressedSize } = entry;
  return () => inflateAt(archive, { relativeOffsetOfLocalHeader, compressedSize, compressionMethod, uncompressedSize });
}

type Located = Pick<Entry, 'relativeOffsetOfLocalHeader' | 'compressedSize' | 'compressionMethod' | 'uncompressedSize'>;

/**
 * An entry's bytes inflated in one call from the archive: its local header (checked) gives where
 * its data starts; the inflation stops past the size its central header declares (a larger
 * result is a corrupt or lying entry). Throws RangeError or a zlib error for a bad entry.
 */
function inflateAt(archive: Buffer, entry: Located): Uint8Array {
  const offset = entry.relativeOffsetOfLocalHeader;
  if (offset + 30 > archive.length || archive.readUInt32LE(offset) !== LOCAL_HEADER_SIGNATURE) throw new RangeError('no local header');
  const start = offset + 30 + archive.readUInt16LE(offset + 26) + archive.readUInt16LE(offset + 28);
  if (start + entry.compressedSize > archive.length) throw new RangeError('entry past the archive');
  const data = archive.subarray(start, start + entry.compressedSize);
  if (entry.compressionMethod === 0) return data;
  // zlib's output chunk sized to the entry: with its default (16 KB, from Buffer's pool) the result
  // is a slice that keeps the whole chunk alive — 16 KB held per page of 1–2 KB while the archive's
  // pages are read. One byte more than the entry, so that a full chunk never makes zlib take another.
  return inflateRawSync(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1), chunkSize: Math.max(entry.uncompressedSize + 1, 64) });
}

const LOCAL_HEADER_SIGNATURE = 0x04034b50;

/**
 * Entries this small are inflated in one call (inflateAt) rather than through a stream: a stream
 * hands out 16 KB chunks, garbage once copied — for 10,000 pages, 160 MB of array buffers before a
 * collection. Larger ones stream, so the event loop is never held long.
 */
const INFLATE_AT_ONCE_BYTES = 256 * 1024;

async function inflate(
  zip: ZipFile,
  archive: Buffer,
  entry: Entry,
  path: string,
  limits: ReadEntriesOptions['limits'],
  budget: { total: number },
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  const name = JSON.stringify(path);
  if (entry.isEncrypted()) throw new ImportError('PARSE_ERROR', `The zip entry ${name} is encrypted.`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new ImportError('PARSE_ERROR', `The zip entry ${name} uses a compression method imports do not read (only stored and deflated entries).`);
  }
  const entryTooLarge = () => new ImportError('TOO_LARGE', `The zip entry ${name} is larger than ${formatBytes(limits.maxResponseBytes)} uncompressed.`);
  const totalTooLarge = () => new ImportError('TOO_LARGE', `The zip archive's files add up to more than ${formatBytes(limits.maxTotalBytes)} uncompressed.`);
  // The header's claim refuses an honest bomb without inflating it; the count below catches a lying one.
  if (entry.uncompressedSize > limits.maxResponseBytes) throw entryTooLarge();
  if (budget.total + entry.uncompressedSize > limits.maxTotalBytes) throw totalTooLarge();

  const corrupt = () => new ImportError('PARSE_ERROR', `The zip entry ${name} could not be read: the archive is corrupt.`);
  if (entry.uncompressedSize <= INFLATE_AT_ONCE_BYTES && entry.compressedSize <= INFLATE_AT_ONCE_BYTES) {
    let bytes: Uint8Array;
    try {
      bytes = inflateAt(archive, entry);
    } catch {
      throw corrupt();
    }
    // As yauzl's validateEntrySizes: the declared size, exactly (it was counted against the limits above).
    if (bytes.byteLength !== entry.uncompressedSize) throw corrupt();
    budget.total += bytes.byteLength;
    throwIfAborted(signal);
    return bytes;
  }
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch {
    throw corrupt();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Leaving this loop early (throw) destroys the stream, which stops the inflation.
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      budget.total += chunk.length;
      if (size > limits.maxResponseBytes) throw entryTooLarge();
      if (budget.total > limits.maxTotalBytes) throw totalTooLarge();
      throwIfAborted(signal);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw corrupt();
  }
  const joined = Buffer.concat(chunks, size);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  throw signal.reason instanceof ImportError ? signal.reason : new ImportError('CANCELLED', 'The import was cancelled.');
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
