/** A site's customization as the renderer's SiteView: title, logo, favicon, links, footer, announcement, colours, theme. */
import type { ContentRef, SiteCustomization } from '../domain/publishing/sites/customization/defaults.js';
import { themeColors } from '../domain/publishing/sites/customization/validate.js';
import { evaluateCondition } from '../domain/publishing/sites/visitors/condition.js';
import type { HeaderLink, Link, SiteView } from './render/index.js';

/** Where a customization link goes; only URLs can be followed from here (other kinds of targets are left as text). */
const hrefOf = (to: ContentRef | null | undefined): string | undefined => (to && to.kind === 'url' && typeof to.url === 'string' ? to.url : undefined);

const link = (item: { title: string; to: ContentRef | null }): Link[] => {
  const href = hrefOf(item.to);
  return href ? [{ title: item.title, href }] : [];
};

/** The faces of a custom font definition (`{weight, sources: [{url, format?}]}`), one source each. */
function customFaces(faces: unknown[]): { weight: number; url: string; format?: string }[] {
  return faces.flatMap((face) => {
    const { weight, sources } = (face ?? {}) as { weight?: unknown; sources?: { url?: unknown; format?: unknown }[] };
    const source = Array.isArray(sources) ? sources.find((s) => typeof s?.url === 'string') : undefined;
    return typeof weight === 'number' && source ? [{ weight, url: String(source.url), ...(typeof source.format === 'string' ? { format: source.format } : {}) }] : [];
  });
}

export function siteView(customization: SiteCustomization, fallbackTitle: string, homeHref: string, claims: Record<string, unknown>): SiteView {
  const header = customization.header;
  const headerLinks: HeaderLink[] = header.links
    .filter((item) => !item.condition || evaluateCondition(item.condition, { visitor: { claims } }))
    .map((item) => ({ title: item.title, href: hrefOf(item.to), children: item.links.flatMap(link) }));
  const favicon = 'icon' in customization.favicon ? customization.favicon.icon : undefined;
  const announcement = customization.announcement?.enabled && customization.announcement.message ? customization.announcement : undefined;
  const colors = themeColors(customization);
  const font = customization.styling.font;
  return {
    title: customization.title || fallbackTitle,
    href: homeHref,
    logo: header.logo,
    favicon,
    headerLinks,
    footer: {
      groups: customization.footer.groups.map((group) => ({ title: group.title, links: group.links.flatMap(link) })),
      copyright: customization.footer.copyright,
    },
    announcement: announcement && { message: announcement.message, link: announcement.link ? link(announcement.link)[0] : undefined, style: announcement.style },
    colors: { primary: colors.primary, tint: colors.tint, info: colors.info, success: colors.success, warning: colors.warning, danger: colors.danger },
    theme: { default: customization.themes.default === 'dark' ? 'dark' : 'light', toggleable: customization.themes.toggeable },
    ...(typeof font === 'object' && font?.custom ? { font: { family: font.fontFamily, faces: customFaces(font.fontFaces) } } : {}),
  };
}
