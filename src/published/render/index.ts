/**
 * Rendering of published sites: documents to HTML (document/) and whole pages (page/). Pure:
 * no database, no HTTP; what it needs from the site comes in a RenderContext or a view.
 */
export type { ContentRefLike, RenderContext, RenderedFile } from './context.js';
export { renderDocument, renderDocumentWithOutline, type OutlineHeading, type RenderedDocument } from './document/index.js';
export { escapeHtml, safeUrl } from './html.js';
export { PAGE_IDS } from './ids.js';
export { renderMessagePage, type MessageStatus } from './page/message.js';
export { renderPage } from './page/page.js';
export { SCRIPT_HASHES, SITE_SCRIPT, THEME_SCRIPT } from './page/script.js';
export { renderSearchPage } from './page/search.js';
export { SITE_CSS, SITE_CSS_ASSET } from './page/css.js';
export type { HeaderLink, Link, MessagePageView, NavItem, OutlineEntry, PageView, SearchPageView, SearchResult, SiteView, SwitchItem, ThemedColor, ThemedUrl } from './page/view.js';
export { stringsFor, type UiStrings } from './strings.js';
