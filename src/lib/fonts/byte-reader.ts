/** Bounds-checked big-endian reads over font bytes; reading past the end means the data is truncated. */
import { fontFileError } from './file-error.js';

export class ByteReader {
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    public pos = 0,
    private readonly what = 'the file',
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private take(n: number): number {
    if (this.pos + n > this.bytes.length) throw fontFileError(`${this.what} is truncated`);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  skip(n: number): void {
    this.take(n);
  }

  u8(): number {
    return this.view.getUint8(this.take(1));
  }

  u16(): number {
    return this.view.getUint16(this.take(2));
  }

  i16(): number {
    return this.view.getInt16(this.take(2));
  }

  u32(): number {
    return this.view.getUint32(this.take(4));
  }

  /** A four-character table tag. */
  tag(): string {
    const at = this.take(4);
    return String.fromCharCode(...this.bytes.subarray(at, at + 4));
  }

  /** WOFF2 UIntBase128: 1-5 bytes, no leading zero byte, at most 2^32 - 1. */
  base128(): number {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8();
      if (i === 0 && byte === 0x80) throw fontFileError('the WOFF2 table directory is malformed');
      value = value * 128 + (byte & 0x7f);
      if (value > 0xffffffff) throw fontFileError('the WOFF2 table directory is malformed');
      if ((byte & 0x80) === 0) return value;
    }
    throw fontFileError('the WOFF2 table directory is malformed');
  }
}
