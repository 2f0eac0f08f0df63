/**
 * `sitemap.xml` and `robots.txt` of a published site, for search engines: a public site lists the
 * document pages of every site space shown to an anonymous visitor (sections and site spaces
 * without a condition), at most MAX_URLS; an unlisted site (and any other) asks not to be indexed.
 */
import type { Db } from '../db/client.js';
import type { Site, SiteSection, SiteSpace, Space } from '../generated/prisma/client.js';
import { pageData } from '../domain/versions/revisions/entries.js';
import { revisionScope } from '../domain/versions/revisions/load.js';
import { allPages } from '../domain/versions/revisions/read.js';
import { buildTree, walk } from '../domain/versions/revisions/tree.js';
import { bySiblingOrder } from '../domain/publishing/sites/order.js';
import { isLive } from '../domain/content/spaces/lifecycle.js';
import { escapeHtml } from './render/index.js';

/** The sitemap protocol's limit for one file. */
const MAX_URLS = 50_000;

export function robotsTxt(site: Site, origin: string, sitePath: string): string {
  if (site.visibility !== 'public') return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\nSitemap: ${origin}${sitePath}/sitemap.xml\n`;
}

export async function sitemapXml(db: Db, site: Site, origin: string, sitePath: string): Promise<string> {
  const sections = (await db.siteSection.findMany({ where: { siteId: site.id, condition: null } })).sort(bySiblingOrder);
  const parents: (SiteSection | null)[] = sections.length ? sections : [null];
  const urls: string[] = [];
  const segment = (s: string) => encodeURIComponent(s);
  for (const section of parents) {
    if (urls.length >= MAX_URLS) break;
    const siteSpaces = (await db.siteSpace.findMany({ where: { siteId: site.id, sectionId: section?.id ?? null, condition: null }, include: { space: true } }))
      .filter((ss) => isLive(ss.space))
      .sort(bySiblingOrder) as (SiteSpace & { space: Space })[];
    for (const ss of siteSpaces) {
      const sectionPath = section && section.id !== site.defaultSectionId ? [section.path] : [];
      const spacePath = ss.id === (section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId) ? [] : [ss.path];
      const base = `${origin}${sitePath}/${[...sectionPath, ...spacePath].map(segment).join('/')}`.replace(/\/$/, '');
      const pages = (await allPages(db, await revisionScope(db, ss.space.revisionId))).filter((p) => !pageData(p).hidden);
      for (const node of walk(buildTree(pages))) {
        if (urls.length >= MAX_URLS) break;
        if (node.entry.type === 'document') urls.push(`${base}/${node.path.split('/').map(segment).join('/')}`);
      }
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `  <url><loc>${escapeHtml(u)}</loc></url>`).join('\n')}\n</urlset>\n`;
}
