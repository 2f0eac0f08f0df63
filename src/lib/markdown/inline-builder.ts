/**
 * Collects inline content (texts with marks, links, images, math) while a converter walks
 * markdown or HTML. Inline HTML tags arrive one at a time (`<sup>`, then text, then `</sup>`), so
 * open HTML marks and links are kept on stacks and apply to what follows until their closing tag.
 */
import type { InlineNode, Mark } from '../documents/types.js';
import { parseHtmlTag, parseStyle } from './html.js';
import { inline, mark, textNode, type InlineChild } from './nodes.js';
import { normalizeInlines } from './normalize.js';
import { mentionedUserOfUrl, urlToRef } from './refs.js';

const HTML_MARKS: Record<string, string> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  code: 'code',
  s: 'strikethrough',
  del: 'strikethrough',
  strike: 'strikethrough',
  sup: 'superscript',
  sub: 'subscript',
  kbd: 'keyboard',
  mark: 'color',
};

/** `<mark style="color:red;background-color:blue">`; a bare `<mark>` is a yellow highlight. */
function colorMark(style: string | undefined): Mark {
  if (style === undefined) return mark('color', { text: 'default', background: 'yellow' });
  const declarations = parseStyle(style);
  return mark('color', { text: declarations.color || 'default', background: declarations['background-color'] || 'default' });
}

/** `width="375"` → 375, `width="50%"` → `{unit: '%', value: 50}` (the model's `Length`). */
export function parseLength(value: string | undefined): number | { unit: string; value: number } | undefined {
  const m = value === undefined ? null : /^\s*(\d+(?:\.\d+)?)\s*(px|%|em|rem|vw)?\s*$/.exec(value);
  if (!m) return undefined;
  return !m[2] || m[2] === 'px' ? Number(m[1]) : { unit: m[2], value: Number(m[1]) };
}

export class InlineBuilder {
  private readonly root: InlineChild[] = [];
  private readonly links: { node: InlineNode; html: boolean }[] = [];
  private readonly open: { tag: string; mark: Mark }[] = [];

  private get sink(): InlineChild[] {
    return this.links.length ? this.links[this.links.length - 1].node.nodes! : this.root;
  }

  text(text: string, marks: readonly Mark[] = []): void {
    if (text) this.sink.push(textNode(text, [...marks, ...this.open.map((o) => o.mark)]));
  }

  inline(node: InlineNode): void {
    this.sink.push(node);
  }

  /** A markdown link: its children (walked by `inside`) go into the link's nodes. */
  link(url: string, inside: () => void): void {
    if (this.links.length) return inside(); // no link inside a link
    const entry = { node: this.linkNode(url), html: false };
    this.links.push(entry);
    try {
      inside();
    } finally {
      const at = this.links.lastIndexOf(entry);
      if (at >= 0) this.links.splice(at);
    }
  }

  /**
   * The node a link's content goes into: a new link in the current sink, or, for a user mention
   * (`mention:<userId>`, refs.ts), a void mention in the sink and a detached node that takes the
   * link's text, which the mention does not keep.
   */
  private linkNode(url: string): InlineNode {
    const user = mentionedUserOfUrl(url);
    if (user === null) {
      const node = inline('link', { ref: urlToRef(url) }, []);
      this.sink.push(node);
      return node;
    }
    this.inline(inline('mention', { ref: { kind: 'user', user } }));
    return inline('link', {}, []);
  }

  /** An inline HTML tag. False when it is not one the dialect knows (the caller keeps it as text). */
  html(source: string, marks: readonly Mark[] = []): boolean {
    if (source.startsWith('<!--')) return true; // comments are dropped
    const tag = parseHtmlTag(source);
    if (!tag) return false;
    if (tag.name === 'br') {
      this.text('\n', marks);
      return true;
    }
    if (tag.name === 'img') {
      if (tag.closing || tag.attrs.src === undefined) return true;
      const data: Record<string, unknown> = { ref: urlToRef(tag.attrs.src) };
      if (tag.attrs.alt) data.alt = tag.attrs.alt;
      if (tag.attrs['data-size'] === 'line' || tag.attrs['data-size'] === 'original') data.size = tag.attrs['data-size'];
      this.inline(inline('inline-image', data));
      return true;
    }
    if (tag.name === 'a') {
      if (tag.closing) {
        const at = this.links.map((l) => l.html).lastIndexOf(true);
        if (at < 0) return false;
        this.links.splice(at);
      } else {
        // Only `<a href>` is a link (and not inside another link); other anchors stay text.
        if (tag.attrs.href === undefined || this.links.length || tag.selfClosing) return false;
        this.links.push({ node: this.linkNode(tag.attrs.href), html: true });
      }
      return true;
    }
    const type = HTML_MARKS[tag.name];
    if (!type) return false;
    if (tag.closing) {
      const at = this.open.map((o) => o.tag).lastIndexOf(tag.name);
      if (at >= 0) this.open.splice(at, 1);
    } else if (!tag.selfClosing) {
      this.open.push({ tag: tag.name, mark: type === 'color' ? colorMark(tag.attrs.style) : mark(type) });
    }
    return true;
  }

  result(): InlineChild[] {
    return normalizeInlines(this.root);
  }
}
