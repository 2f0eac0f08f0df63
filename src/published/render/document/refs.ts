/** Content references (`data.ref` of links, cards, images, files) → safe URLs through the context. */
import { isRecord } from '../../../lib/markdown/nodes.js';
import type { ContentRefLike, RenderContext, RenderedFile } from '../context.js';
import { safeUrl } from '../html.js';

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export const asRef = (value: unknown): ContentRefLike | undefined => (isRecord(value) ? value : undefined);

/** The URL a reference opens, or undefined when it is broken (unknown target, unsafe URL, kind without a page). */
export function refUrl(ref: unknown, context: RenderContext): string | undefined {
  if (!isRecord(ref)) return undefined;
  switch (ref.kind) {
    case 'url':
      return safeUrl(ref.url);
    case 'page': {
      const page = str(ref.page);
      return page ? safeUrl(context.pageUrl(page)) : undefined;
    }
    case 'anchor': {
      const anchor = str(ref.anchor);
      const page = str(ref.page);
      if (page) return safeUrl(context.pageUrl(page, anchor));
      return anchor ? safeUrl(`#${anchor}`) : undefined;
    }
    case 'file': {
      const file = fileOf(ref, context);
      return file ? safeUrl(file.url) : undefined;
    }
    case 'space': {
      const space = str(ref.space);
      return space && context.spaceUrl ? safeUrl(context.spaceUrl(space)) : undefined;
    }
    default:
      return undefined;
  }
}

/** The file a `{kind: 'file'}` reference names, when the context knows it. */
export function fileOf(ref: unknown, context: RenderContext): RenderedFile | undefined {
  if (!isRecord(ref) || ref.kind !== 'file') return undefined;
  const id = str(ref.file);
  return id ? context.fileUrl(id) : undefined;
}

/** What to call the target of a reference when the document gives no text (cards, mentions). */
export function refLabel(ref: unknown, context: RenderContext): string | undefined {
  if (!isRecord(ref)) return undefined;
  const title = context.refTitle?.(ref);
  if (title) return title;
  if (ref.kind === 'file') return fileOf(ref, context)?.name;
  if (ref.kind === 'url') return str(ref.url);
  return undefined;
}

/** The id-like field of a reference (`page`, `user`…), the last resort for a label. */
export function refId(ref: unknown): string {
  if (!isRecord(ref)) return '';
  const kind = str(ref.kind);
  const own = kind ? str(ref[kind === 'reusable-content' ? 'reusableContent' : kind]) : undefined;
  if (own) return own;
  for (const [field, value] of Object.entries(ref)) if (field !== 'kind' && typeof value === 'string') return value;
  return '';
}
