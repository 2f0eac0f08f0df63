/**
 * Three-way merge of a space's content, pure (no database): documents block by block
 * (`mergeDocuments`) and revision entities with their page tree (`mergeEntities`).
 */
export { mergeDocuments } from './documents.js';
export { mergeEntities } from './entities.js';
export type {
  BlockConflict,
  DocumentMerge,
  EntityConflict,
  EntityConflictReason,
  EntityKind,
  EntityMerge,
  EntityVersion,
  EntityVersions,
  MergeEntitiesInput,
} from './types.js';
