/**
 * Syntax highlighting of code blocks on the server, with highlight.js (synchronous, no
 * initialisation; every language it ships, by name or alias). Only a block whose language is
 * named and known is highlighted (no guessing: detection would try every grammar), and only up
 * to MAX_CHARS. The output is highlight.js's own: escaped text and `<span class="hljs-…">`,
 * cut here into one string per line (spans open across a line end are closed and reopened), so
 * each line keeps its `code-line` span. Results are remembered by language and text (an LRU
 * bounded in characters): a block costs its highlighting once, not on every page view.
 * highlight.js (every grammar: about 6 MiB of heap) is loaded by the first lookup of a language,
 * not when the server starts: most servers render no code block for a while, or never.
 */
import { createRequire } from 'node:module';
import type { HLJSApi } from 'highlight.js';
import { LRUCache } from 'lru-cache';

const require = createRequire(import.meta.url);
let loaded: HLJSApi | undefined;
const highlightJs = (): HLJSApi => (loaded ??= require('highlight.js') as HLJSApi);

/** Longer code is shown plain: highlighting cost grows with it. */
const MAX_CHARS = 100_000;

const cache = new LRUCache<string, string[]>({ maxSize: 8_000_000, sizeCalculation: (lines, key) => key.length + lines.reduce((n, l) => n + l.length, 0) + 1 });

/** The language highlight.js knows by this name or alias, with its display name. */
export function languageOf(syntax: unknown): { id: string; name: string } | undefined {
  if (typeof syntax !== 'string' || !syntax.trim() || syntax.length > 40) return undefined;
  const id = syntax.trim().toLowerCase();
  const language = highlightJs().getLanguage(id);
  return language ? { id, name: language.name ?? syntax } : undefined;
}

/** highlight.js HTML cut into lines; every line opens the spans still open from the one before. */
export function splitLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  const token = /<span [^>]*>|<\/span>|\n|[^<\n]+/g;
  for (const [part] of html.matchAll(token)) {
    if (part === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else {
      if (part.startsWith('<span')) open.push(part);
      else if (part === '</span>') open.pop();
      line += part;
    }
  }
  lines.push(line);
  return lines;
}

/** The lines of `code` as highlighted HTML, or undefined when the language is unknown or the code too long. */
export function highlightLines(code: string, syntax: unknown): string[] | undefined {
  const language = languageOf(syntax);
  if (!language || code.length > MAX_CHARS) return undefined;
  const key = `${language.id}\u0000${code}`;
  const known = cache.get(key);
  if (known) return known;
  let lines: string[];
  try {
    lines = splitLines(highlightJs().highlight(code, { language: language.id, ignoreIllegals: true }).value);
  } catch {
    return undefined;
  }
  cache.set(key, lines);
  return lines;
}
