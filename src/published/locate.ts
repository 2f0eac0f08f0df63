/**
 * Which section, site space and page a published URL names. Under the site's path: a section's
 * path (else the default section), then a site space's path (else the section's default), then
 * the page's path in the space's current revision (empty: its first page). Sections and site
 * spaces whose condition is false for the visitor are left out (as if absent); a default left out
 * gives way to the first one shown.
 */
import type { Site, SiteExternalLink, SiteSection, SiteSpace, Space } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import { evaluateCondition } from '../domain/publishing/sites/visitors/condition.js';
import { bySiblingOrder } from '../domain/publishing/sites/order.js';
import { isLive } from '../domain/content/spaces/lifecycle.js';
import { loadSiteStructure, type SiteStructure } from './cache/site-state.js';

export type Located = {
  sections: SiteSection[];
  /** The site's live external links shown to the visitor (sites with sections only), in order. */
  externalLinks: SiteExternalLink[];
  section: SiteSection | null;
  /** The site spaces shown beside the current one (the section's, or the root's). */
  siteSpaces: (SiteSpace & { space: Space })[];
  siteSpace: SiteSpace & { space: Space };
  /** The section's path segment in the URL (none for the default), then the site space's (none for the default). */
  sectionPrefix: string[];
  prefix: string[];
  pagePath: string;
};

const shown = (claims: Record<string, unknown>) => (item: { condition: string | null }) => !item.condition || evaluateCondition(item.condition, { visitor: { claims } });

function pick<T extends { id: string; path: string }>(items: T[], defaultId: string | null, segment: string | undefined): { item: T | undefined; consumed: boolean } {
  const named = segment === undefined ? undefined : items.find((i) => i.path === segment && i.id !== defaultId);
  if (named) return { item: named, consumed: true };
  return { item: items.find((i) => i.id === defaultId) ?? items[0], consumed: false };
}

/** Where the URL's segments lead among the site's structure (read once per site: cache/site-state.ts). */
export function locateIn(site: Site, structure: SiteStructure, segments: string[], claims: Record<string, unknown>): Located | null {
  const sections = structure.sections.filter(shown(claims)).sort(bySiblingOrder);
  const prefix: string[] = [];
  let rest = segments;
  let section: SiteSection | null = null;
  if (sections.length) {
    const { item, consumed } = pick(sections, site.defaultSectionId, rest[0]);
    section = item ?? null;
    if (consumed) (prefix.push(rest[0]), (rest = rest.slice(1)));
  }
  const sectionPrefix = [...prefix];
  const sectionId = section?.id ?? null;
  const siteSpaces = structure.siteSpaces.filter((ss) => ss.sectionId === sectionId && isLive(ss.space)).filter(shown(claims)).sort(bySiblingOrder);
  // A site with sections may have external links beside them.
  const externalLinks = sections.length ? structure.externalLinks.filter(shown(claims)).sort(bySiblingOrder) : [];
  if (!siteSpaces.length) return null;
  const { item: siteSpace, consumed } = pick(siteSpaces, section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId, rest[0]);
  if (!siteSpace) return null;
  if (consumed) (prefix.push(rest[0]), (rest = rest.slice(1)));
  return { sections, externalLinks, section, siteSpaces, siteSpace, sectionPrefix, prefix, pagePath: rest.join('/') };
}

/** As locateIn, reading the site's structure. */
export async function locate(db: Db, site: Site, segments: string[], claims: Record<string, unknown>): Promise<Located | null> {
  return locateIn(site, await loadSiteStructure(db, site.id), segments, claims);
}
