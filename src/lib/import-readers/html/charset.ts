/**
 * The text of an HTML document's bytes, decoded as a browser would (simplified): a byte-order
 * mark first, then the HTTP charset, then a `<meta charset>` (or `http-equiv` content type) near
 * the start, else UTF-8. Unknown labels are skipped.
 */

/** How far into the document a `<meta>` charset is looked for (the HTML standard's pre-scan reads 1024 bytes). */
const PRESCAN_BYTES = 4096;

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The encoding a label names, if TextDecoder knows it. */
function known(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, PRESCAN_BYTES));
  const label = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  const encoding = known(label);
  // A document whose meta tag could be read is ASCII-compatible: a "UTF-16" label there is wrong.
  return encoding?.startsWith('utf-16') ? 'utf-8' : encoding;
}

export function decodeHtml(bytes: Uint8Array, charset?: string): string {
  const encoding = bomEncoding(bytes) ?? known(charset) ?? metaCharset(bytes) ?? 'utf-8';
  return new TextDecoder(encoding).decode(bytes);
}
