/** Counting a page tree, and cutting it to the first pages in tree order (a page before its children). */
import type { ImportedPage } from '../tree.js';

export const countPages = (pages: ImportedPage[]): number => pages.reduce((n, page) => n + 1 + countPages(page.children), 0);

export function firstPages(pages: ImportedPage[], max: number): ImportedPage[] {
  let left = max;
  const cut = (list: ImportedPage[]): ImportedPage[] => {
    const kept: ImportedPage[] = [];
    for (const page of list) {
      if (left <= 0) break;
      left--;
      // Copied with its properties as they are: a body read when asked for stays so (zip/pages.ts lazyPageContent).
      kept.push(Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(page), children: { value: cut(page.children), enumerable: true, writable: true } }) as ImportedPage);
    }
    return kept;
  };
  return cut(pages);
}
