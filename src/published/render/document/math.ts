/**
 * Maths (`math` blocks, `inline-math`) rendered on the server with KaTeX: HTML for the eye (styled
 * by KaTeX's stylesheet and fonts, which quire serves itself: see published/assets.ts) and MathML
 * for assistive technologies, no script in the browser. KaTeX never runs what a formula names
 * (`trust: false`), bounds its own work (`maxSize`, `maxExpand`), and a formula it cannot parse
 * is shown as its source in the error colour rather than failing the page. Results are
 * remembered (an LRU bounded in characters): a formula costs its rendering once.
 */
import type Katex from 'katex';
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import { element, escapeHtml } from '../html.js';

/** KaTeX (~2.4 MiB of heap) loads with the first formula, not at start: its CommonJS build, synchronously. */
let katex: typeof Katex | undefined;
const loadKatex = () => (katex ??= createRequire(import.meta.url)('katex') as typeof Katex);

/** Longer formulas are shown as source. */
const MAX_FORMULA = 10_000;

const cache = new LRUCache<string, string>({ maxSize: 4_000_000, sizeCalculation: (html, key) => html.length + key.length });

/** The formula as KaTeX markup (`display`: a block, centred), or its escaped source when it cannot be rendered. */
export function mathHtml(formula: unknown, display: boolean): string {
  const source = typeof formula === 'string' ? formula : '';
  if (!source.trim() || source.length > MAX_FORMULA) return element('span', { class: 'math' }, escapeHtml(source));
  const key = `${display ? 'D' : 'I'}${source}`;
  let html = cache.get(key);
  if (html === undefined) {
    try {
      html = loadKatex().renderToString(source, { displayMode: display, throwOnError: false, output: 'htmlAndMathml', trust: false, strict: 'ignore', maxSize: 50, maxExpand: 500 });
    } catch {
      html = element('span', { class: 'math' }, escapeHtml(source));
    }
    cache.set(key, html);
  }
  return html;
}
