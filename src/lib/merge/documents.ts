/**
 * Three-way merge of a JSON document (see ./blocks.ts for blocks). The document's own properties
 * (`data`) are each one value; a conflict there has an empty path.
 */
import type { BlockNode, JSONDocument } from '../documents/types.js';
import { mergeBlockList } from './blocks.js';
import { duplicateKeyConflicts } from './duplicate-keys.js';
import { mergeProps, omit } from './three-way.js';
import type { BlockConflict, DocumentMerge } from './types.js';

/** The document's data shown where a conflict expects a block. */
const dataBlock = (document: JSONDocument): BlockNode => ({ object: 'block', type: 'document', data: document.data });

const blocksOf = (document: JSONDocument): BlockNode[] => (Array.isArray(document.nodes) ? document.nodes : []);

export function mergeDocuments(base: JSONDocument, ours: JSONDocument, theirs: JSONDocument): DocumentMerge {
  const conflicts: BlockConflict[] = [];
  const own = mergeProps(omit(base, ['nodes']), omit(ours, ['nodes']), omit(theirs, ['nodes']));
  if (own.conflicts.length) conflicts.push({ path: [], base: dataBlock(base), ours: dataBlock(ours), theirs: dataBlock(theirs) });
  const nodes = mergeBlockList(blocksOf(base), blocksOf(ours), blocksOf(theirs), []);
  conflicts.push(...nodes.conflicts);
  const document = { ...own.value, nodes: nodes.value } as JSONDocument;
  conflicts.push(...duplicateKeyConflicts(document, base, ours, theirs));
  return { document, conflicts };
}
