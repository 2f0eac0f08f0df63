/** The first bytes decide: only WOFF (`wOFF`) and WOFF2 (`wOF2`) are font uploads we accept. */
import type { FontFormat } from './container.js';
import { fontFileError } from './file-error.js';

const ascii = (bytes: Uint8Array, length: number) => String.fromCharCode(...bytes.subarray(0, length));

export function describeSignature(bytes: Uint8Array): FontFormat {
  const magic = ascii(bytes, 4);
  if (magic === 'wOFF') return 'woff';
  if (magic === 'wOF2') return 'woff2';
  if (magic === '\u0000\u0001\u0000\u0000' || magic === 'OTTO' || magic === 'true' || magic === 'ttcf') {
    throw fontFileError('raw TrueType/OpenType files are not accepted; convert the font to WOFF2 (or WOFF)');
  }
  if (/^\s*</.test(ascii(bytes, 64))) throw fontFileError('this is a text or HTML document, not a WOFF/WOFF2 font');
  throw fontFileError('not a WOFF or WOFF2 font');
}
