/**
 * A site's customization (2.11, 4.9): the record `PUT …/sites/{siteId}/customization` takes in full
 * and GET answers. Validated against the public SiteCustomizationSettingsInput schema.
 */
import { DEFAULT_CUSTOMIZATION, type SiteCustomization } from './defaults.js';
import { checkedBody } from './checked-body.js';
import { definitions, shapeOf } from './schema.js';

export { DEFAULT_CUSTOMIZATION, type SiteCustomization } from './defaults.js';
export { applyOverridePatch, effectiveCustomization, validateOverridePatch, type Override, type OverridePatch } from './override.js';
export { themeColors } from './theme.js';

const inputShape = shapeOf(definitions.SiteCustomizationSettingsInput);

/**
 * The record to store for a PUT body, or a 400 naming the first offending field. Properties the
 * schema does not know are dropped (the public schema leaves its objects open); the optional groups
 * the input lacks (`pdf`, `aiSearch`, `git`) come from the defaults. `updatedAt` is the store's.
 */
export function validateCustomization(input: unknown): SiteCustomization {
  return structuredClone({ ...DEFAULT_CUSTOMIZATION, ...checkedBody('SiteCustomizationSettingsInput', input, inputShape) }) as SiteCustomization;
}
