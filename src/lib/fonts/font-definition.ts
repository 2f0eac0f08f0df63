/**
 * `CustomizationFontDefinitionInput` of the public document: a font as site customization carries it,
 * `{id, custom, fontFamily, fontFaces: [{weight, sources: [{url, format?}]}]}`.
 */
import { z } from 'zod';
import { fontFamilySchema, fontWeightSchema } from './font-input.js';
import { lazySchema } from '../validation.js';

export const FONT_SOURCE_FORMATS = ['woff2', 'woff'] as const;

/** `URL` (max 2048): absolute http(s), or relative to the site (`/...`). */
const fontSourceUrlSchema = lazySchema(() => z
  .string()
  .max(2048)
  .refine((url) => /^https?:\/\/[^\s]+$/i.test(url) || /^\/[^\s/][^\s]*$/.test(url), {
    message: 'Font source URL must be an absolute http(s) URL or a path starting with "/"',
  }));

export const fontSourceSchema = lazySchema(() => z.object({
  url: fontSourceUrlSchema,
  format: z.enum(FONT_SOURCE_FORMATS).optional(),
}));

export const fontDefinitionSchema = lazySchema(() => z.object({
  id: z.string().min(1),
  custom: z.boolean(),
  fontFamily: fontFamilySchema,
  fontFaces: z.array(z.object({ weight: fontWeightSchema, sources: z.array(fontSourceSchema).min(1) })).min(1),
}));

export type FontDefinition = z.output<typeof fontDefinitionSchema>;
