/** `source: "markdown"`: one page from a markdown file in the platform's dialect (or plain CommonMark). */
import type { ImportSource } from '../tree.js';
import { decodeText, titleFromUrl } from './text.js';

export const markdownSource: ImportSource = async (url, context) => {
  const resource = await context.fetch(url, { accept: ['text/markdown', 'text/x-markdown', 'text/plain', 'application/octet-stream'] });
  context.progress(1, 1);
  return {
    pages: [{ source: resource.url, title: titleFromUrl(resource.url), markdown: decodeText(resource), children: [] }],
    files: [],
    totalResources: 1,
  };
};
