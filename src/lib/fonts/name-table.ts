/**
 * Structural check of the `name` table before fontkit decodes it: every string lies inside the table,
 * and the records (which may all point at the same storage) cannot make decoding cost more than a bound.
 */
import { ByteReader } from './byte-reader.js';
import { fontFileError } from './file-error.js';
import { MAX_NAME_STRING_BYTES } from './limits.js';

export function checkNameTable(data: Uint8Array): void {
  const reader = new ByteReader(data, 0, 'the "name" table');
  const format = reader.u16();
  const count = reader.u16();
  const storage = reader.u16();
  if (format > 1) throw fontFileError('the "name" table has an unknown format');
  let budget = MAX_NAME_STRING_BYTES;
  const spend = (length: number, offset: number) => {
    if (storage + offset + length > data.length) throw fontFileError('the "name" table points outside itself');
    budget -= length;
    if (budget < 0) throw fontFileError('the "name" table is too large');
  };
  for (let i = 0; i < count; i++) {
    reader.skip(8); // platformID, encodingID, languageID, nameID
    spend(reader.u16(), reader.u16());
  }
  if (format === 1) {
    const langTags = reader.u16();
    for (let i = 0; i < langTags; i++) spend(reader.u16(), reader.u16());
  }
}
