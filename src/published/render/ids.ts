/**
 * Element ids of one HTML page. Heading anchors come from text, so "Main content" would collide
 * with the skip link's target: the page's own ids are reserved before any heading claims one,
 * and every later claim (headings, tabs) gets a `-1`, `-2`… suffix until it is unused.
 */

/** Ids the page layout uses (see page/). */
export const PAGE_IDS = {
  main: 'main-content',
  nav: 'site-nav',
  search: 'site-search',
  outline: 'page-outline',
  searchResults: 'search-results',
  searchQuery: 'search-query',
} as const;

export class IdRegistry {
  private readonly used = new Set<string>(Object.values(PAGE_IDS));

  /** A unique id from a wanted one (`fallback` when it is empty). */
  claim(wanted: string, fallback = 'section'): string {
    const base = wanted || fallback;
    let id = base;
    for (let n = 1; this.used.has(id); n++) id = `${base}-${n}`;
    this.used.add(id);
    return id;
  }
}
