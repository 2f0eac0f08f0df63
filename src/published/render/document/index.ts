/** A page's JSON document → the HTML of its body, and the outline of its headings. */
import { isRecord } from '../../../lib/markdown/nodes.js';
import type { JSONDocument } from '../../../lib/documents/types.js';
import type { RenderContext } from '../context.js';
import { renderBlocks } from './blocks.js';
import { newState, type OutlineHeading } from './state.js';

export type { OutlineHeading } from './state.js';

/** `math`: the body holds KaTeX markup, which needs KaTeX's stylesheet. */
export type RenderedDocument = { html: string; headings: OutlineHeading[]; math: boolean };

/**
 * The body HTML and the headings (with the ids used in the HTML) of the document's top level,
 * for the page outline. Never throws on a malformed document: what cannot be read is skipped.
 */
export function renderDocumentWithOutline(document: JSONDocument, context: RenderContext): RenderedDocument {
  const state = newState(context, context.lang);
  const nodes = isRecord(document) && Array.isArray(document.nodes) ? document.nodes : [];
  const html = renderBlocks(nodes, state, 0, true);
  return { html, headings: state.outline, math: state.math };
}

export function renderDocument(document: JSONDocument, context: RenderContext): string {
  return renderDocumentWithOutline(document, context).html;
}
