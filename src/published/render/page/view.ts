/**
 * What a published page shows, prepared by the caller (the site's customization, navigation and
 * the page's rendered body). URLs here are written through `safeUrl` like those of documents: a
 * customization link to `javascript:` is shown as text.
 */
import type { ThemedColor } from './colors.js';

export type { ThemedColor } from './colors.js';

export type Link = { title: string; href: string };
export type ThemedUrl = { light: string; dark: string };
export type HintStyle = 'info' | 'warning' | 'danger' | 'success';

/** A header link; with children it opens a menu (its own `href`, when set, comes first in it). */
export type HeaderLink = { title: string; href?: string; children?: Link[] };

export type SiteView = {
  title: string;
  /** The site's home URL; the logo or title links there. */
  href?: string;
  logo?: ThemedUrl;
  favicon?: ThemedUrl;
  headerLinks: HeaderLink[];
  footer: { groups: { title: string; links: Link[] }[]; copyright?: string };
  announcement?: { message: string; link?: Link; style: HintStyle };
  /** Customization colours (`#rgb`/`#rrggbb`); the others default to the stylesheet's palette. */
  colors: { primary: ThemedColor; info?: ThemedColor; success?: ThemedColor; warning?: ThemedColor; danger?: ThemedColor; tint?: ThemedColor };
  /**
   * Not toggleable: the page is always in `default`. Toggleable: the page follows the system's
   * `prefers-color-scheme`, and a toggle button stores the visitor's choice.
   */
  theme: { default: 'light' | 'dark'; toggleable: boolean };
  /** A custom font (the customization's `styling.font` when it is a font definition): its faces are loaded with `@font-face`. */
  font?: { family: string; faces: { weight: number; url: string; format?: string }[] };
};

/** A section tab or a variant (site space) of the current section. */
export type SwitchItem = { title: string; href: string; current: boolean };

export type NavItem = {
  title: string;
  href?: string;
  /** A page's emoji code (`1f600`) or the emoji itself. */
  emoji?: string;
  current?: boolean;
  children: NavItem[];
  kind: 'page' | 'group' | 'link';
};

export type OutlineEntry = { id: string; title: string; level: number };

export type PageView = {
  /** BCP 47 language of the content (the customization's locale): `<html lang>` and the interface's words. */
  lang: string;
  site: SiteView;
  sections: SwitchItem[];
  variants: SwitchItem[];
  nav: NavItem[];
  /** `math`: the body holds KaTeX markup (the page then loads `mathStylesheetUrl`). */
  page: { title: string; description?: string; bodyHtml: string; headings?: OutlineEntry[]; math?: boolean };
  previous?: Link;
  next?: Link;
  /** The search form's action (GET, parameter `q`). */
  searchAction: string;
  /**
   * Hidden fields of the search form, e.g. `{shareKey}`: a GET form replaces the query string
   * of its action, so parameters the search URL needs must be fields.
   */
  searchFields?: Record<string, string>;
  noindex: boolean;
  canonicalUrl?: string;
  /** A URL serving SITE_CSS; without it the stylesheet is inlined. */
  stylesheetUrl?: string;
  /** A URL serving KaTeX's stylesheet (its fonts beside it), loaded by pages showing maths. */
  mathStylesheetUrl?: string;
};

export type SearchResult = { title: string; href: string; snippet?: string; section?: string };

export type SearchPageView = Omit<PageView, 'page' | 'previous' | 'next'> & { query: string; results: SearchResult[] };

/**
 * An error page only needs the site's look. Pass no navigation to a visitor who may not see the
 * site's content (401/403): the page would otherwise list the titles of its pages.
 */
export type MessagePageView = Pick<PageView, 'lang' | 'site'> & Partial<Pick<PageView, 'sections' | 'variants' | 'nav' | 'searchAction' | 'searchFields' | 'stylesheetUrl' | 'mathStylesheetUrl'>>;
