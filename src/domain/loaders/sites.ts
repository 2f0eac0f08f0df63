/** Loaders of published sites: sites, sections and site spaces by ID, a section's site spaces, a site's sections, section groups and site-space count. */
import type { Db } from '../../db/client.js';
import type { Site, SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace } from '../../generated/prisma/client.js';
import { externalLinksOfSites, loadSites, sectionGroupsOfSites, type SiteRow } from '../publishing/sites/rows.js';
import type { LoaderRegistry } from './registry.js';

const byId = <T extends { id: string }>(ids: readonly string[], rows: T[]) => {
  const found = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => found.get(id) ?? null);
};

/** Rows of `parents`, grouped by `key`, each group in sibling order. */
const grouped = <T extends { position: string; id: string }>(parents: readonly string[], rows: T[], key: (row: T) => string | null) =>
  parents.map((p) => rows.filter((r) => key(r) === p).sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1)));

export function siteLoaders(db: Db, viewerId: string, registry: LoaderRegistry) {
  return {
    /** Sites with the caller's role on each (`viewerRole`). */
    site: registry.track<string, SiteRow | null>((ids) => loadSites(db, viewerId, ids)),
    siteSection: registry.track<string, SiteSection | null>(async (ids) => byId(ids, await db.siteSection.findMany({ where: { id: { in: [...ids] } } }))),
    siteSpace: registry.track<string, SiteSpace | null>(async (ids) => byId(ids, await db.siteSpace.findMany({ where: { id: { in: [...ids] } } }))),
    /** A site's sections, in order (a site holds tens of them, not thousands). */
    sectionsOfSite: registry.track<string, SiteSection[]>(async (ids) => grouped(ids, await db.siteSection.findMany({ where: { siteId: { in: [...ids] } } }), (s) => s.siteId)),
    /** A site's section groups, in order. */
    sectionGroupsOfSite: registry.track<string, SiteSectionGroup[]>((ids) => sectionGroupsOfSites(db, ids)),
    /** A site's external links, in order (a few). */
    externalLinksOfSite: registry.track<string, SiteExternalLink[]>((ids) => externalLinksOfSites(db, ids)),
    /** A section's site spaces, in order. */
    siteSpacesOfSection: registry.track<string, SiteSpace[]>(async (ids) => grouped(ids, await db.siteSpace.findMany({ where: { sectionId: { in: [...ids] } } }), (s) => s.sectionId)),
    /** Where each space is published: its first site space in a published site (oldest first), with the site and section. */
    publishedSiteSpace: registry.track<string, (SiteSpace & { site: Site; section: SiteSection | null }) | null>(async (spaceIds) => {
      const rows = await db.siteSpace.findMany({ where: { spaceId: { in: [...spaceIds] }, site: { published: true } }, include: { site: true, section: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return spaceIds.map((id) => rows.find((r) => r.spaceId === id) ?? null);
    }),
    /** How many site spaces each site has, at the root and in sections. */
    siteSpaceCount: registry.track<string, number>(async (ids) => {
      const rows = await db.siteSpace.groupBy({ by: ['siteId'], where: { siteId: { in: [...ids] } }, _count: { _all: true } });
      return ids.map((id) => rows.find((r) => r.siteId === id)?._count._all ?? 0);
    }),
    /** A site's site spaces at the root (a site without sections), in order. */
    rootSiteSpacesOfSite: registry.track<string, SiteSpace[]>(async (ids) => grouped(ids, await db.siteSpace.findMany({ where: { siteId: { in: [...ids] }, sectionId: null } }), (s) => s.siteId)),
  };
}
