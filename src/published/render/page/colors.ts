/**
 * Colours of the theme: customization colours (`#rgb`/`#rrggbb`) become CSS custom properties,
 * and each gets a `-text` variant with at least 4.5:1 contrast against the page background
 * (WCAG AA for body text), so a pale brand colour still gives readable links; `--on-primary`
 * is black or white, whichever reads better on the primary colour.
 */

export type Rgb = [number, number, number];

/** The page backgrounds of page/css.ts, which contrast is computed against. */
export const BACKGROUND = { light: '#ffffff', dark: '#0f1117' } as const;

export function parseHex(value: unknown): Rgb | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!m) return undefined;
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

export const toHex = (rgb: Rgb): string => `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * t) as Rgb;

/** The colour itself when it reads on `background`, else the nearest mix towards black or white that does. */
export function readableOn(color: Rgb, background: Rgb, minimum = 4.5): Rgb {
  if (contrast(color, background) >= minimum) return color;
  const target: Rgb = luminance(background) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  for (let t = 0.05; t < 1; t += 0.05) {
    const candidate = mix(color, target, t);
    if (contrast(candidate, background) >= minimum) return candidate;
  }
  return target;
}

/** Black or white text, whichever contrasts more with `background`. */
export const textOn = (background: Rgb): string => (contrast([255, 255, 255], background) >= contrast([17, 17, 17], background) ? '#ffffff' : '#111111');

export type ThemedColor = { light: string; dark: string };

/**
 * Custom properties for one theme from the site's colours: `--primary`, `--primary-text`,
 * `--on-primary`, and `--info`, `--info-text`… for the semantic colours given. Invalid colours
 * are left out (the stylesheet's defaults apply), which also keeps input out of the CSS.
 */
export function colorVariables(colors: Record<string, ThemedColor | undefined>, mode: 'light' | 'dark'): Record<string, string> {
  const background = parseHex(BACKGROUND[mode])!;
  const vars: Record<string, string> = {};
  for (const [name, themed] of Object.entries(colors)) {
    if (!/^[a-z]+$/.test(name)) continue;
    const rgb = parseHex(themed?.[mode]);
    if (!rgb) continue;
    vars[`--${name}`] = toHex(rgb);
    vars[`--${name}-text`] = toHex(readableOn(rgb, background));
    if (name === 'primary') vars['--on-primary'] = textOn(rgb);
  }
  return vars;
}

const declarations = (vars: Record<string, string>) =>
  Object.entries(vars)
    .map(([k, v]) => `${k}:${v};`)
    .join('');

/**
 * Rules giving `light` variables by default and `dark` ones in dark mode: when `<html>` says
 * `data-theme="dark"` (the visitor's choice, or a site without toggle whose theme is dark), or
 * when the system prefers dark and no explicit light theme was chosen.
 */
export function themeRules(light: Record<string, string>, dark: Record<string, string>): string {
  const l = declarations(light);
  const d = declarations(dark);
  return [
    l && `:root{${l}}`,
    d && `:root[data-theme="dark"]{${d}}`,
    d && `@media (prefers-color-scheme: dark){:root:not([data-theme="light"]){${d}}}`,
  ]
    .filter(Boolean)
    .join('\n');
}
