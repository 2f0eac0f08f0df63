/**
 * quire's own content templates: each a folder of pages in the platform's markdown dialect
 * (src/lib/markdown), top-level pages in the order of their file names (`01-welcome.md`, …), each
 * titled by its first `#` heading. Only `default` exists: a welcome page, getting started, guides,
 * reference and an FAQ, written for quire (the real service's own templates are not available).
 *
 * The files are read from the source tree (the built server runs beside it, as the Docker image
 * ships the whole checkout), once, on first use.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const TEMPLATE_IDS = ['default'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];
export type TemplatePage = { source: string; markdown: string };

export const isTemplateId = (id: unknown): id is TemplateId => typeof id === 'string' && (TEMPLATE_IDS as readonly string[]).includes(id);

/** `src/lib/templates/<id>` from this module, compiled (dist/lib/templates) or not. */
function folderOf(id: TemplateId): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, id);
  return existsSync(beside) ? beside : path.join(here, '..', '..', '..', 'src', 'lib', 'templates', id);
}

const loaded = new Map<TemplateId, TemplatePage[]>();

export function templatePages(id: TemplateId): TemplatePage[] {
  let pages = loaded.get(id);
  if (!pages) {
    const folder = folderOf(id);
    pages = readdirSync(folder)
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => ({ source: name, markdown: readFileSync(path.join(folder, name), 'utf8') }));
    loaded.set(id, pages);
  }
  return pages;
}
