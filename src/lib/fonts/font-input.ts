/**
 * Bodies of `PUT /orgs/{organizationId}/fonts` (create) and `POST .../fonts/{fontId}` (update), as in the
 * public document: `fontFamily` 1-50 and `fontFaces: [{weight, storageKey}]`. Weight 400 is required on
 * create; on update a null `storageKey` removes that weight, except 400, which can never be removed.
 */
import { z } from 'zod';
import { lazySchema, parseInput } from '../validation.js';

/** Family name used in CSS: also refuses characters that could break out of a quoted `font-family`. */
export const fontFamilySchema = lazySchema(() => z
  .string()
  .trim()
  .min(1)
  .max(50)
  // eslint-disable-next-line no-control-regex
  .refine((family) => !/["'\\;{}<>\u0000-\u001f\u007f]/.test(family), {
    message: 'Font family must not contain quotes, backslashes, semicolons, braces, angle brackets or control characters',
  }));

/** `FontWeight` of the public document: an integer 1-1000 (CSS numeric font-weight). */
export const fontWeightSchema = lazySchema(() => z.number().int().min(1).max(1000));

/** `StorageFileKey`: the key answered when the file was uploaded. */
export const storageKeySchema = lazySchema(() => z.string().min(1).max(512));

export const REGULAR_WEIGHT = 400;

type Face = { weight: number; storageKey: string | null };

/** Each weight once; issues name the duplicate's own path. */
const uniqueWeights = (faces: Face[], ctx: z.RefinementCtx) => {
  const seen = new Set<number>();
  faces.forEach((face, index) => {
    if (seen.has(face.weight)) {
      ctx.addIssue({ code: 'custom', path: [index, 'weight'], message: `Weight ${face.weight} is given more than once` });
    }
    seen.add(face.weight);
  });
};

export const createFontSchema = lazySchema(() => z.object({
  fontFamily: fontFamilySchema,
  fontFaces: z
    .array(z.object({ weight: fontWeightSchema, storageKey: storageKeySchema }))
    .min(1)
    .superRefine(uniqueWeights)
    .superRefine((faces, ctx) => {
      if (!faces.some((face) => face.weight === REGULAR_WEIGHT)) {
        ctx.addIssue({ code: 'custom', message: `A font face with weight ${REGULAR_WEIGHT} (regular) is required` });
      }
    }),
}));

export const updateFontSchema = lazySchema(() => z.object({
  fontFamily: fontFamilySchema.optional(),
  fontFaces: z
    .array(z.object({ weight: fontWeightSchema, storageKey: storageKeySchema.nullable() }))
    .superRefine(uniqueWeights)
    .superRefine((faces, ctx) => {
      faces.forEach((face, index) => {
        if (face.weight === REGULAR_WEIGHT && face.storageKey === null) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'storageKey'],
            message: `The weight ${REGULAR_WEIGHT} (regular) face cannot be removed`,
          });
        }
      });
    })
    .optional(),
}));

export type CreateFontInput = z.output<typeof createFontSchema>;
export type UpdateFontInput = z.output<typeof updateFontSchema>;
export type FontInputMode = 'create' | 'update';

/** Validates a create or update body; the first problem is a 400 naming its dotted path (e.g. `fontFaces.1.weight`). */
export function validateFontInput(input: unknown, mode: 'create'): CreateFontInput;
export function validateFontInput(input: unknown, mode: 'update'): UpdateFontInput;
export function validateFontInput(input: unknown, mode: FontInputMode): CreateFontInput | UpdateFontInput;
export function validateFontInput(input: unknown, mode: FontInputMode): CreateFontInput | UpdateFontInput {
  return mode === 'create' ? parseInput(createFontSchema, input) : parseInput(updateFontSchema, input);
}
