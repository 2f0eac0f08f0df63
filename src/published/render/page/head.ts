/** The `<head>`: title, description, robots, canonical URL, favicons, stylesheets (KaTeX's on pages with maths) and theme. */
import { attrs, escapeHtml, safeUrl } from '../html.js';
import { colorVariables, themeRules } from './colors.js';
import { SITE_CSS } from './css.js';
import { THEME_SCRIPT } from './script.js';
import type { SiteView, ThemedUrl } from './view.js';

export type HeadOptions = { title: string; description?: string; noindex: boolean; canonicalUrl?: string; stylesheetUrl?: string; mathStylesheetUrl?: string; site: SiteView };

/** One icon, or one per colour scheme. */
function faviconLinks(favicon: ThemedUrl | undefined): string {
  const light = safeUrl(favicon?.light);
  const dark = safeUrl(favicon?.dark);
  if (!light && !dark) return '';
  if (!light || !dark || light === dark) return `<link${attrs({ rel: 'icon', href: light ?? dark })}>`;
  return `<link${attrs({ rel: 'icon', href: light, media: '(prefers-color-scheme: light)' })}><link${attrs({ rel: 'icon', href: dark, media: '(prefers-color-scheme: dark)' })}>`;
}

/** Colour styles made, by their colours (JSON): sites have few palettes, and each takes contrast computations to make. */
const colorStyles = new Map<string, string>();
const MAX_COLOR_STYLES = 1000;

/** The site's colours as custom properties, light and dark. */
export function siteColorStyle(site: SiteView): string {
  const colors = site.colors ?? {};
  const id = JSON.stringify(colors);
  let style = colorStyles.get(id);
  if (style === undefined) {
    style = themeRules(colorVariables(colors, 'light'), colorVariables(colors, 'dark'));
    if (colorStyles.size >= MAX_COLOR_STYLES) colorStyles.clear();
    colorStyles.set(id, style);
  }
  return style;
}

/** A family name or URL fit for CSS: anything that could close the string or the declaration is refused. */
const cssFamily = (family: string) => (/^[\p{L}\p{N} _-]{1,50}$/u.test(family) ? family : undefined);
const cssUrl = (url: string | undefined) => (url && !/["'()\\\s<>]/.test(url) ? url : undefined);

/** `@font-face` rules of a custom font, and the body set in it. */
export function siteFontStyle(site: SiteView): string {
  const family = site.font && cssFamily(site.font.family);
  if (!family || !site.font) return '';
  const faces = site.font.faces.flatMap((face) => {
    const url = cssUrl(safeUrl(face.url));
    const format = face.format === 'woff' || face.format === 'woff2' ? ` format("${face.format}")` : '';
    return url && Number.isInteger(face.weight) ? [`@font-face{font-family:"${family}";src:url("${url}")${format};font-weight:${face.weight};font-display:swap}`] : [];
  });
  return faces.length ? `${faces.join('')}body{font-family:"${family}",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}` : '';
}

export function headHtml(options: HeadOptions): string {
  const { site } = options;
  const canonical = safeUrl(options.canonicalUrl);
  const stylesheet = safeUrl(options.stylesheetUrl);
  const mathStylesheet = safeUrl(options.mathStylesheetUrl);
  const toggleable = site.theme?.toggleable === true;
  return [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(options.title)}</title>`,
    options.description ? `<meta${attrs({ name: 'description', content: options.description })}>` : '',
    options.noindex ? '<meta name="robots" content="noindex">' : '',
    canonical ? `<link${attrs({ rel: 'canonical', href: canonical })}>` : '',
    `<meta name="color-scheme" content="${toggleable ? 'light dark' : site.theme?.default === 'dark' ? 'dark' : 'light'}">`,
    faviconLinks(site.favicon),
    stylesheet ? `<link${attrs({ rel: 'stylesheet', href: stylesheet })}>` : `<style>${SITE_CSS}</style>`,
    mathStylesheet ? `<link${attrs({ rel: 'stylesheet', href: mathStylesheet })}>` : '',
    ((css) => (css ? `<style>${css}</style>` : ''))(siteColorStyle(site) + siteFontStyle(site)),
    toggleable ? `<script>${THEME_SCRIPT}</script>` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
