/** Custom fonts: reading uploaded WOFF/WOFF2 files with fontkit, and validating font definitions. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { create } from 'fontkit';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.js';
import {
  fontDefinitionSchema,
  mergeFontFaces,
  validateFontInput,
  type FontInputMode,
} from '../src/lib/fonts/index.js';
import { readFontFile } from '../src/lib/fonts/read-font-file.js';

const require = createRequire(import.meta.url);
const interFiles = join(dirname(require.resolve('@fontsource/inter/package.json')), 'files');
const inter = (name: string) => new Uint8Array(readFileSync(join(interFiles, name)));

/** The AppError thrown by `fn`, or a failure when it does not throw one. */
function appError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

/** Asserts a 400 on the field `file` whose message matches. */
function expectRefused(bytes: Uint8Array, message: RegExp, options?: { maxBytes?: number }) {
  const error = appError(() => readFontFile(bytes, options));
  expect(error.status).toBe(400);
  expect(error.code).toBe('BAD_REQUEST');
  expect(error.field).toBe('file');
  expect(error.message).toMatch(/^Invalid value for "file": /);
  expect(error.message).toMatch(message);
  return error;
}

// --- A WOFF 1.0 codec written independently of the code under test, to craft hostile files. ---

type Tables = Array<[tag: string, data: Uint8Array]>;

function unpackWoff(bytes: Uint8Array): Tables {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables: Tables = [];
  for (let i = 0; i < view.getUint16(12); i++) {
    const at = 44 + 20 * i;
    const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
    const [offset, compLength, origLength] = [view.getUint32(at + 4), view.getUint32(at + 8), view.getUint32(at + 12)];
    const stored = bytes.subarray(offset, offset + compLength);
    tables.push([tag, compLength < origLength ? new Uint8Array(inflateSync(stored)) : stored.slice()]);
  }
  return tables;
}

/** Packs tables uncompressed into a WOFF file (flavor TrueType unless given). */
function packWoff(tables: Tables, flavor = 0x00010000): Uint8Array {
  const padded = (n: number) => (n + 3) & ~3;
  const dataStart = 44 + 20 * tables.length;
  const length = dataStart + tables.reduce((sum, [, data]) => sum + padded(data.length), 0);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  out.set([...'wOFF'].map((c) => c.charCodeAt(0)), 0);
  view.setUint32(4, flavor);
  view.setUint32(8, length);
  view.setUint16(12, tables.length);
  view.setUint32(16, 12 + 16 * tables.length + (length - dataStart));
  view.setUint16(20, 1);
  let offset = dataStart;
  tables.forEach(([tag, data], i) => {
    const at = 44 + 20 * i;
    out.set([...tag].map((c) => c.charCodeAt(0)), at);
    view.setUint32(at + 4, offset);
    view.setUint32(at + 8, data.length);
    view.setUint32(at + 12, data.length);
    out.set(data, offset);
    offset += padded(data.length);
  });
  return out;
}

/** Inter Regular (latin) as WOFF, with one table changed by `edit`. */
function interWith(tag: string, edit: (data: Uint8Array, view: DataView) => Uint8Array | void): Uint8Array {
  const tables = unpackWoff(inter('inter-latin-400-normal.woff')).map(([t, data]): [string, Uint8Array] => {
    if (t !== tag) return [t, data];
    const copy = data.slice();
    return [t, edit(copy, new DataView(copy.buffer)) ?? copy];
  });
  return packWoff(tables);
}

/** Deterministic pseudo-random bytes. */
function noise(length: number, seed = 7): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

describe('readFontFile: real WOFF and WOFF2 files', () => {
  it('reads Inter Regular (WOFF2) as fontkit sees it', () => {
    const bytes = inter('inter-latin-400-normal.woff2');
    expect(readFontFile(bytes)).toEqual({
      format: 'woff2',
      contentType: 'font/woff2',
      family: 'Inter',
      subfamily: 'Regular',
      weight: 400,
      italic: false,
    });
    const font = create(Buffer.from(bytes)) as unknown as { familyName: string; numGlyphs: number };
    expect(font.familyName).toBe('Inter');
    expect(font.numGlyphs).toBeGreaterThan(0);
  });

  it('reads Inter Bold Italic (WOFF)', () => {
    expect(readFontFile(inter('inter-latin-700-italic.woff'))).toEqual({
      format: 'woff',
      contentType: 'font/woff',
      family: 'Inter',
      subfamily: 'Bold Italic',
      weight: 700,
      italic: true,
    });
  });

  it('prefers the typographic family (nameID 16) over the legacy one (nameID 1)', () => {
    const bytes = inter('inter-greek-300-normal.woff2');
    const font = create(Buffer.from(bytes)) as unknown as { getName(key: string): string | null };
    // In this file the legacy family is "Inter Light"; the typographic family is "Inter".
    expect(font.getName('fontFamily')).toBe('Inter Light');
    expect(font.getName('preferredFamily')).toBe('Inter');
    expect(readFontFile(bytes)).toMatchObject({ family: 'Inter', subfamily: 'Light', weight: 300, italic: false });
  });

  it('reads the weight and style of every Inter file of the latin subset, as the files state them', () => {
    // The WOFF builds carry only the legacy names (nameID 1/2); the WOFF2 builds add nameID 16/17.
    const legacyFamily: Record<number, string> = {
      100: 'Inter Thin', 200: 'Inter ExtraLight', 300: 'Inter Light', 400: 'Inter', 500: 'Inter Medium',
      600: 'Inter SemiBold', 700: 'Inter', 800: 'Inter ExtraBold', 900: 'Inter Black',
    };
    // Inter sets usWeightClass 250 on Thin and ExtraLight (a Windows GDI workaround).
    const weightClass = (weight: number) => (weight <= 200 ? 250 : weight);
    for (const weight of [100, 200, 300, 400, 500, 600, 700, 800, 900]) {
      for (const style of ['normal', 'italic'] as const) {
        for (const format of ['woff', 'woff2'] as const) {
          const info = readFontFile(inter(`inter-latin-${weight}-${style}.${format}`));
          expect(info, `${weight} ${style} ${format}`).toMatchObject({
            format,
            contentType: `font/${format}`,
            family: format === 'woff2' ? 'Inter' : legacyFamily[weight],
            weight: weightClass(weight),
            italic: style === 'italic',
          });
        }
      }
    }
    expect(readFontFile(inter('inter-latin-900-italic.woff2')).subfamily).toBe('Black Italic');
    expect(readFontFile(inter('inter-latin-900-italic.woff')).subfamily).toBe('Italic');
  });

  it('reads other subsets too (cyrillic, vietnamese)', () => {
    expect(readFontFile(inter('inter-cyrillic-500-normal.woff2'))).toMatchObject({ family: 'Inter', weight: 500 });
    expect(readFontFile(inter('inter-vietnamese-800-italic.woff'))).toMatchObject({ weight: 800, italic: true });
  });

  it('accepts a WOFF rebuilt from the same tables, and reads edited OS/2 and head fields', () => {
    const original = inter('inter-latin-400-normal.woff');
    expect(readFontFile(packWoff(unpackWoff(original)))).toEqual(readFontFile(original));
    // usWeightClass lives at offset 4 of OS/2; any value 1-1000 is a CSS weight.
    expect(readFontFile(interWith('OS/2', (_, view) => view.setUint16(4, 950))).weight).toBe(950);
    // Italic from OS/2 fsSelection bit 0 (offset 62) or from head.macStyle bit 1 (offset 44).
    expect(readFontFile(interWith('OS/2', (_, view) => view.setUint16(62, view.getUint16(62) | 1))).italic).toBe(true);
    expect(readFontFile(interWith('head', (_, view) => view.setUint16(44, view.getUint16(44) | 2))).italic).toBe(true);
  });
});

describe('readFontFile: refusals', () => {
  const regular2 = inter('inter-latin-400-normal.woff2');
  const regular = inter('inter-latin-400-normal.woff');

  it('refuses raw TrueType and OpenType files', () => {
    const katexTtf = (() => {
      try {
        return join(dirname(require.resolve('katex/package.json')), 'dist/fonts/KaTeX_Main-Regular.ttf');
      } catch {
        return '';
      }
    })();
    if (katexTtf && existsSync(katexTtf)) {
      const ttf = new Uint8Array(readFileSync(katexTtf));
      expect(ttf.subarray(0, 4)).toEqual(new Uint8Array([0, 1, 0, 0]));
      expectRefused(ttf, /raw TrueType\/OpenType/);
    }
    // An sfnt header of either flavour, followed by the rest of a real font, is refused as well.
    for (const magic of [[0, 1, 0, 0], [0x4f, 0x54, 0x54, 0x4f], [0x74, 0x74, 0x63, 0x66]]) {
      const fake = regular.slice();
      fake.set(magic, 0);
      expectRefused(fake, /raw TrueType\/OpenType/);
    }
  });

  it('refuses random bytes, empty input and non-bytes', () => {
    expectRefused(noise(4096), /not a WOFF or WOFF2 font/);
    expectRefused(new Uint8Array(0), /empty/);
    expectRefused('wOF2' as unknown as Uint8Array, /expected the bytes/);
  });

  it('refuses random bytes behind a valid signature', () => {
    for (const magic of ['wOFF', 'wOF2']) {
      const bytes = noise(4096, magic.length + magic.charCodeAt(3));
      bytes.set([...magic].map((c) => c.charCodeAt(0)), 0);
      expectRefused(bytes, /the file is truncated/);
    }
  });

  it('refuses an HTML page renamed .woff2', () => {
    const html = new TextEncoder().encode('<!DOCTYPE html><html><head><title>404</title></head><body>Not found</body></html>');
    expectRefused(html, /HTML document/);
    expectRefused(new TextEncoder().encode('\n  <html>'), /HTML document/);
  });

  it('refuses truncated files', () => {
    expectRefused(regular2.subarray(0, regular2.length >> 1), /truncated/);
    expectRefused(regular2.subarray(0, 30), /truncated/);
    expectRefused(regular.subarray(0, regular.length - 1), /truncated/);
    // Truncated, with the declared length patched to match: the compressed stream is cut short.
    const cut = regular2.slice(0, regular2.length - 200);
    new DataView(cut.buffer).setUint32(8, cut.length);
    expectRefused(cut, /truncated|corrupt/);
  });

  it('refuses corrupt compressed data', () => {
    const woff2 = regular2.slice();
    woff2.fill(0xa5, woff2.length >> 1, (woff2.length >> 1) + 64);
    expectRefused(woff2, /corrupt/);
    // A compressed table of a WOFF whose deflate stream is damaged.
    const view = new DataView(regular.buffer, regular.byteOffset, regular.byteLength);
    const woff = regular.slice();
    for (let i = 0; i < view.getUint16(12); i++) {
      const at = 44 + 20 * i;
      if (String.fromCharCode(...regular.subarray(at, at + 4)) === 'glyf') {
        woff.fill(0xff, view.getUint32(at + 4) + 2, view.getUint32(at + 4) + 40);
      }
    }
    expectRefused(woff, /"glyf" is corrupt/);
  });

  it('refuses files over the size limit (10 MiB by default) before parsing them', () => {
    expectRefused(regular2, /more than the 1000 bytes accepted/, { maxBytes: 1000 });
    expect(readFontFile(regular2, { maxBytes: regular2.length }).family).toBe('Inter');
    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set(regular2, 0);
    expectRefused(huge, /more than the 10485760 bytes accepted/);
  });

  it('refuses decompression bombs announced by the header', () => {
    const bomb = regular2.slice();
    new DataView(bomb.buffer).setUint32(16, 0xffffffff); // totalSfntSize
    expectRefused(bomb, /decompresses to more than 32 MiB/);
    // A WOFF table claiming 1 GiB once inflated.
    const woff = regular.slice();
    new DataView(woff.buffer).setUint32(44 + 12, 1 << 30);
    expectRefused(woff, /decompresses to more than/);
  });

  it('refuses a name table whose records all point at one large string (decoding bomb)', () => {
    const count = 65535;
    const storage = 6 + 12 * count;
    const name = new Uint8Array(storage + 65535);
    const view = new DataView(name.buffer);
    view.setUint16(2, count);
    view.setUint16(4, storage);
    for (let i = 0; i < count; i++) {
      const at = 6 + 12 * i;
      view.setUint16(at, 3);
      view.setUint16(at + 2, 1);
      view.setUint16(at + 4, 0x409);
      view.setUint16(at + 6, 1);
      view.setUint16(at + 8, 65535);
    }
    const started = Date.now();
    expectRefused(interWith('name', () => name), /"name" table is too large/);
    expect(Date.now() - started).toBeLessThan(2000);
    expectRefused(interWith('name', (_, v) => v.setUint16(4, 0xfff0)), /"name" table points outside itself/);
  });

  it('refuses fonts with missing, corrupt or inconsistent tables', () => {
    const without = (tag: string) => packWoff(unpackWoff(regular).filter(([t]) => t !== tag));
    expectRefused(without('OS/2'), /lacks the required table\(s\) "OS\/2"/);
    expectRefused(without('cmap'), /"cmap"/);
    expectRefused(packWoff(unpackWoff(regular).filter(([t]) => t !== 'glyf' && t !== 'loca')), /no glyph data/);
    expectRefused(interWith('head', (_, v) => v.setUint32(12, 0)), /"head" table is corrupt/);
    expectRefused(interWith('maxp', (_, v) => v.setUint16(4, 0)), /the font has no glyphs/);
    expectRefused(interWith('OS/2', (_, v) => v.setUint16(4, 0)), /weight class 0 is outside 1-1000/);
    expectRefused(interWith('OS/2', (_, v) => v.setUint16(4, 1001)), /weight class 1001/);
    expectRefused(interWith('hmtx', (data) => data.subarray(0, 8)), /"hmtx" table is truncated/);
    expectRefused(
      interWith('loca', (data, v) => {
        v.setUint32(data.length - 4, 0x7fffffff); // last offset far beyond glyf (long offsets)
      }),
      /"loca" table is inconsistent/,
    );
    expectRefused(packWoff(unpackWoff(regular), 0x74746366), /collections are not supported/);
  });
});

describe('validateFontInput', () => {
  const face = (weight: unknown, storageKey: unknown = `fonts/${String(weight)}.woff2`) => ({ weight, storageKey });

  function expectInvalid(input: unknown, mode: FontInputMode, field: string | undefined, message?: RegExp) {
    const error = appError(() => validateFontInput(input, mode));
    expect(error.status).toBe(400);
    expect(error.field).toBe(field);
    if (field) expect(error.message).toContain(`"${field}"`);
    if (message) expect(error.message).toMatch(message);
  }

  it('accepts a create body with the regular face, trimming the family', () => {
    const input = { fontFamily: '  Brand Sans ', fontFaces: [face(700), face(400)], extra: true };
    expect(validateFontInput(input, 'create')).toEqual({ fontFamily: 'Brand Sans', fontFaces: [face(700), face(400)] });
    expect(validateFontInput({ fontFamily: 'x'.repeat(50), fontFaces: [face(400)] }, 'create').fontFamily).toHaveLength(50);
    expect(validateFontInput({ fontFamily: 'A', fontFaces: [face(1), face(400), face(1000)] }, 'create').fontFaces).toHaveLength(3);
  });

  it.each([
    ['no body', null, undefined],
    ['missing family', { fontFaces: [face(400)] }, 'fontFamily'],
    ['blank family', { fontFamily: '   ', fontFaces: [face(400)] }, 'fontFamily'],
    ['family of 51 characters', { fontFamily: 'x'.repeat(51), fontFaces: [face(400)] }, 'fontFamily'],
    ['family breaking out of CSS', { fontFamily: 'A"; } body { x', fontFaces: [face(400)] }, 'fontFamily'],
    ['family with a newline', { fontFamily: 'A\nB', fontFaces: [face(400)] }, 'fontFamily'],
    ['missing faces', { fontFamily: 'A' }, 'fontFaces'],
    ['no faces', { fontFamily: 'A', fontFaces: [] }, 'fontFaces'],
    ['no regular face', { fontFamily: 'A', fontFaces: [face(700)] }, 'fontFaces', /weight 400 \(regular\) is required/],
    ['duplicate weight', { fontFamily: 'A', fontFaces: [face(400), face(700), face(700, 'k')] }, 'fontFaces.2.weight', /more than once/],
    ['weight 0', { fontFamily: 'A', fontFaces: [face(400), face(0)] }, 'fontFaces.1.weight'],
    ['weight 1001', { fontFamily: 'A', fontFaces: [face(1001), face(400)] }, 'fontFaces.0.weight'],
    ['fractional weight', { fontFamily: 'A', fontFaces: [face(400.5)] }, 'fontFaces.0.weight'],
    ['weight as text', { fontFamily: 'A', fontFaces: [face('400')] }, 'fontFaces.0.weight'],
    ['missing storage key', { fontFamily: 'A', fontFaces: [{ weight: 400 }] }, 'fontFaces.0.storageKey'],
    ['null storage key', { fontFamily: 'A', fontFaces: [face(400, null)] }, 'fontFaces.0.storageKey'],
    ['empty storage key', { fontFamily: 'A', fontFaces: [face(400, '')] }, 'fontFaces.0.storageKey'],
    ['storage key over 512', { fontFamily: 'A', fontFaces: [face(400, 'k'.repeat(513))] }, 'fontFaces.0.storageKey'],
  ])('refuses on create: %s', (_, input, field, message?: RegExp) => {
    expectInvalid(input, 'create', field, message);
  });

  it('accepts update bodies: nothing, a new family, replacing and removing weights', () => {
    expect(validateFontInput({}, 'update')).toEqual({});
    expect(validateFontInput({ fontFamily: 'Renamed' }, 'update')).toEqual({ fontFamily: 'Renamed' });
    const fontFaces = [face(700, null), face(400, 'fonts/new-regular.woff2'), face(300)];
    expect(validateFontInput({ fontFaces }, 'update')).toEqual({ fontFaces });
  });

  it.each([
    ['removing the regular face', { fontFaces: [face(700), face(400, null)] }, 'fontFaces.1.storageKey', /cannot be removed/],
    ['duplicate weight', { fontFaces: [face(700), face(700, null)] }, 'fontFaces.1.weight', /more than once/],
    ['blank family', { fontFamily: '' }, 'fontFamily'],
    ['null family', { fontFamily: null }, 'fontFamily'],
    ['missing storage key', { fontFaces: [{ weight: 700 }] }, 'fontFaces.0.storageKey'],
    ['weight out of range', { fontFaces: [face(2000, null)] }, 'fontFaces.0.weight'],
    ['faces not a list', { fontFaces: { weight: 400 } }, 'fontFaces'],
  ])('refuses on update: %s', (_, input, field, message?: RegExp) => {
    expectInvalid(input, 'update', field, message);
  });
});

describe('mergeFontFaces', () => {
  const current = [
    { weight: 700, storageKey: 'bold' },
    { weight: 400, storageKey: 'regular' },
  ];

  it('replaces, adds and removes weights, ordered by weight', () => {
    expect(
      mergeFontFaces(current, [
        { weight: 700, storageKey: null },
        { weight: 300, storageKey: 'light' },
        { weight: 400, storageKey: 'regular-2' },
        { weight: 900, storageKey: null },
      ]),
    ).toEqual([
      { weight: 300, storageKey: 'light' },
      { weight: 400, storageKey: 'regular-2' },
    ]);
    expect(current).toHaveLength(2);
  });

  it('never leaves a font without its regular face', () => {
    const error = appError(() => mergeFontFaces(current, [{ weight: 400, storageKey: null }]));
    expect(error.status).toBe(400);
    expect(error.field).toBe('fontFaces');
  });
});

describe('fontDefinitionSchema (site customization)', () => {
  const definition = {
    id: 'font_1',
    custom: true,
    fontFamily: 'Inter',
    fontFaces: [{ weight: 400, sources: [{ url: 'https://files.example.com/inter-400.woff2', format: 'woff2' }] }],
  };

  it('accepts the public shape and refuses unknown formats and script URLs', () => {
    expect(fontDefinitionSchema.parse(definition)).toEqual(definition);
    expect(fontDefinitionSchema.safeParse({ ...definition, fontFaces: [{ weight: 400, sources: [{ url: '/fonts/a.woff' }] }] }).success).toBe(true);
    expect(fontDefinitionSchema.safeParse({ ...definition, fontFaces: [{ weight: 400, sources: [{ url: '/a', format: 'ttf' }] }] }).success).toBe(false);
    expect(fontDefinitionSchema.safeParse({ ...definition, fontFaces: [{ weight: 400, sources: [{ url: 'javascript:alert(1)' }] }] }).success).toBe(false);
    expect(fontDefinitionSchema.safeParse({ ...definition, fontFaces: [{ weight: 400, sources: [] }] }).success).toBe(false);
  });
});
