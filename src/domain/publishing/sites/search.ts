/**
 * Searching a site's content (the public document's `POST …/sites/{siteId}/search`): the
 * organization search (versions/search/query.ts — the same engine, index, scores and excerpts as
 * the published site's `~search` page) over the spaces the site publishes, narrowed by a scope:
 *
 * - `all`: every site space, in every section;
 * - `default`: the default site space of each section (or of the root), with `currentSiteSpace`
 *   standing in for its own section's default; `restrictTo` `currentSiteSpace` keeps only it,
 *   `otherSiteSpaces` only the others;
 * - `specific`: the site spaces named in `siteSpaceIds`.
 *
 * Results are spaces (best first), each with its best pages and sections, paged in SQL. Who reads
 * the site may search it (`view` on the site, capabilities.ts SITE_RULES) — what its published
 * search finds, whatever the caller's roles on the spaces; a space in the trash is left out.
 */
import { z } from 'zod';
import type { SiteSpace } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { badRequest } from '../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import type { PageArgs } from '../../kernel/pagination/keyset.js';
import { searchOrganization, type SearchPage } from '../../versions/search/query.js';

const id = lazySchema(() => z.string().min(1).max(100));
const scopeSchema = lazySchema(() => z
  .object({
    mode: z.enum(['default', 'specific', 'all']),
    currentSiteSpace: id.nullish(),
    restrictTo: z.enum(['currentSiteSpace', 'otherSiteSpaces']).nullish(),
    siteSpaceIds: z.array(id).min(1).max(1000).nullish(),
  })
  .strict());

export type SiteSearchScope = z.input<typeof scopeSchema>;

/** The site spaces a scope names (`siteSpaces`: the site's, `defaults`: each parent's default). */
function inScope(scope: z.output<typeof scopeSchema>, siteSpaces: SiteSpace[], defaults: Set<string>): SiteSpace[] {
  const byId = new Map(siteSpaces.map((ss) => [ss.id, ss]));
  const own = (ssId: string, field: string) => {
    const found = byId.get(ssId);
    if (!found) throw badRequest(`Invalid value for "${field}": no site space ${ssId} in this site`, field);
    return found;
  };
  if (scope.mode === 'all') return siteSpaces;
  if (scope.mode === 'specific') {
    if (!scope.siteSpaceIds) throw badRequest('Invalid value for "scope.siteSpaceIds": required with mode "specific"', 'scope.siteSpaceIds');
    return scope.siteSpaceIds.map((ssId, i) => own(ssId, `scope.siteSpaceIds.${i}`));
  }
  const current = scope.currentSiteSpace ? own(scope.currentSiteSpace, 'scope.currentSiteSpace') : null;
  if (scope.restrictTo && !current) throw badRequest('Invalid value for "scope.currentSiteSpace": required with "restrictTo"', 'scope.currentSiteSpace');
  // The current site space stands in for its own parent's default.
  const others = siteSpaces.filter((ss) => defaults.has(ss.id) && (!current || ss.sectionId !== current.sectionId));
  if (scope.restrictTo === 'currentSiteSpace') return [current!];
  if (scope.restrictTo === 'otherSiteSpaces') return others;
  return current ? [current, ...others] : others;
}

export async function searchSite(db: Db, access: Access, siteId: string, query: unknown, rawScope: unknown, args: PageArgs): Promise<SearchPage> {
  const site = await access.requireSite(siteId, 'view');
  const scope = parseInput(scopeSchema, rawScope ?? { mode: 'all' }, 'scope.');
  const [siteSpaces, sections] = await Promise.all([db.siteSpace.findMany({ where: { siteId } }), db.siteSection.findMany({ where: { siteId }, select: { defaultSiteSpaceId: true } })]);
  const defaults = new Set([site.defaultSiteSpaceId, ...sections.map((s) => s.defaultSiteSpaceId)].filter((d): d is string => !!d));
  const spaceIds = [...new Set(inScope(scope, siteSpaces, defaults).map((ss) => ss.spaceId))];
  return searchOrganization(db, { spaceIds }, site.organizationId, query, args);
}

/**
 * `POST …/search/prewarm`: the real service warms a cache before a visitor's first search. quire's
 * search reads PostgreSQL's full-text index directly and needs no warm-up, so this is only the
 * search's own access check (who may search the site).
 */
export async function prewarmSiteSearch(access: Access, siteId: string): Promise<void> {
  await access.requireSite(siteId, 'view');
}
