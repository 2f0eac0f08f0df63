/** The URLs a website crawl follows: same-origin http(s) pages, one entry per page. */

/** `url` without its fragment (the query kept), or undefined when it is not a plain http(s) URL. */
export function normalizeUrl(url: string, base?: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return undefined;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password) return undefined;
  parsed.hash = '';
  return parsed.href;
}

/** Same scheme, host and port (URL#origin spells the default port out of both). */
export const sameOrigin = (url: string, origin: string) => new URL(url).origin === origin;

// Links to these are files, not pages: not worth a request, nor counting as pages found.
const FILE_EXTENSION =
  /\.(pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|png|jpe?g|gif|svg|webp|avif|ico|bmp|tiff?|mp3|wav|ogg|mp4|m4v|webm|mov|avi|css|js|mjs|map|json|woff2?|ttf|otf|eot|exe|dmg|msi|deb|rpm|apk|iso|docx?|xlsx?|pptx?|odt|csv)$/i;

export const looksLikeFile = (url: string) => FILE_EXTENSION.test(new URL(url).pathname);
