/** An origin's robots.txt, read for the user agent `quire-import`. */
import robotsParser from 'robots-parser';
import { throwIfAborted } from '../../../fetch/fetch-errors.js';
import { ImportError } from '../../import-error.js';
import type { SafeFetch } from '../../tree.js';

export const ROBOTS_USER_AGENT = 'quire-import';
const MAX_ROBOTS_BYTES = 512 * 1024; // what Google reads of one

/** Whether a URL of the origin may be crawled. */
export type RobotsRules = (url: string) => boolean;

/**
 * The rules of `origin`. A robots.txt that is missing or cannot be read (error status, time-out,
 * too large…) allows everything; only a cancellation of the import is thrown.
 */
export async function loadRobots(fetch: SafeFetch, origin: string, signal: AbortSignal, maxBytes: number): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  let text: string;
  try {
    const resource = await fetch(robotsUrl, { maxBytes: Math.min(MAX_ROBOTS_BYTES, maxBytes) });
    text = new TextDecoder().decode(resource.bytes);
  } catch (error) {
    throwIfAborted(signal);
    if (error instanceof ImportError && error.code === 'CANCELLED') throw error;
    return () => true;
  }
  const robots = robotsParser(robotsUrl, text);
  // undefined: a URL of another origin, which these rules do not govern.
  return (url) => robots.isAllowed(url, ROBOTS_USER_AGENT) !== false;
}
