/**
 * WOFF 1.0 container (https://www.w3.org/TR/WOFF/): checks the header and table directory,
 * then inflates every table natively, refusing tables that do not inflate to their declared size.
 */
import { inflateSync } from 'node:zlib';
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

export function readWoff(bytes: Uint8Array): FontContainer {
  const header = new ByteReader(bytes, 4);
  const flavor = header.u32();
  const length = header.u32();
  const numTables = header.u16();
  const reserved = header.u16();
  const totalSfntSize = header.u32();
  header.skip(4); // majorVersion, minorVersion
  const [metaOffset, metaLength] = [header.u32(), header.u32()];
  header.skip(4); // metaOrigLength
  const [privOffset, privLength] = [header.u32(), header.u32()];

  checkDeclaredLength(length, bytes.length);
  checkFlavor(flavor);
  if (reserved !== 0) throw fontFileError('the WOFF header is malformed');
  checkTableCount(numTables);
  checkDecodedTotal(totalSfntSize);
  checkBlock(metaOffset, metaLength, length, 'metadata');
  checkBlock(privOffset, privLength, length, 'private data');

  const tables = new Map<string, SfntTable>();
  let total = 0;
  for (let i = 0; i < numTables; i++) {
    const tag = header.tag();
    const [offset, compLength, origLength] = [header.u32(), header.u32(), header.u32()];
    header.skip(4); // origChecksum
    if (tables.has(tag)) throw fontFileError(`the table "${tag}" occurs twice`);
    if (offset + compLength > length) throw fontFileError(`the table "${tag}" lies outside the file`);
    if (compLength > origLength) throw fontFileError(`the table "${tag}" is larger compressed than uncompressed`);
    total += origLength;
    checkDecodedTotal(total);
    const stored = bytes.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateTable(stored, origLength, tag) : stored;
    tables.set(tag, { data, transformed: false });
  }
  return { format: 'woff', tables };
}

function inflateTable(stored: Uint8Array, origLength: number, tag: string): Uint8Array {
  let data: Uint8Array;
  try {
    data = inflateSync(stored, { maxOutputLength: origLength });
  } catch {
    throw fontFileError(`the table "${tag}" is corrupt (its compressed data does not inflate)`);
  }
  if (data.length !== origLength) throw fontFileError(`the table "${tag}" is corrupt (wrong decompressed size)`);
  return data;
}
