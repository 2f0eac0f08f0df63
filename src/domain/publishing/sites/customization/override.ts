/**
 * A site space's customization override (4.9): `PATCH …/site-spaces/{id}/customization` changes only
 * what it names. Within the groups (`styling`, `header`, `styling.sidebar`, … — the inline objects
 * of the public PATCH schema, whose every field says "set to null to reset the override"), a field
 * set to `null` is removed from the override, an omitted one is left as it is, and a given value
 * (a colour pair, a logo, the header links, the whole `announcement`) replaces the overridden one.
 * `title: null` unsets the title, which then falls back to the site's, then the content's.
 */
import { DEFAULT_CUSTOMIZATION, type SiteCustomization } from './defaults.js';
import { checkedBody } from './checked-body.js';
import { definitions, isPlainObject, shapeOf, type Shape } from './schema.js';

type Groupwise<T> = { [K in keyof T]?: T[K] extends unknown[] ? T[K] : T[K] extends object ? Groupwise<T[K]> : T[K] };
/** The overridden fields only, as stored for a site space. */
export type Override = Groupwise<SiteCustomization>;
/** A validated PATCH body: like Override, where any field may also be `null`. */
export type OverridePatch = { [K in keyof SiteCustomization]?: unknown };

const patchShape = shapeOf(definitions.SiteCustomizationOverridePatch);

export function validateOverridePatch(input: unknown): OverridePatch {
  return checkedBody('SiteCustomizationOverridePatch', input, patchShape) as OverridePatch;
}

function patchLevel(current: Record<string, unknown>, patch: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const out = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || !Object.hasOwn(shape, key)) continue;
    const group = shape[key];
    if (value === null) delete out[key];
    else if (group && isPlainObject(value)) {
      const merged = patchLevel(isPlainObject(out[key]) ? out[key] : {}, value, group);
      if (Object.keys(merged).length) out[key] = merged;
      else delete out[key]; // an emptied group overrides nothing
    } else out[key] = value;
  }
  return out;
}

export function applyOverridePatch(current: Override | null, patch: OverridePatch): Override {
  return structuredClone(patchLevel((current ?? {}) as Record<string, unknown>, patch as Record<string, unknown>, patchShape)) as Override;
}

function overlay(base: Record<string, unknown>, over: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined || value === null) continue;
    const group = Object.hasOwn(shape, key) ? shape[key] : null;
    out[key] = group && isPlainObject(value) && isPlainObject(base[key]) ? overlay(base[key], value, group) : value;
  }
  return out;
}

/**
 * What GET of a site space's customization answers: the site's record with the override laid over
 * it (a group the site's record lacks, e.g. stored before the schema gained it, comes from the defaults).
 */
export function effectiveCustomization(site: SiteCustomization, override: Override | null, contentTitle?: string): SiteCustomization {
  const { title: overriddenTitle, ...rest } = (override ?? {}) as Override;
  const base = { ...DEFAULT_CUSTOMIZATION, ...site } as Record<string, unknown>;
  const effective = overlay(base, rest as Record<string, unknown>, patchShape) as unknown as SiteCustomization;
  const title = overriddenTitle ?? site.title ?? contentTitle;
  if (title) effective.title = title;
  else delete effective.title;
  return structuredClone(effective);
}
