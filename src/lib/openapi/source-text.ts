/** The content hash of a specification: equal for texts that differ only in line endings or trailing blanks. */
import { createHash } from 'node:crypto';

/**
 * The text compared between versions: CRLF and CR become LF, blanks at the end of each line and
 * blank lines at the end go. Indentation (meaningful in YAML) and everything else are kept.
 */
export function canonicalText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n+$/, '');
}

/** Hex sha256 of the canonical text (UTF-8). */
export const contentHash = (text: string): string => createHash('sha256').update(canonicalText(text), 'utf8').digest('hex');
