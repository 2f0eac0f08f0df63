/**
 * The visitor attributes JSON schema of an adaptive content site (the public document's
 * `SiteAdaptiveSchema`, `GET/PUT …/adaptive-schema`) and the condition templates derived from it
 * (`…/adaptive-schema/template-conditions`).
 *
 * The schema describes the claims a visitor brings (a `visitor-auth` site's signed token; in the
 * document's shape, `unsigned` holds claims a visitor may set themselves): booleans, strings (free
 * or of an `enum`), numbers, arrays of those, and objects of them. It is checked with ajv against
 * the document's `SiteAdaptiveJSONSchema` (a draft-07 schema of that shape, closed objects,
 * `additionalProperties: false`), at most ADAPTIVE_SCHEMA_MAX_BYTES of JSON and
 * ADAPTIVE_SCHEMA_MAX_DEPTH levels of nested objects. It informs authors (the templates); the
 * published site evaluates conditions over whatever claims the visitor's token holds, as before.
 *
 * Who may see the site reads it (capabilities.ts `viewSites`), site managers replace it
 * (`manageSites`), in the site's locked write with a `siteAdaptiveSchemaUpdated` event.
 */
import { Ajv, type ErrorObject } from 'ajv';
import type { Site } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { badRequest } from '../../../../lib/errors.js';
import { recordSiteEvent } from '../events.js';
import { siteWrite } from '../write.js';

export const ADAPTIVE_SCHEMA_MAX_BYTES = 64 * 1024;
export const ADAPTIVE_SCHEMA_MAX_DEPTH = 8;
/** Condition templates listed at most (an `enum` of many values gives one a value). */
const MAX_TEMPLATES = 500;

const text = { type: 'string' };
const exact = (value: string | boolean) => ({ type: typeof value, enum: [value] });
const closed = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
/** The public document's components, draft-07 (`$ref`s local to `definitions`). */
const JSON_SCHEMA = {
  definitions: {
    Primitive: {
      oneOf: [
        closed({ type: exact('boolean'), description: text }, ['type', 'description']),
        closed({ type: exact('string'), enum: { type: 'array', items: text }, description: text }, ['type', 'enum', 'description']),
        closed({ type: exact('string'), description: text }, ['type', 'description']),
        closed({ type: exact('number'), description: text }, ['type', 'description']),
      ],
    },
    Claim: {
      oneOf: [
        { $ref: '#/definitions/Primitive' },
        closed({ type: exact('array'), description: text, items: { $ref: '#/definitions/Primitive' } }, ['type', 'description', 'items']),
        closed({ type: exact('object'), description: text, properties: { type: 'object', additionalProperties: { $ref: '#/definitions/Claim' } }, additionalProperties: exact(false) }, [
          'type',
          'description',
          'properties',
          'additionalProperties',
        ]),
      ],
    },
  },
  ...closed(
    {
      $schema: exact('http://json-schema.org/draft-07/schema#'),
      type: exact('object'),
      properties: {
        type: 'object',
        properties: {
          unsigned: closed(
            {
              type: exact('object'),
              description: exact('Unsigned claims of the site visitor.'),
              properties: { type: 'object', additionalProperties: { $ref: '#/definitions/Claim' } },
              additionalProperties: exact(false),
            },
            ['type', 'description', 'properties', 'additionalProperties'],
          ),
        },
        additionalProperties: { $ref: '#/definitions/Claim' },
      },
      additionalProperties: exact(false),
    },
    ['type', 'properties', 'additionalProperties'],
  ),
};

let validator: ReturnType<Ajv['compile']> | undefined;
const validate = (value: unknown) => (validator ??= new Ajv({ allErrors: false, strict: false }).compile(JSON_SCHEMA))(value);

/** `jsonSchema.properties.plan` from ajv's `/properties/plan` (the deepest failure of a `oneOf` is the useful one). */
function fieldOf(error: ErrorObject | undefined): string {
  const path = (error?.instancePath ?? '').split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return ['jsonSchema', ...path].join('.');
}

function depthOf(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

export type AdaptiveJsonSchema = { properties: Record<string, Claim> } & Record<string, unknown>;
type Claim = { type: string; description?: string; enum?: string[]; items?: Claim; properties?: Record<string, Claim> };

/** The body's `jsonSchema`, checked (400 naming the field). */
export function parseAdaptiveSchema(raw: unknown): AdaptiveJsonSchema {
  const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const unknownField = Object.keys(body).find((k) => k !== 'jsonSchema');
  if (unknownField) throw badRequest(`Invalid value for "${unknownField}": unknown field`, unknownField);
  const schema = body.jsonSchema;
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw badRequest('Invalid value for "jsonSchema": required, a JSON schema of type object', 'jsonSchema');
  if (Buffer.byteLength(JSON.stringify(schema)) > ADAPTIVE_SCHEMA_MAX_BYTES) throw badRequest(`Invalid value for "jsonSchema": at most ${ADAPTIVE_SCHEMA_MAX_BYTES} bytes of JSON`, 'jsonSchema');
  // Each claim object nests two levels (`properties`, then the claim): depth of claims × 2, plus the root's.
  if (depthOf(schema) > ADAPTIVE_SCHEMA_MAX_DEPTH * 2 + 2) throw badRequest(`Invalid value for "jsonSchema": claims nest at most ${ADAPTIVE_SCHEMA_MAX_DEPTH} objects deep`, 'jsonSchema');
  if (!validate(schema)) {
    const error = validator!.errors?.[0];
    const field = fieldOf(error);
    throw badRequest(`Invalid value for "${field}": not a visitor attributes schema of the documented shape (${error?.message ?? 'invalid'})`, field);
  }
  return schema as AdaptiveJsonSchema;
}

export type SiteAdaptiveSchema = { jsonSchema: AdaptiveJsonSchema; updatedAt: Date };

/** A site's schema (the site row read by who may see it); null when none was set. */
export const siteAdaptiveSchema = (site: Site): SiteAdaptiveSchema | null =>
  site.adaptiveSchema && site.adaptiveSchemaUpdatedAt ? { jsonSchema: JSON.parse(site.adaptiveSchema) as AdaptiveJsonSchema, updatedAt: site.adaptiveSchemaUpdatedAt } : null;

export function updateAdaptiveSchema(db: Db, access: Access, siteId: string, raw: unknown): Promise<SiteAdaptiveSchema> {
  const jsonSchema = parseAdaptiveSchema(raw);
  return siteWrite(db, access, siteId, async (tx, site) => {
    const updated = await tx.site.update({ where: { id: site.id }, data: { adaptiveSchema: JSON.stringify(jsonSchema), adaptiveSchemaUpdatedAt: new Date() } });
    await recordSiteEvent(tx, access, site, 'siteAdaptiveSchemaUpdated', site.id);
    return siteAdaptiveSchema(updated)!;
  });
}

export type TemplateCondition = { description: string; condition: string };

/** `visitor.claims.plan`, `visitor.claims["my-claim"]`. */
const access = (base: string, key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`);
const label = (claim: Claim, name: string) => (claim.description?.trim() || name).replace(/\.$/, '');

/**
 * The condition templates of a schema, in its properties' order: a boolean claim gives
 * `visitor.claims.x === true`; a string claim of an `enum`, one `=== "value"` a value; an array of
 * such strings, one `.includes("value")` a value, and an array of booleans or free strings and
 * numbers nothing; free strings and numbers have no value to suggest, so they give a presence
 * check (`!= null`); objects are walked into (`unsigned` too).
 */
export function templateConditions(schema: AdaptiveJsonSchema): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const walk = (properties: Record<string, Claim>, base: string) => {
    for (const [name, claim] of Object.entries(properties ?? {})) {
      const path = access(base, name);
      const what = label(claim, name);
      if (claim.type === 'object') walk(claim.properties ?? {}, path);
      else if (claim.type === 'boolean') out.push({ description: `${what}: true`, condition: `${path} === true` });
      else if (claim.type === 'string' && claim.enum) for (const value of claim.enum) out.push({ description: `${what}: ${value}`, condition: `${path} === ${JSON.stringify(value)}` });
      else if (claim.type === 'array' && claim.items?.type === 'string' && claim.items.enum) {
        for (const value of claim.items.enum) out.push({ description: `${what} includes ${value}`, condition: `${path}.includes(${JSON.stringify(value)})` });
      } else if (claim.type === 'string' || claim.type === 'number') out.push({ description: `${what} is set`, condition: `${path} != null` });
    }
  };
  walk(schema.properties, 'visitor.claims');
  return out.slice(0, MAX_TEMPLATES);
}

/** A site's condition templates: none when it has no schema. */
export const siteTemplateConditions = (site: Site): TemplateCondition[] => {
  const schema = siteAdaptiveSchema(site);
  return schema ? templateConditions(schema.jsonSchema) : [];
};
