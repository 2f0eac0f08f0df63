/** `source: "html"`: one page from one HTML document, its main content converted to markdown. */
import { throwIfAborted } from '../../fetch/fetch-errors.js';
import { htmlToMarkdownInPool } from '../in-pool.js';
import type { ImportSource } from '../tree.js';
import { titleFromUrl } from './text.js';

export const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

export const htmlSource: ImportSource = async (url, context) => {
  const resource = await context.fetch(url, { accept: HTML_TYPES });
  throwIfAborted(context.signal);
  const { title, markdown } = await htmlToMarkdownInPool({ bytes: resource.bytes, ...(resource.charset ? { charset: resource.charset } : {}) }, context.signal);
  context.progress(1, 1);
  return {
    pages: [{ source: resource.url, title: title ?? titleFromUrl(resource.url), markdown, children: [] }],
    files: [],
    totalResources: 1,
  };
};
