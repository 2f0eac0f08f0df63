/**
 * A page's title when its content is written (`insert_page`, `update_page`, GraphQL page writes).
 * The public document (ChangeRequestContentChangeInsertPage) says: the title is taken from
 * `title`, or, when the document is markdown, from its front matter or leading heading, which take
 * precedence (matching Git Sync); with none, a default title. So, in order: the leading `#` heading
 * (read as the title, so it is not also kept in the body), the front matter's `title`, the
 * change's `title`, then `fallback`. At most 255 characters.
 */
export type TitledBody = { title?: string; frontMatter?: Record<string, unknown> };

export function pageTitle(body: TitledBody | null | undefined, given: string | null | undefined, fallback: string): string {
  const fromFrontMatter = typeof body?.frontMatter?.title === 'string' ? body.frontMatter.title.trim() : '';
  return (body?.title || fromFrontMatter || given || fallback).slice(0, 255);
}
