/**
 * Element ids of one HTML page. Heading anchors come from text, so "Main content" would collide
 * with the skip link's target: the page's own ids are reserved before any heading claims one,
 * and every later claim (headings, tabs) gets a `-1`, `-2`… suffix until it is unused.
 */

/** Ids the page layout uses (see page/). */
export const PAGE_IDS = {
  main: 'main-content',
  nav: 'site-nav',
  sidebar: 'site-sidebar',
  search: 'site-search',
  outline: 'page-outline',
  searchResults: 'search-results',
  searchQuery: 'search-query',
} as const;

export class IdRegistry {
  private readonly used = new Set<string>(Object.values(PAGE_IDS));
  /** The next suffix to try per base, so that many equal headings stay linear. */
  private readonly next = new Map<string, number>();

  /** A unique id from a wanted one (`fallback` when it is empty). */
  claim(wanted: string, fallback = 'section'): string {
    const base = wanted || fallback;
    let id = base;
    let n = this.next.get(base) ?? 1;
    if (this.used.has(id)) for (id = `${base}-${n}`; this.used.has(id); id = `${base}-${++n}`);
    this.next.set(base, n);
    this.used.add(id);
    return id;
  }
}
