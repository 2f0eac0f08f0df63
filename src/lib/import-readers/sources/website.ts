/**
 * The `website` source: a page and the same-origin pages it links to, crawled breadth-first within
 * the import's limits (depth, pages, bytes, time), honouring the origin's robots.txt. Each HTML
 * page becomes one top-level page of the tree, in crawl order; images stay remote URLs.
 */
import { TotalBytesExceededError } from '../../fetch/byte-budget.js';
import { throwIfAborted } from '../../fetch/fetch-errors.js';
import { ImportError } from '../import-error.js';
import { htmlToMarkdownInPool } from '../in-pool.js';
import type { FetchedResource, ImportedPage, ImportSource, SafeFetch } from '../tree.js';
import { HTML_TYPES } from './html.js';
import { looksLikeFile, normalizeUrl, sameOrigin } from './website/crawl-url.js';
import { loadRobots } from './website/robots.js';
import { settle } from './website/settle.js';

const disallowed = (url: string) => new ImportError('ROBOTS_DISALLOWED', `The robots.txt of the website does not allow reading ${url}.`);

export const websiteSource: ImportSource = async (startUrl, context) => {
  const { fetch, limits, signal } = context;
  // Running out of time stops the crawl, keeping what was read. It stops at 90% of the import's time,
  // leaving the rest for the page in hand, before the job's own hard stop (which fails the import).
  const deadline = Date.now() + limits.totalTimeMs * 0.9;
  const start = normalizeUrl(startUrl);
  if (!start) throw new ImportError('FETCH_ERROR', 'The website address must be an http or https URL, without a user name or password.');
  throwIfAborted(signal);

  let origin = new URL(start).origin;
  let rules = await loadRobots(fetch, origin, signal, limits.maxResponseBytes);
  if (!rules(start)) throw disallowed(start);
  const first = await readHtml(fetch, start);
  const firstUrl = normalizeUrl(first.url) ?? start;
  if (!sameOrigin(firstUrl, origin)) {
    // The start redirected elsewhere (http → https, a www. host): that site is the one crawled.
    origin = new URL(firstUrl).origin;
    rules = await loadRobots(fetch, origin, signal, limits.maxResponseBytes);
    if (!rules(firstUrl)) throw disallowed(firstUrl);
  }

  const pages: ImportedPage[] = [];
  const crawled = new Set<string>(); // final URLs of the pages read
  const seen = new Set<string>([start]); // same-origin page URLs found (fetched or not)
  let notPages = 0; // URLs of `seen` that turned out not to be pages (another type, an error, a duplicate)
  const queue: { url: string; depth: number }[] = [];

  /** Converted in the conversion pool, off the event loop; past its budget: TOO_LARGE. */
  const addPage = async (resource: FetchedResource, source: string, depth: number) => {
    const { title, markdown, links } = await htmlToMarkdownInPool({ bytes: resource.bytes, ...(resource.charset ? { charset: resource.charset } : {}), baseUrl: source }, signal);
    crawled.add(source);
    pages.push({ source, ...(title ? { title } : {}), markdown, children: [] });
    context.progress(pages.length, undefined, source);
    for (const link of links) {
      const url = normalizeUrl(link);
      if (!url || seen.has(url) || crawled.has(url) || !sameOrigin(url, origin) || looksLikeFile(url)) continue;
      seen.add(url); // counted even when a limit or robots.txt leaves it out
      if (depth < limits.maxDepth && rules(url)) queue.push({ url, depth: depth + 1 });
    }
  };

  try {
    await addPage(first, firstUrl, 0);
  } catch (error) {
    throwIfAborted(signal);
    if (error instanceof ImportError) throw error;
    throw new ImportError('PARSE_ERROR', `The page ${firstUrl} could not be read.`);
  }

  for (let next = 0; next < queue.length; next++) {
    throwIfAborted(signal);
    if (pages.length >= limits.maxPages || Date.now() >= deadline) break;
    const { url, depth } = queue[next];
    if (crawled.has(url)) {
      notPages++; // reached earlier through a redirect
      continue;
    }
    const outcome = await settle(readHtml(fetch, url), signal, deadline - Date.now());
    if (outcome === 'late') break;
    if ('error' in outcome) {
      throwIfAborted(signal);
      if (outcome.error instanceof TotalBytesExceededError) break;
      if (outcome.error instanceof ImportError && outcome.error.code === 'CANCELLED') throw outcome.error;
      notPages++; // a page that fails (404, time-out, not HTML…) is left out
      continue;
    }
    const source = normalizeUrl(outcome.value.url);
    if (!source || !sameOrigin(source, origin) || crawled.has(source) || !rules(source)) {
      notPages++;
      continue;
    }
    try {
      await addPage(outcome.value, source, depth);
    } catch {
      throwIfAborted(signal);
      notPages++;
    }
  }

  return { pages, files: [], totalResources: seen.size - notPages };
};

const readHtml = (fetch: SafeFetch, url: string) => fetch(url, { accept: HTML_TYPES });
