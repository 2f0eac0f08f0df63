/**
 * WOFF2 container (https://www.w3.org/TR/WOFF2/): checks the header and table directory,
 * then brotli-decompresses the table stream natively to exactly the size the directory announces.
 */
import { brotliDecompressSync } from 'node:zlib';
import { ByteReader } from './byte-reader.js';
import { fontFileError } from './file-error.js';
import {
  checkBlock,
  checkDeclaredLength,
  checkDecodedTotal,
  checkFlavor,
  checkTableCount,
  type FontContainer,
  type SfntTable,
} from './container.js';

/** Tags addressed by the low six bits of an entry's flags (index 63 means an explicit tag follows). */
const KNOWN_TAGS = [
  'cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ',
  'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS',
  'GSUB', 'EBSC', 'JSTF', 'MATH', 'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt', 'avar', 'bdat', 'bloc',
  'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar', 'gvar', 'hsty', 'just', 'lcar', 'mort', 'morx', 'opbd', 'prop',
  'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill',
];

interface Entry {
  tag: string;
  transformed: boolean;
  /** Bytes the entry occupies in the decompressed stream. */
  size: number;
}

export function readWoff2(bytes: Uint8Array): FontContainer {
  const header = new ByteReader(bytes, 4);
  const flavor = header.u32();
  const length = header.u32();
  const numTables = header.u16();
  const reserved = header.u16();
  const totalSfntSize = header.u32();
  const totalCompressedSize = header.u32();
  header.skip(4); // majorVersion, minorVersion
  const [metaOffset, metaLength] = [header.u32(), header.u32()];
  header.skip(4); // metaOrigLength
  const [privOffset, privLength] = [header.u32(), header.u32()];

  checkDeclaredLength(length, bytes.length);
  checkFlavor(flavor);
  if (reserved !== 0) throw fontFileError('the WOFF2 header is malformed');
  checkTableCount(numTables);
  checkDecodedTotal(totalSfntSize);
  checkBlock(metaOffset, metaLength, length, 'metadata');
  checkBlock(privOffset, privLength, length, 'private data');

  const entries: Entry[] = [];
  let total = 0;
  for (let i = 0; i < numTables; i++) {
    const entry = readEntry(header);
    if (entries.some((e) => e.tag === entry.tag)) throw fontFileError(`the table "${entry.tag}" occurs twice`);
    entries.push(entry);
    total += entry.size;
    checkDecodedTotal(total);
  }
  checkGlyfTransform(entries);

  const start = header.pos;
  if (start + totalCompressedSize > length) throw fontFileError('the file is truncated (compressed data cut short)');
  const stream = decompress(bytes.subarray(start, start + totalCompressedSize), total);

  const tables = new Map<string, SfntTable>();
  let offset = 0;
  for (const { tag, transformed, size } of entries) {
    tables.set(tag, { data: stream.subarray(offset, offset + size), transformed });
    offset += size;
  }
  return { format: 'woff2', tables };
}

function readEntry(reader: ByteReader): Entry {
  const flags = reader.u8();
  const tag = (flags & 0x3f) === 0x3f ? reader.tag() : KNOWN_TAGS[flags & 0x3f];
  const version = flags >> 6;
  const origLength = reader.base128();
  const glyfOrLoca = tag === 'glyf' || tag === 'loca';
  // glyf/loca: version 0 is the glyf transform, 3 the null transform. Others: 0 is the null transform.
  if (glyfOrLoca ? version === 1 || version === 2 : version !== 0) {
    throw fontFileError(`the table "${tag}" uses a WOFF2 transform that is not supported`);
  }
  const transformed = glyfOrLoca && version === 0;
  const size = transformed ? reader.base128() : origLength;
  if (tag === 'loca' && transformed && size !== 0) throw fontFileError('the WOFF2 table directory is malformed');
  return { tag, transformed, size };
}

/** glyf and loca are transformed together or not at all. */
function checkGlyfTransform(entries: Entry[]): void {
  const glyf = entries.find((e) => e.tag === 'glyf');
  const loca = entries.find((e) => e.tag === 'loca');
  if (Boolean(glyf) !== Boolean(loca) || (glyf && loca && glyf.transformed !== loca.transformed)) {
    throw fontFileError('the glyf and loca tables do not match');
  }
}

function decompress(compressed: Uint8Array, expected: number): Uint8Array {
  let stream: Uint8Array;
  try {
    stream = brotliDecompressSync(compressed, { maxOutputLength: Math.max(expected, 1) });
  } catch {
    throw fontFileError('the compressed font data is corrupt');
  }
  if (stream.length !== expected) throw fontFileError('the compressed font data is corrupt (wrong decompressed size)');
  return stream;
}
