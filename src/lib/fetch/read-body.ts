/**
 * Reads a response body, decompressing it as it streams and counting the decompressed bytes, so a
 * lying Content-Length or a compression bomb stops at the first chunk over the cap rather than
 * after buffering it.
 */
import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { ImportError } from '../import-readers/import-error.js';
import { responseTooLarge, type ByteBudget } from './byte-budget.js';

export const ACCEPT_ENCODING = 'gzip, deflate, br';

export async function readBody(response: IncomingMessage, url: URL, maxBytes: number, budget: ByteBudget): Promise<Uint8Array> {
  const decoders = decodersFor(response.headers['content-encoding'], url);
  const body = (decoders.length > 0 ? pipeline([response, ...decoders], () => {}) : response) as Readable;
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop (a throw) destroys `body`, and pipeline then destroys the response with it.
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw responseTooLarge(url, maxBytes);
    budget.take(chunk.length);
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks, size);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The decoders undoing `Content-Encoding`, in the order to apply them (the last coding first). */
export function decodersFor(header: string | undefined, url: URL): Transform[] {
  const codings = (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== 'identity');
  return codings.reverse().map((coding) => {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return zlib.createGunzip();
      case 'deflate':
        return zlib.createInflate();
      case 'br':
        return zlib.createBrotliDecompress();
      default:
        throw new ImportError('FETCH_ERROR', `The response from ${url.host} uses a compression imports cannot read.`);
    }
  });
}
