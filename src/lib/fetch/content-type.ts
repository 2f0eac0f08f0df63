/** A response's `Content-Type`, and whether a fetch's `accept` list takes it. */

export type MediaType = { type: string; charset?: string };

/** `text/HTML; charset="ISO-8859-1"` → `{ type: 'text/html', charset: 'iso-8859-1' }`; none → octet-stream. */
export function parseContentType(header: string | undefined): MediaType {
  const [essence = '', ...parameters] = (header ?? '').split(';');
  const type = essence.trim().toLowerCase();
  let charset: string | undefined;
  for (const parameter of parameters) {
    const at = parameter.indexOf('=');
    if (at < 0 || parameter.slice(0, at).trim().toLowerCase() !== 'charset') continue;
    const value = parameter.slice(at + 1).trim().replace(/^"(.*)"$/, '$1').trim().toLowerCase();
    if (value) charset = value;
    break;
  }
  return { type: /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream', ...(charset ? { charset } : {}) };
}

/** Whether `type` matches one of `accept` (`text/html`, `text/*`, `*\/*`); no list takes anything. */
export function isAccepted(type: string, accept: readonly string[] | undefined): boolean {
  if (!accept) return true;
  const [main] = type.split('/');
  return accept.some((pattern) => {
    const wanted = pattern.trim().toLowerCase();
    return wanted === '*/*' || wanted === type || wanted === `${main}/*`;
  });
}
