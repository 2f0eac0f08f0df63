/**
 * Google Docs addresses: a document's own URL (`https://docs.google.com/document/d/<id>/edit…`,
 * `/view`, `/`, with an account segment `/document/u/0/d/<id>` or not) is turned into its .docx
 * export (`…/document/d/<id>/export?format=docx`), which holds the images; a published-to-web
 * page (`/document/d/e/<id>/pub`) and any other URL are fetched as given.
 */
const DOCUMENT = /^\/document(?:\/u\/\d+)?\/d\/([\w-]{20,})(?:\/[^?#]*)?$/;

export function exportUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.hostname !== 'docs.google.com') return url;
  const id = DOCUMENT.exec(parsed.pathname)?.[1];
  // `/d/e/<id>` is a published page: `e` is not a document id (and fails the length check anyway).
  if (!id || /\/d\/e\//.test(parsed.pathname)) return url;
  const exported = new URL(`https://docs.google.com/document/d/${id}/export`);
  exported.searchParams.set('format', 'docx');
  return exported.href;
}
