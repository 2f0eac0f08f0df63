// Writes src/domain/publishing/sites/customization/schema.json: the JSON schemas the public OpenAPI document
// of @gitbook/api (spec/openapi.json) gives for a site's customization — SiteCustomizationSettings
// (what GET answers), SiteCustomizationSettingsInput (the PUT body) and the PATCH body of a
// site-space override (named SiteCustomizationOverridePatch here) — with every component they
// reference, transitively, under `$defs` and `$ref`s made local, so the server can compile them with
// ajv without the SDK package at run time. Rerun after upgrading @gitbook/api;
// test/site-customization.test.ts fails while the file is stale.
//
// Two rewrites beyond moving components:
// - a `oneOf` whose branches are all objects told apart by one required single-valued property
//   (ContentRef's `kind`) gets an OpenAPI `discriminator` and `type: object`, so that a wrong
//   `kind` is reported as such instead of as ten failing branches; the accepted values are unchanged;
// - the fields the service description (2.11, 4.9) has and the public document lacks (`pdf`,
//   `aiSearch`, `git`, `ai.pageLinkSummaries`) are added as optional properties, so they are checked
//   when given rather than stored unchecked (the public schemas do not close their objects).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const SCHEMA_ID = 'https://quire.dev/schemas/site-customization.json';
const OVERRIDE_PATH = '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization';
const COMPONENT = '#/components/schemas/';

const flag = (key, nullable) => ({
  type: 'object',
  $comment: 'service description 2.11; not in the public document',
  properties: { [key]: { type: nullable ? ['boolean', 'null'] : 'boolean' } },
  required: [key],
});
const descriptionOnly = (nullable) => ({
  pdf: flag('enabled', nullable),
  aiSearch: flag('enabled', nullable),
  git: flag('showEditLink', nullable),
});

/** Deep copy with component `$ref`s made local to `$defs`, collecting the names referenced. */
function localize(value, referenced, names = false) {
  if (Array.isArray(value)) return value.map((v) => localize(v, referenced));
  if (!value || typeof value !== 'object') return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (names) out[key] = localize(v, referenced); // a `properties` map: keys are names, not keywords
    else if (key === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT)) {
      const name = v.slice(COMPONENT.length);
      referenced.add(name);
      out.$ref = `#/$defs/${name}`;
    } else if (key !== 'example') out[key] = localize(v, referenced, key === 'properties'); // `example` is OpenAPI-only
  }
  return out;
}

/** Adds `discriminator` to every `oneOf` of objects told apart by one required constant property. */
function addDiscriminators(schema, defs) {
  const resolve = (s) => (s?.$ref ? defs[s.$ref.slice('#/$defs/'.length)] : s);
  const constOf = (s, key) => {
    const p = s?.properties?.[key];
    if (!s?.required?.includes(key) || !p) return undefined;
    if (p.const !== undefined) return p.const;
    return p.enum?.length === 1 ? p.enum[0] : undefined;
  };
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node.oneOf) && node.oneOf.length > 1 && !node.discriminator) {
      const branches = node.oneOf.map(resolve);
      const candidates = Object.keys(branches[0]?.properties ?? {});
      const tag = candidates.find((key) => {
        const values = branches.map((b) => constOf(b, key));
        return values.every((v) => typeof v === 'string') && new Set(values).size === values.length;
      });
      if (tag) {
        node.type = 'object';
        node.discriminator = { propertyName: tag };
      }
    }
    Object.values(node).forEach(visit);
  };
  visit(schema);
}

export function customizationSchema() {
  const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
  const components = document.components.schemas;
  const patchBody = document.paths[OVERRIDE_PATH].patch.requestBody.content['application/json'].schema;
  const referenced = new Set();
  const defs = {
    SiteCustomizationSettings: localize(components.SiteCustomizationSettings, referenced),
    SiteCustomizationSettingsInput: localize(components.SiteCustomizationSettingsInput, referenced),
    SiteCustomizationOverridePatch: localize(patchBody, referenced),
  };
  for (const name of referenced) {
    if (defs[name]) continue;
    defs[name] = localize(components[name], referenced); // the set grows while iterated: transitive
  }
  const base = defs.SiteCustomizationSettingsBase;
  Object.assign(base.properties, descriptionOnly(false));
  base.properties.ai.properties.pageLinkSummaries = { ...flag('enabled', false) };
  Object.assign(defs.SiteCustomizationOverridePatch.properties, descriptionOnly(true));
  addDiscriminators(defs, defs);
  const sorted = Object.fromEntries(Object.keys(defs).sort().map((name) => [name, defs[name]]));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCHEMA_ID,
    $comment: `Generated by scripts/customization-schema.mjs from @gitbook/api spec/openapi.json, API version ${document.info.version}. Do not edit.`,
    $defs: sorted,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.resolve(import.meta.dirname, '../src/domain/publishing/sites/customization/schema.json');
  writeFileSync(file, `${JSON.stringify(customizationSchema(), null, 1)}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}
