/** Image blocks (`images` → `image`, as figures with captions) and file download cards. */
import { blockChildren, dataOf, fragmentNamed, inlineChildren } from '../../../lib/markdown/nodes.js';
import type { BlockNode } from '../../../lib/documents/types.js';
import { classes, classToken, element, escapeHtml } from '../html.js';
import { altOf, imgTags } from './image-tags.js';
import { renderInlines } from './inlines.js';
import { fileOf, refUrl } from './refs.js';
import type { RenderState } from './state.js';

/** `<figure><img alt><figcaption>` for one `image` block; an unresolvable image shows its alt text. */
export function renderImage(block: BlockNode, state: RenderState, depth: number): string {
  const data = dataOf(block);
  const caption = fragmentNamed(block, 'caption');
  const captionHtml = caption
    ? blockChildren(caption)
        .map((p) => renderInlines(inlineChildren(p), state, depth + 1))
        .filter(Boolean)
        .join('<br>')
    : '';
  const img = imgTags(data, state.context, { lazy: true });
  const body = img ?? element('span', { class: 'image-missing' }, escapeHtml(altOf(data)));
  return element('figure', { class: classes('image', !img && 'image-broken') }, body + (captionHtml ? element('figcaption', {}, captionHtml) : ''));
}

/** The `images` block: its `image` blocks side by side. */
export function renderImages(block: BlockNode, state: RenderState, depth: number): string {
  const data = dataOf(block);
  const images = blockChildren(block).filter((b) => b.type === 'image');
  const align = classToken(data.align);
  return element(
    'div',
    { class: classes('images', align && `align-${align}`, data.fullWidth === true && 'full-width') },
    images.map((image) => renderImage(image, state, depth)).join(''),
  );
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `1536` → `1.5 KB`. */
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

/** A download card: the file's name, type and size, linking to its download URL. */
export function renderFile(block: BlockNode, state: RenderState): string {
  const ref = dataOf(block).ref;
  const file = fileOf(ref, state.context);
  const href = file ? refUrl(ref, state.context) : undefined;
  if (!file || href === undefined) return element('p', { class: 'file-card file-missing' }, escapeHtml(state.strings.fileUnavailable));
  const meta = [file.contentType, typeof file.size === 'number' && file.size >= 0 ? formatSize(file.size) : ''].filter(Boolean).join(' · ');
  const inner = element('span', { class: 'file-name' }, escapeHtml(file.name)) + (meta ? element('span', { class: 'file-meta' }, escapeHtml(meta)) : '');
  return element('p', { class: 'file-card' }, element('a', { class: 'card', href, download: file.name || true }, inner));
}
