/**
 * YAML front matter (`description`, `icon`, `hidden`, `cover`, `layout`…). Invalid YAML, or YAML
 * that is not a mapping, is not front matter: the caller reads those lines as content instead.
 */
import YAML from 'yaml';
import { isRecord } from './nodes.js';

/** The front matter's fields; null when the YAML is not a mapping (then it was not meant as front matter). */
export function readFrontMatter(source: string): Record<string, unknown> | null {
  try {
    const value: unknown = YAML.parse(source, { logLevel: 'silent', maxAliasCount: 100 });
    return isRecord(value) ? value : value === null || value === undefined ? {} : null;
  } catch {
    return null;
  }
}

/** `---\n…\n---` followed by a blank line, or '' when there is nothing to write. */
export function writeFrontMatter(values: Record<string, unknown>): string {
  const entries = Object.entries(values).filter(([, v]) => v !== undefined);
  if (!entries.length) return '';
  try {
    return `---\n${YAML.stringify(Object.fromEntries(entries), { lineWidth: 0 })}---\n\n`;
  } catch {
    return '';
  }
}
