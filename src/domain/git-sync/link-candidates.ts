/**
 * The relative URLs a markdown file probably links to, read from its text before it is converted,
 * so that one conversion in the pool (tasks.ts `markdownStored`) both resolves its links and
 * answers the stored form: the event loop never receives the document. A guess, never trusted:
 * the conversion answers the targets it left as URLs, and a file whose resolvable target was
 * missed here (an escaped character, an entity, a parenthesis in a path) is converted again with
 * them (theirs.ts). Covers the platform's dialect: `[t](url)`, `![a](<a b.png>)`,
 * `[t](url "label")`, `[id]: url`, `src="…"`/`href="…"`/`url="…"` of HTML and of
 * `{% content-ref %}`/`{% file %}`/`{% embed %}`, and `{% include "…" %}`.
 */
import { isRelativeUrl } from '../../lib/markdown/refs.js';

const PATTERNS = [
  /\]\(\s*<([^<>\n]+)>/g,
  /\]\(\s*([^\s()<>]+)/g,
  /^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*<?([^\s<>]+)/gm,
  /\b(?:src|href|url)\s*=\s*"([^"\n]+)"/g,
  /\b(?:src|href|url)\s*=\s*'([^'\n]+)'/g,
  /\{%\s*include\s+"([^"\n]+)"/g,
];

/** Distinct relative URLs as written in `markdown` (a superset or a subset of what it links to). */
export function linkCandidates(markdown: string): string[] {
  const found = new Set<string>();
  for (const pattern of PATTERNS) {
    for (const match of markdown.matchAll(pattern)) {
      const url = match[1]!.trim();
      if (isRelativeUrl(url)) found.add(url);
    }
  }
  return [...found];
}
