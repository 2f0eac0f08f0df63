/**
 * What a published site shows around its pages, read in one go: the site's row (customization,
 * visibility, publication, visitor-auth key), its sections, every site space with its space (the
 * current revision), its external links and its active share links' keys. A site holds tens of
 * these at most; the pages themselves are read per page (page-content.ts).
 */
import type { Db } from '../../db/client.js';
import type { Site, SiteExternalLink, SiteSection, SiteSpace, Space } from '../../generated/prisma/client.js';

export type SiteStructure = {
  sections: SiteSection[];
  /** Every site space of the site (of every section), live or not, with its space. */
  siteSpaces: (SiteSpace & { space: Space })[];
  /** The links not in draft. */
  externalLinks: SiteExternalLink[];
};

export type SiteState = SiteStructure & {
  site: Site;
  /** The keys of the site's active share links. */
  shareKeys: ReadonlySet<string>;
  /** Names this reading of the site among all others in the process: part of every cached page's key. */
  stamp: number;
  /** Roughly what the state holds, in bytes: its weight in the cache. */
  bytes: number;
};

let stamps = 0;

/** The site's structure (for callers that hold the site's row already). */
export async function loadSiteStructure(db: Db, siteId: string): Promise<SiteStructure> {
  const [sections, siteSpaces, externalLinks] = await Promise.all([
    db.siteSection.findMany({ where: { siteId } }),
    db.siteSpace.findMany({ where: { siteId }, include: { space: true } }),
    db.siteExternalLink.findMany({ where: { siteId, draft: false } }),
  ]);
  return { sections, siteSpaces, externalLinks };
}

/** The site's state, or null when there is no such site. */
export async function loadSiteState(db: Db, siteId: string): Promise<SiteState | null> {
  const [site, structure, shareLinks] = await Promise.all([
    db.site.findUnique({ where: { id: siteId } }),
    loadSiteStructure(db, siteId),
    db.siteShareLink.findMany({ where: { siteId, active: true }, select: { key: true } }),
  ]);
  if (!site) return null;
  const parts = { site, ...structure, shareKeys: [...shareLinks.map((l) => l.key)] };
  return { ...structure, site, shareKeys: new Set(parts.shareKeys), stamp: ++stamps, bytes: JSON.stringify(parts).length };
}
