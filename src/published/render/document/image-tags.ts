/**
 * `<img>` tags for image data (`ref`, `refDark`, `alt`, `width`, `height`): file or URL
 * references only. With a `refDark` variant, two images, one per theme (`.only-light`,
 * `.only-dark` in page/css.ts), so the site's theme toggle applies to them too.
 */
import type { RenderContext } from '../context.js';
import { attrs, classes, escapeHtml } from '../html.js';
import { refUrl } from './refs.js';

const imageUrl = (ref: unknown, context: RenderContext) => {
  const kind = (ref as { kind?: unknown } | undefined)?.kind;
  return kind === 'file' || kind === 'url' ? refUrl(ref, context) : undefined;
};

const pixels = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : undefined);

export const altOf = (data: Record<string, unknown>) => (typeof data.alt === 'string' ? data.alt : '');

/** The tags, or undefined when the image cannot be shown (broken or unsafe reference). */
export function imgTags(data: Record<string, unknown>, context: RenderContext, extra: { class?: string; lazy?: boolean } = {}): string | undefined {
  const src = imageUrl(data.ref, context);
  if (src === undefined) return undefined;
  const dark = imageUrl(data.refDark, context);
  const common = { alt: altOf(data), width: pixels(data.width), height: pixels(data.height), loading: extra.lazy ? 'lazy' : undefined, decoding: 'async' };
  if (dark === undefined || dark === src) return `<img${attrs({ src, class: extra.class, ...common })}>`;
  return `<img${attrs({ src, class: classes(extra.class, 'only-light'), ...common })}><img${attrs({ src: dark, class: classes(extra.class, 'only-dark'), ...common })}>`;
}

/** An `inline-image`; when it cannot be shown, its alt text. */
export function inlineImageHtml(data: Record<string, unknown>, context: RenderContext): string {
  const size = data.size === 'line' ? 'inline-image-line' : undefined;
  return imgTags(data, context, { class: classes('inline-image', size) }) ?? escapeHtml(altOf(data));
}
