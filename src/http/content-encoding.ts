/**
 * Content codings for bodies compressed once and sent many times (GraphiQL's assets, cached
 * published pages): which one a request accepts, and the compression itself, done off the event
 * loop (zlib's thread pool).
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** `bytes` compressed as `encoding`: gzip at its best level, brotli at quality 9 (within 10% of the smallest, 11, at a twelfth of its time). */
export function compress(bytes: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipped(bytes, { level: 9 });
  return brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
}

/** Accept-Encoding values already decided (browsers send a handful of spellings). */
const decided = new Map<string, Encoding | undefined>();

/** The encoding to answer with: brotli before gzip, neither when refused with `;q=0`. */
export function chosenEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  if (decided.has(acceptEncoding)) return decided.get(acceptEncoding);
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)))
      .map(([name]) => name.trim().toLowerCase()),
  );
  const chosen = accepted.has('br') ? 'br' : accepted.has('gzip') || accepted.has('*') ? 'gzip' : undefined;
  if (decided.size < 256 && acceptEncoding.length <= 200) decided.set(acceptEncoding, chosen);
  return chosen;
}
