/**
 * A wiki page's markup → markdown, through HTML and the import's HTML conversion, for the formats
 * with a maintained converter on npm: AsciiDoc (asciidoctor, the project's own JavaScript build,
 * in its `secure` mode: no includes, no file or network reads) and Org (orgajs: its parser and its
 * HTML tree). Runs in the conversion pool (threads/tasks.ts); each converter is loaded on first
 * use, as no other conversion of the pool needs it.
 */
import { htmlToMarkdown } from '../../html/to-markdown.js';
import type { WikiFormat } from './formats.js';

/** The formats converted here; the others are kept as code blocks (tree.ts). */
export const CONVERTED_FORMATS: readonly WikiFormat[] = ['asciidoc', 'org'];

type HastNode = { type: string; tagName?: string; properties?: Record<string, unknown>; children?: HastNode[]; value?: string };

/** Org writes `[[Page]]` as a link without text: its target becomes its text. */
function labelEmptyLinks(node: HastNode): void {
  if (node.type === 'element' && node.tagName === 'a' && !node.children?.length && typeof node.properties?.href === 'string') {
    node.children = [{ type: 'text', value: node.properties.href }];
  }
  for (const child of node.children ?? []) labelEmptyLinks(child);
}

async function toHtml(format: WikiFormat, text: string): Promise<string | undefined> {
  if (format === 'asciidoc') {
    const { convert } = await import('@asciidoctor/core');
    return String(await convert(text, { safe: 'secure', standalone: false, attributes: { showtitle: false, 'allow-uri-read': null } }));
  }
  if (format === 'org') {
    const [{ parse }, { default: toHast }, { toHtml: stringify }] = await Promise.all([import('orga'), import('oast-to-hast'), import('hast-util-to-html')]);
    const hast = toHast(parse(text)) as unknown as HastNode;
    labelEmptyLinks(hast);
    return stringify(hast as never);
  }
  return undefined;
}

export async function markupToMarkdown(format: WikiFormat, text: string): Promise<string | undefined> {
  const html = await toHtml(format, text);
  return html === undefined ? undefined : htmlToMarkdown(`<html><body><main>${html}</main></body></html>`).markdown;
}
