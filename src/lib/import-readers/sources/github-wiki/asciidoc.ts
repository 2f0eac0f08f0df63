/**
 * AsciiDoc → markdown: asciidoctor (the project's own JavaScript build) renders the body as HTML
 * in its `secure` mode — no includes, no file or network reads — and the import's HTML conversion
 * makes markdown of it. Runs in the conversion pool (threads/tasks.ts).
 */
import { htmlToMarkdown } from '../../html/to-markdown.js';

export async function asciidocToMarkdown(text: string): Promise<string> {
  // Loaded on first use: 3.6 MB that no other conversion of the pool needs.
  const { convert } = await import('@asciidoctor/core');
  const html = await convert(text, { safe: 'secure', standalone: false, attributes: { showtitle: false, 'allow-uri-read': null } });
  return htmlToMarkdown(`<html><body><main>${String(html)}</main></body></html>`).markdown;
}
