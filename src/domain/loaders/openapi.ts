/** Loaders of what an OpenAPI specification shows: its last version, its versions (paged) and their count, its latest processing job. */
import type { OpenAPISpecVersion } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import type { Page } from '../kernel/pagination/keyset.js';
import { countSpecVersions, latestProcessingJobs, specVersionsById, specVersionsPages } from '../publishing/openapi-specs/rows.js';
import type { JobRow } from '../work/jobs/rows.js';
import { fromPageVariant, type LoaderRegistry } from './registry.js';

export function openAPILoaders(db: Db, registry: LoaderRegistry) {
  return {
    openAPISpecVersion: registry.track<string, OpenAPISpecVersion | null>((ids) => specVersionsById(db, ids)),
    /** A page of each spec's versions, newest first; variant: pageVariant(args). */
    openAPISpecVersions: registry.variants<Page<OpenAPISpecVersion>>((variant, ids) => specVersionsPages(db, ids, fromPageVariant(variant).args)),
    openAPISpecVersionCount: registry.track<string, number>((ids) => countSpecVersions(db, ids)),
    /** Each spec's latest processing job (not checked: the caller checks it, access.requireJob). */
    openAPIProcessingJob: registry.track<string, JobRow | null>((ids) => latestProcessingJobs(db, ids)),
  };
}
