/** Custom fonts: reading uploaded WOFF/WOFF2 files and validating font definitions. */
// readFontFile (fontkit, about 5 MiB of heap) is imported where a font is uploaded, at first use.
export type { FontFileInfo, ReadFontFileOptions } from './read-font-file.js';
export type { FontFormat } from './container.js';
export { DEFAULT_MAX_FONT_BYTES } from './limits.js';
export {
  validateFontInput,
  createFontSchema,
  updateFontSchema,
  fontFamilySchema,
  fontWeightSchema,
  storageKeySchema,
  REGULAR_WEIGHT,
  type CreateFontInput,
  type UpdateFontInput,
  type FontInputMode,
} from './font-input.js';
export { mergeFontFaces, type FontFaceRef, type FontFaceChange } from './font-faces.js';
export { fontDefinitionSchema, fontSourceSchema, FONT_SOURCE_FORMATS, type FontDefinition } from './font-definition.js';
