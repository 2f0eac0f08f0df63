/** Processing of OpenAPI specifications (no database): what the API and its job use. */
export { slugSchema, validateSlug, SPEC_SLUG_PATTERN, SPEC_SLUG_MAX } from './slug.js';
export { processSpec, type ProcessedSpec, type ProcessSpecOptions, type SpecSource } from './process-spec.js';
export { SpecProcessingError, SPEC_PROCESSING_ERROR_CODES, type SpecIssue, type SpecProcessingErrorCode } from './processing-error.js';
export { MAX_SPEC_BYTES, SPEC_MEDIA_TYPES } from './fetch-spec.js';
export { contentHash, canonicalText } from './source-text.js';
export type { SpecFormat } from './parse-document.js';
