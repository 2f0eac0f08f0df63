/** The colours a published page is painted with, each a `{light, dark}` pair, from a customization record. */
import type { SiteCustomization, Themed } from './defaults.js';

export type ThemeColors = { primary: Themed; tint: Themed; info: Themed; success: Themed; warning: Themed; danger: Themed };

export function themeColors(customization: SiteCustomization): ThemeColors {
  const { styling } = customization;
  return {
    primary: styling.primaryColor,
    // "By default, the tint colour is the same as your primary colour" (public document).
    tint: styling.tint?.color ?? styling.primaryColor,
    info: styling.infoColor,
    success: styling.successColor,
    warning: styling.warningColor,
    danger: styling.dangerColor,
  };
}
