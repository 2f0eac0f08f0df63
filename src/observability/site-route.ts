/**
 * The route template of a published-site request, for the access log and the metrics: the kind of
 * answer (page, search, file, asset, robots.txt, sitemap.xml, icon), never the site's ID, its
 * hostname or the page's path, which would make every label unique.
 */

/** `/sites/{siteId}/…` on the API's host, or `{siteHostname}/…` on a site's own hostname. */
export function siteRouteTemplate(method: string, pathname: string, on: 'prefix' | 'hostname'): string {
  const segments = pathname.split('/').filter(Boolean);
  const [prefix, rest] = on === 'prefix' ? ['/sites/{siteId}', segments.slice(2)] : ['{siteHostname}', segments];
  return `${method} ${prefix}${kindOf(rest)}`;
}

function kindOf(segments: string[]): string {
  const [first] = segments;
  if (first === undefined) return '/';
  if (first === '~assets') return '/~assets/{asset}';
  if (first === '~files') return '/~files/{siteSpaceId}/{fileId}';
  if (first === '~search') return '/~search';
  if (segments.length === 1 && ['robots.txt', 'sitemap.xml', 'favicon.ico'].includes(first)) return `/${first}`;
  return '/{pagePath}';
}
