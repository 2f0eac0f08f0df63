/**
 * Where a published site answers: `{QUIRE_PUBLIC_URL}/sites/{siteId}/`, or the root of its custom
 * hostname. The default section sits at the site's root and other sections under their path; in
 * a section (or at the root), the default site space sits at the section's root and others under
 * their path. Share links add `?shareKey=`.
 */
import type { Site, SiteSection, SiteShareLink, SiteSpace } from '../generated/prisma/client.js';

export const PUBLISHED_PREFIX = '/sites';

type SiteHost = Pick<Site, 'id' | 'hostname' | 'hostnameVerifiedAt'>;

/** The site's base URL, without a trailing slash: on its custom hostname once verified. */
export function siteBaseUrl(publicUrl: string, site: SiteHost): string {
  if (site.hostname && site.hostnameVerifiedAt) return `${new URL(publicUrl).protocol}//${site.hostname}`;
  return `${publicUrl}${PUBLISHED_PREFIX}/${site.id}`;
}

export function sectionBaseUrl(publicUrl: string, site: SiteHost & Pick<Site, 'defaultSectionId'>, section: Pick<SiteSection, 'id' | 'path'>): string {
  const base = siteBaseUrl(publicUrl, site);
  return section.id === site.defaultSectionId ? base : `${base}/${encodeURIComponent(section.path)}`;
}

/** A site space's base URL (`section` null: at the site's root). */
export function siteSpaceBaseUrl(
  publicUrl: string,
  site: SiteHost & Pick<Site, 'defaultSectionId' | 'defaultSiteSpaceId'>,
  section: Pick<SiteSection, 'id' | 'path' | 'defaultSiteSpaceId'> | null,
  siteSpace: Pick<SiteSpace, 'id' | 'path'>,
): string {
  const base = section ? sectionBaseUrl(publicUrl, site, section) : siteBaseUrl(publicUrl, site);
  const isDefault = siteSpace.id === (section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId);
  return isDefault ? base : `${base}/${encodeURIComponent(siteSpace.path)}`;
}

export const shareLinkUrl = (publicUrl: string, site: SiteHost, link: Pick<SiteShareLink, 'key'>) =>
  `${siteBaseUrl(publicUrl, site)}/?shareKey=${encodeURIComponent(link.key)}`;
