/**
 * A document held by the event loop (a JSON page body, an imported page after its links were
 * rewritten) → its stored form, without blocking the loop for long: a small one is prepared here,
 * a large one in the conversion pool (tasks.ts `storeDocument`), to which it goes as JSON text
 * (native JSON.stringify: ~10 ms per MB, against ~40 ms per MB for canonical JSON and SHA-256).
 * Past the document size limit, refused with a MarkdownLimitError naming it.
 */
import type { JSONDocument } from './types.js';
import { withKeys } from './with-keys.js';
import { runLimitedTask } from '../markdown/convert.js';
import { documentSizeBreach } from '../markdown/limits.js';
import type { StoredDocumentOutcome } from '../threads/outcomes.js';
import { PreparedDocument, prepareDocument } from './document-id.js';

/**
 * Documents up to this size as JSON are prepared on the event loop. Measured (keyed paragraphs):
 * 256 KB took 8 ms on the loop, against 1 ms on the loop and 18 ms in all through the pool;
 * 1 MB, 27 ms against 5 ms and 60 ms. Below this, the pool's round trip (and its queue, behind
 * conversions that may take seconds) costs more than the few milliseconds it saves.
 */
export const INLINE_PREPARE_BYTES = 256 * 1024;

/** `keys`: give blocks and inlines without a key one (withKeys), as for a body sent as JSON. */
export async function prepareOffLoop(document: JSONDocument, options: { keys: boolean; signal?: AbortSignal }): Promise<PreparedDocument> {
  const json = JSON.stringify(document);
  const tooLarge = documentSizeBreach(json.length);
  if (tooLarge) throw tooLarge;
  if (json.length <= INLINE_PREPARE_BYTES) return prepareDocument(options.keys ? withKeys(document) : document);
  const { stored } = await runLimitedTask<{ json: string; keys: boolean }, StoredDocumentOutcome>('storeDocument', { json, keys: options.keys }, options.signal);
  return new PreparedDocument(stored);
}
