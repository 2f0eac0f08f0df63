/** Family, style and weight of a decoded font, as CSS @font-face needs them. */
import { fontFileError } from './file-error.js';
import type { FontkitFont } from './fontkit-font.js';

export interface FontMetadata {
  /** Typographic family (nameID 16), else the legacy family (nameID 1). */
  family: string;
  /** Typographic subfamily (nameID 17), else nameID 2; null when absent. */
  subfamily: string | null;
  /** OS/2 usWeightClass, 1-1000. */
  weight: number;
  italic: boolean;
}

export function readFontMetadata(font: FontkitFont): FontMetadata {
  const family = nameString(font, 'preferredFamily') ?? nameString(font, 'fontFamily');
  if (!family) throw fontFileError('the font has no family name');
  const subfamily = nameString(font, 'preferredSubfamily') ?? nameString(font, 'fontSubfamily');
  const os2 = font['OS/2']!;
  const weight = os2.usWeightClass;
  if (!Number.isInteger(weight) || weight < 1 || weight > 1000) {
    throw fontFileError(`the font's weight class ${weight} is outside 1-1000`);
  }
  const italic = Boolean(os2.fsSelection?.italic || font.head?.macStyle?.italic);
  return { family, subfamily, weight, italic };
}

/** A name record as clean text: undecodable records (fontkit gives a Buffer) and blank ones count as absent. */
function nameString(font: FontkitFont, key: string): string | null {
  const value = font.getName(key);
  if (typeof value !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return text.length > 0 ? text : null;
}
