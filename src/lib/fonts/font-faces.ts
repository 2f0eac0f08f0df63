/** Applies an update's `fontFaces` to a font's current faces: a key replaces, null removes. */
import { badRequest } from '../errors.js';
import { REGULAR_WEIGHT } from './font-input.js';

export interface FontFaceRef {
  weight: number;
  storageKey: string;
}

export interface FontFaceChange {
  weight: number;
  storageKey: string | null;
}

/** The resulting faces, ordered by weight. Removing a weight the font lacks changes nothing. */
export function mergeFontFaces(current: readonly FontFaceRef[], changes: readonly FontFaceChange[]): FontFaceRef[] {
  const byWeight = new Map(current.map((face) => [face.weight, face.storageKey]));
  for (const { weight, storageKey } of changes) {
    if (storageKey === null) byWeight.delete(weight);
    else byWeight.set(weight, storageKey);
  }
  if (!byWeight.has(REGULAR_WEIGHT)) {
    throw badRequest(`A font face with weight ${REGULAR_WEIGHT} (regular) is required`, 'fontFaces');
  }
  return [...byWeight].map(([weight, storageKey]) => ({ weight, storageKey })).sort((a, b) => a.weight - b.weight);
}
