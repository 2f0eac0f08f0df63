/**
 * The public schemas of the site customization (schema.json, written by
 * scripts/customization-schema.mjs from the SDK's OpenAPI document), compiled with ajv, and the
 * "shape" of a schema: which keys it knows and which of them are plain groups of settings.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import document from './schema.json' with { type: 'json' };

export type SchemaName = 'SiteCustomizationSettings' | 'SiteCustomizationSettingsInput' | 'SiteCustomizationOverridePatch';
export type JsonSchema = { [keyword: string]: any };

export const definitions = document.$defs as Record<string, JsonSchema>;

/** A schema itself, or the component its `$ref` names. */
export function resolve(schema: JsonSchema): JsonSchema {
  const ref: unknown = schema?.$ref;
  return typeof ref === 'string' && ref.startsWith('#/$defs/') ? resolve(definitions[ref.slice('#/$defs/'.length)]) : schema;
}

// `format: emoji` (favicons): one emoji, sequences and flags included, or its code points in hex
// (`1f389`, `1f1eb-1f1f7`) as the product stores them. Built at run time: the `v` flag is newer than tsc's target.
const EMOJI = new RegExp('^(?:\\p{RGI_Emoji}|\\p{Extended_Pictographic})$', 'v');
const CODE_POINTS = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i;
function isEmoji(value: string): boolean {
  if (!CODE_POINTS.test(value)) return EMOJI.test(value);
  const points = value.split('-').map((hex) => parseInt(hex, 16));
  return points.every((p) => p <= 0x10ffff) && EMOJI.test(String.fromCodePoint(...points));
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/** Compiled on first use. allErrors off: the first failure is the one reported. */
export function validatorFor(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (validate) return validate;
  if (!ajv) {
    // strict stays on (the schemas need only union types); `verbose` keeps the failing schema on
    // each error, which the discriminator message reads its allowed values from.
    ajv = new Ajv2020({ allErrors: false, allowUnionTypes: true, discriminator: true, verbose: true, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addFormat('emoji', { type: 'string', validate: isEmoji });
    ajv.addSchema(document);
  }
  validate = ajv.getSchema(`${document.$id}#/$defs/${name}`);
  if (!validate) throw new Error(`customization schema ${name} is missing`);
  compiled.set(name, validate);
  return validate;
}

/** Known keys of an object schema; a key maps to its own shape when its value is an inline group of settings (`styling`, `styling.sidebar`), to null when it is one value. */
export type Shape = { [key: string]: Shape | null };

export function shapeOf(schema: JsonSchema): Shape {
  const shape: Shape = {};
  const collect = (s: JsonSchema) => {
    const own = resolve(s);
    for (const [key, sub] of Object.entries<JsonSchema>(own.properties ?? {})) {
      shape[key] = !sub.$ref && !sub.oneOf && sub.type === 'object' && sub.properties ? shapeOf(sub) : null;
    }
    (own.allOf ?? []).forEach(collect);
  };
  collect(schema);
  return shape;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `data` keeping only the keys the shape knows, at every group level (the public schemas leave objects open). */
export function prune(data: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(shape)) {
    if (!Object.hasOwn(data, key) || data[key] === undefined) continue;
    const value = data[key];
    out[key] = sub && isPlainObject(value) ? prune(value, sub) : value;
  }
  return out;
}
