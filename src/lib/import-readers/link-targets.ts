/**
 * What an import's links may name: the pages and files it writes, by location (`locate`: a
 * source as a URL, zip paths under `file:///`, without its fragment), with the IDs chosen for
 * them. Encoded once per import into a SharedArrayBuffer (one line per target, a few dozen bytes
 * each), which every page's conversion task carries without copying, so the conversion threads
 * resolve a page's links themselves (threads/tasks.ts `importPage`) and answer the stored
 * document: the event loop never holds a converted page's document, nor a map of every target.
 */
import type { ContentRef } from '../markdown/refs.js';

/** A source's location as a URL (zip paths under `file:///`), without its fragment. */
export function locate(target: string, base?: string): string | undefined {
  try {
    const url = new URL(target, base ?? 'file:///');
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

const fragmentOf = (target: string) => (target.includes('#') ? target.slice(target.indexOf('#') + 1) : '');

/** The encoded targets: `token` names them (a thread decodes them once per token). */
export type ImportTargets = { token: string; buffer: SharedArrayBuffer; length: number };

/**
 * `pages` and `files`: location → ID. A location is a URL, in which the parser leaves no tab
 * and no line break (it drops them), so lines of `kind location TAB id` need no escaping.
 */
export function encodeImportTargets(pages: Iterable<[string, string]>, files: Iterable<[string, string]>): ImportTargets {
  const lines: string[] = [];
  for (const [key, id] of pages) lines.push(`p${key}\t${id}\n`);
  for (const [key, id] of files) lines.push(`f${key}\t${id}\n`);
  const bytes = new TextEncoder().encode(lines.join(''));
  const buffer = new SharedArrayBuffer(Math.max(bytes.byteLength, 1));
  new Uint8Array(buffer).set(bytes);
  return { token: `${process.pid}-${++encoded}-${Date.now()}`, buffer, length: bytes.byteLength };
}

let encoded = 0;

/** A location → the ID of the page (`p`) or file (`f`) written there. */
export type TargetLookup = (kind: 'p' | 'f', key: string) => string | undefined;

/** The targets as a lookup, decoded here (the event loop: when a page's links wait for the tree, rarely). */
export function decodeTargets(targets: ImportTargets): TargetLookup {
  const map = decodeLines(targets);
  return (kind, key) => map.get(kind + key);
}

function decodeLines(targets: ImportTargets): Map<string, string> {
  const map = new Map<string, string>();
  const text = new TextDecoder().decode(new Uint8Array(targets.buffer, 0, targets.length));
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const tab = text.lastIndexOf('\t', end);
    map.set(text.slice(start, tab), text.slice(tab + 1, end));
    start = end + 1;
  }
  return map;
}

/** The last few imports' targets decoded in this thread (imports running side by side each have theirs). */
const decoded = new Map<string, Map<string, string>>();
const DECODED_KEPT = 4;

/** The targets as a lookup, decoded once per thread and import (a conversion thread: every page of a batch needs them). */
export function cachedTargets(targets: ImportTargets): TargetLookup {
  let map = decoded.get(targets.token);
  if (!map) {
    map = decodeLines(targets);
    decoded.set(targets.token, map);
    for (const token of decoded.keys()) if (decoded.size > DECODED_KEPT) decoded.delete(token);
  }
  const found = map;
  return (kind, key) => found.get(kind + key);
}

/**
 * A link or image target of the page read from `base` as a reference to what the import writes
 * (undefined: left as it is): a file, a page, or an anchor of a page.
 */
export function importedTarget(lookup: TargetLookup, base: string): (url: string) => ContentRef | undefined {
  const from = locate(base);
  return (url) => {
    const key = locate(url, from);
    if (!key) return undefined;
    const file = lookup('f', key);
    if (file) return { kind: 'file', file };
    const page = lookup('p', key);
    if (!page) return undefined;
    const anchor = fragmentOf(url);
    return anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page };
  };
}
