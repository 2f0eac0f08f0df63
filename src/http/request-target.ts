/**
 * The path and query of a request's target, as `new URL(target, 'http://localhost')` reads them.
 * Most targets are plain (`/v1/spaces/spc_…`, `?limit=100`): for those the path is the target's
 * own text and the query is parsed on its own, without the cost of a full URL parse on every
 * request. Anything a URL parser would rewrite (dot or empty segments, percent-encoding, a
 * fragment, characters it escapes) takes the full parse.
 */
const PLAIN_PATH = /^(?:\/[\w-]+)*\/?$/;
const PLAIN_QUERY = /^[\w\-.~%&=+,:@]*$/;

export type RequestTarget = { pathname: string; searchParams: URLSearchParams };

export function requestTarget(target: string): RequestTarget {
  const mark = target.indexOf('?');
  const pathname = mark < 0 ? target : target.slice(0, mark);
  const query = mark < 0 ? '' : target.slice(mark + 1);
  if (PLAIN_PATH.test(pathname) && PLAIN_QUERY.test(query)) return { pathname, searchParams: new URLSearchParams(query) };
  const url = new URL(target, 'http://localhost');
  return { pathname: url.pathname, searchParams: url.searchParams };
}
