/** Sites over REST: the public document's Site, SiteSection, SiteSpace, ShareLink and SiteStructure. */
import { presentSpace, SPACE_FRAGMENT } from './present.js';

type Obj = Record<string, any>;

export const SITE_FRAGMENT = `fragment RestSite on Site {
  id title type visibility defaultLevel basename hostname published createdAt
  siteSpaceCount
  permissions { view access edit create admin installIntegration viewAdaptiveSchema editAdaptiveSchema } urls { location app preview published }
}`;

export const SITE_SPACE_FRAGMENT = `fragment RestSiteSpace on SiteSpace {
  id path title condition sectionId default space { ...RestSpace } urls { published }
} ${SPACE_FRAGMENT}`;

export const SITE_SECTION_FRAGMENT = `fragment RestSiteSection on SiteSection {
  id title description icon path condition sectionGroupId default siteSpaces { ...RestSiteSpace } urls { published }
}`;

export const SHARE_LINK_FRAGMENT = `fragment RestShareLink on SiteShareLink { id name active createdAt urls { published } }`;

const when = <T>(value: T | null | undefined, key: string) => (value === null || value === undefined ? {} : { [key]: value });
const urls = (u: { published?: string | null }) => (u.published ? { published: u.published } : {});

export const presentSite = (s: Obj) => ({
  object: 'site',
  id: s.id,
  type: s.type,
  appliedType: s.type,
  title: s.title,
  ...when(s.hostname, 'hostname'),
  basename: s.basename,
  visibility: String(s.visibility).replace('_', '-'),
  defaultLevel: s.defaultLevel,
  permissions: s.permissions,
  published: s.published,
  // Visitor conditions are always evaluated (docs/published-sites.md, adaptive content).
  adaptiveContent: { enabled: true },
  // The number of site spaces, at the root and in every section.
  siteSpaces: s.siteSpaceCount,
  createdAt: s.createdAt,
  features: [],
  urls: { location: s.urls.location, app: s.urls.app, preview: s.urls.preview, ...urls(s.urls) },
});

/** A site space; `space` is null when the caller cannot see the space (it is then left out, with its ID). */
export const presentSiteSpace = (ss: Obj) => ({
  object: 'site-space',
  id: ss.id,
  path: ss.path,
  ...when(ss.sectionId, 'section'),
  space: ss.space ? presentSpace(ss.space) : undefined,
  title: ss.title,
  default: ss.default,
  ...when(ss.condition, 'condition'),
  draft: false,
  hidden: false,
  urls: urls(ss.urls),
});

export const presentSiteSection = (s: Obj) => ({
  object: 'site-section',
  id: s.id,
  title: s.title,
  ...when(s.description, 'description'),
  default: s.default,
  draft: false,
  path: s.path,
  ...when(s.condition, 'condition'),
  ...when(s.sectionGroupId, 'sectionGroup'),
  siteSpaces: s.siteSpaces.map(presentSiteSpace),
  urls: urls(s.urls),
  ...when(s.icon, 'icon'),
});

export const presentShareLink = (l: Obj) => ({
  object: 'share-link',
  id: l.id,
  createdAt: l.createdAt,
  ...when(l.name, 'name'),
  active: l.active,
  urls: urls(l.urls),
});

export const EXTERNAL_LINK_FRAGMENT = `fragment RestSiteExternalLink on SiteExternalLink { id title description icon url sectionGroupId draft condition }`;

export const presentExternalLink = (l: Obj) => ({
  object: 'site-external-link',
  id: l.id,
  title: l.title,
  ...when(l.description, 'description'),
  ...when(l.icon, 'icon'),
  url: l.url,
  ...when(l.sectionGroupId, 'sectionGroup'),
  draft: l.draft,
  ...when(l.condition, 'condition'),
});

/**
 * `{type: "sections", structure}` when the site has sections (its sections, then its external
 * links; `published`: drafts left out), else `{type: "siteSpaces", structure}`.
 */
export const presentStructure = (site: Obj, published = false) =>
  site.sections.length
    ? { type: 'sections', structure: [...site.sections.map(presentSiteSection), ...(site.externalLinks ?? []).filter((l: Obj) => !(published && l.draft)).map(presentExternalLink)] }
    : { type: 'siteSpaces', structure: site.siteSpaces.map(presentSiteSpace) };

export const SECTION_GROUP_FRAGMENT = `fragment RestSectionGroup on SiteSectionGroup { id title icon sections { ...RestSiteSection } externalLinks { ...RestSiteExternalLink } } ${EXTERNAL_LINK_FRAGMENT}`;

export const presentSectionGroup = (g: Obj) => {
  const sections = g.sections.map(presentSiteSection);
  return { object: 'site-section-group', id: g.id, title: g.title, ...when(g.icon, 'icon'), draft: false, sections, children: [...sections, ...g.externalLinks.map(presentExternalLink)] };
};
