/** A page as markdown reads it: its title, description and other front matter, and its document (index.ts, convert.ts). */
import type { JSONDocument } from '../documents/types.js';

export type PageMarkdown = { title?: string; description?: string; frontMatter: Record<string, unknown>; document: JSONDocument };
