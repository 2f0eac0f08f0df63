/** What every page of a site space shares: its URLs, the site's look, the section tabs and variants, and what its ETag depends on. */
import type { Site } from '../generated/prisma/client.js';
import { effectiveCustomization } from '../domain/publishing/sites/customization/validate.js';
import type { SiteCustomization } from '../domain/publishing/sites/customization/defaults.js';
import type { Located } from './locate.js';
import { emojiCode, KATEX_ASSETS } from './assets.js';
import { siteView } from './site-view.js';
import { SITE_CSS_ASSET, type SiteView } from './render/index.js';
import type { Visitor } from './visitor.js';

/**
 * Each site space's effective customization, made once per site state: the published cache keeps
 * the state's rows as read (the same objects until the site changes), so the row's object says
 * it is the same space, and the site's customization and the space's title the rest it depends on.
 */
const customizations = new WeakMap<object, { site: unknown; title: string; value: SiteCustomization }>();

function customizationOf(site: Site, siteSpace: Located['siteSpace']): SiteCustomization {
  const known = customizations.get(siteSpace);
  if (known?.site === site.customization && known.title === siteSpace.space.title) return known.value;
  const value = effectiveCustomization(site.customization as unknown as SiteCustomization, siteSpace.customization as never, siteSpace.space.title);
  customizations.set(siteSpace, { site: site.customization, title: siteSpace.space.title, value });
  return value;
}

/** What every page of the site space shares: links, the site's look, its tabs and variants. */
export function frame(site: Site, sitePath: string, located: Located, visitor: Visitor) {
  const { section, siteSpace } = located;
  const join = (...parts: string[]) => `${sitePath}/${parts.filter(Boolean).map(encodeURIComponent).join('/')}`;
  const { sectionPrefix, prefix: spacePrefix } = located;
  const hrefOf = (pagePath: string) => `${join(...spacePrefix)}${pagePath ? `/${pagePath.split('/').map(encodeURIComponent).join('/')}` : ''}`.replace(/\/\/+/g, '/');
  const customization = customizationOf(site, siteSpace);
  const lang = customization.internationalization.locale || 'en';
  const view = {
    lang,
    site: withSignOut(withFavicon(siteView(customization, site.title, join(), visitor.claims), customization, (name) => join('~assets', name)), site, visitor),
    sections: [
      ...located.sections.map((s) => ({ title: s.title, href: join(s.id === site.defaultSectionId ? '' : s.path), current: s.id === section?.id })),
      ...located.externalLinks.map((l) => ({ title: l.title, href: l.url, current: false })),
    ],
    variants:
      located.siteSpaces.length > 1
        ? located.siteSpaces.map((ss) => {
            const isDefault = ss.id === (section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId);
            return { title: ss.title ?? ss.space.title, href: join(...sectionPrefix, isDefault ? '' : ss.path), current: ss.id === siteSpace.id };
          })
        : [],
    searchAction: join('~search', ...spacePrefix),
    noindex: site.visibility !== 'public' || !!visitor.preview,
    stylesheetUrl: `${join('~assets')}/${SITE_CSS_ASSET}`,
    mathStylesheetUrl: join('~assets', KATEX_ASSETS, 'katex.min.css'),
  };
  return { view, hrefOf, customization };
}

/**
 * What an answer in the site space's frame depends on, for its ETag: the site's row (its
 * customization), the structure shown (sections, links, site spaces with their customizations),
 * the spaces' revisions, the visitor. Known without building the frame, so that a revalidation
 * answers 304 before it.
 */
export const frameEtagParts = (site: Site, sitePath: string, located: Located, visitor: Visitor): unknown[] => [
  site.id,
  sitePath,
  site.updatedAt,
  site.defaultSectionId,
  site.defaultSiteSpaceId,
  located.sections.map((s) => [s.id, s.updatedAt, s.defaultSiteSpaceId]),
  located.externalLinks.map((l) => [l.id, l.updatedAt]),
  located.siteSpaces.map((ss) => [ss.id, ss.updatedAt, ss.space.revisionId, ss.space.updatedAt]),
  visitor.claims,
  visitor.shareKey ?? null,
  visitor.preview ?? false,
];


/** A site without an icon URL gets quire's own (its emoji, or its initial): never a 404 for the browser's favicon request. */
function withFavicon(view: SiteView, customization: SiteCustomization, asset: (name: string) => string): SiteView {
  if (view.favicon) return view;
  const code = 'emoji' in customization.favicon ? emojiCode(customization.favicon.emoji) : undefined;
  const url = asset(code ? `favicon-${code}.svg` : 'favicon.svg');
  return { ...view, favicon: { light: url, dark: url } };
}

/** A visitor signed in to a `visitor-auth` site gets a link to its sign-out URL, when it has one (publishing auth's `logoutURL`). */
function withSignOut(view: SiteView, site: Site, visitor: Visitor): SiteView {
  if (site.visibility !== 'visitor_auth' || !site.visitorAuthLogoutUrl || visitor.preview) return view;
  return { ...view, headerLinks: [...view.headerLinks, { title: 'Sign out', href: site.visitorAuthLogoutUrl }] };
}
