/**
 * Static assets of published sites, under `{site}/~assets/`: the stylesheet (`site.css`), KaTeX's
 * stylesheet and fonts (`katex-{version}/…`, read from the installed `katex` package: no CDN, the
 * site works offline and under its CSP), and the favicon (`favicon.svg`: the site's emoji, or its
 * initial on its primary colour, for sites without an icon URL of their own). KaTeX's files are
 * versioned in their path, so they are cached for a year (`immutable`); the others carry an ETag.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Site } from '../generated/prisma/client.js';
import type { SiteCustomization } from '../domain/publishing/sites/customization/defaults.js';
import { effectiveCustomization, themeColors } from '../domain/publishing/sites/customization/validate.js';
import { emojiText } from '../lib/markdown/to-inlines.js';
import { escapeHtml, SITE_CSS } from './render/index.js';
import { etagOf, send } from './reply.js';

const require = createRequire(import.meta.url);
const KATEX_DIST = path.dirname(require.resolve('katex'));
const KATEX_VERSION = (require('katex/package.json') as { version: string }).version;

/** The folder of KaTeX's files under `~assets/`. */
export const KATEX_ASSETS = `katex-${KATEX_VERSION}`;

const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf' };

/** KaTeX's stylesheet and fonts by their path under KATEX_ASSETS, read once. */
let katexFiles: Map<string, { body: Buffer; type: string }> | undefined;
function katexFile(name: string) {
  if (!katexFiles) {
    const names = ['katex.min.css', ...readdirSync(path.join(KATEX_DIST, 'fonts')).filter((f) => path.extname(f) in TYPES).map((f) => `fonts/${f}`)];
    katexFiles = new Map(names.map((n) => [n, { body: readFileSync(path.join(KATEX_DIST, n)), type: TYPES[path.extname(n)] }]));
  }
  return katexFiles.get(name);
}

/** A favicon's emoji as the `-`-joined code points of its URL (`1f4d8`), or undefined. */
export function emojiCode(emoji: string | undefined): string | undefined {
  const text = emoji ? emojiText(emoji) : '';
  const points = [...text].map((c) => c.codePointAt(0)!.toString(16));
  return points.length && points.length <= 8 ? points.join('-') : undefined;
}

/** The site's default favicon: its emoji (code points from the URL), else its initial on its primary colour. */
function faviconSvg(site: Site, code: string | undefined): string {
  const customization = effectiveCustomization(site.customization as unknown as SiteCustomization, null, site.title);
  const emoji = code && /^[0-9a-f]{1,6}(-[0-9a-f]{1,6}){0,7}$/.test(code) ? emojiText(code) : undefined;
  if (emoji) return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><text x="32" y="52" font-size="52" text-anchor="middle">${escapeHtml(emoji)}</text></svg>`;
  const color = themeColors(customization).primary.light;
  const fill = /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#346DDB';
  const initial = [...(customization.title || site.title || 'Q').trim()][0]?.toUpperCase() ?? 'Q';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${fill}"/><text x="32" y="45" font-family="system-ui,sans-serif" font-size="38" font-weight="700" text-anchor="middle" fill="#fff">${escapeHtml(initial)}</text></svg>`;
}

/** Answers `~assets/…` (`rest`: the segments after it); false when no such asset. */
export function serveAsset(req: IncomingMessage, res: ServerResponse, site: Site, rest: string[]): boolean {
  if (rest.length === 1 && rest[0] === 'site.css') {
    send(req, res, { status: 200, body: SITE_CSS, type: 'text/css; charset=utf-8', etag: etagOf(['css']), cache: 'public, max-age=3600' });
    return true;
  }
  if (rest[0] === KATEX_ASSETS) {
    const file = katexFile(rest.slice(1).join('/'));
    if (!file) return false;
    send(req, res, { status: 200, body: file.body, type: file.type, cache: 'public, max-age=31536000, immutable' });
    return true;
  }
  const favicon = rest.length === 1 ? /^favicon(?:-([0-9a-f-]{1,60}))?\.svg$/.exec(rest[0]) : null;
  if (favicon) {
    const svg = faviconSvg(site, favicon[1]);
    send(req, res, { status: 200, body: svg, type: 'image/svg+xml', etag: etagOf(['favicon', svg]), cache: 'public, max-age=3600' });
    return true;
  }
  return false;
}
