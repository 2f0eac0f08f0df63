/**
 * The part of a page worth importing: its main content without the site's chrome, and its title.
 */
import type { Element, ElementContent, Nodes, Root } from 'hast';
import { select } from 'hast-util-select';
import { eachElement, prune, textOf } from './hast-walk.js';

/** Never content, wherever they are. */
const NEVER = new Set(['script', 'style', 'noscript', 'template', 'base', 'link', 'meta', 'button', 'dialog', 'svg', 'canvas']);
/** The site around the content: removed when no main element marks the content. */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'form', 'iframe']);

const isHidden = (element: Element): boolean => {
  const { hidden, ariaHidden, style } = element.properties;
  return (
    // `hidden="until-found"` is collapsed content, found by search: still content.
    hidden === true ||
    hidden === '' ||
    String(ariaHidden) === 'true' ||
    (typeof style === 'string' && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style))
  );
};

/** Comments, scripts, styles and hidden elements, anywhere in the document. */
export function removeNonContent(tree: Root): void {
  prune(tree, (node: Nodes) => node.type === 'comment' || (node.type === 'element' && (NEVER.has(node.tagName) || isHidden(node))));
}

/** `main`, `article` or `[role=main]` as it is; else the body without navigation, header, footer… */
export function mainContent(tree: Root): Element | Root {
  for (const selector of ['main', 'article', '[role=main]']) {
    const main = select(selector, tree);
    // An empty `<main>` (filled by a script) marks nothing.
    if (main && (textOf(main).trim() || select('img', main))) return main;
  }
  const body = select('body', tree) ?? tree;
  prune(body, (node) => node.type === 'element' && (CHROME.has(node.tagName) || ['navigation', 'banner', 'contentinfo'].includes(String(node.properties.role))));
  return body;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const PERMALINK_TEXT = /^[\s¶#§🔗]*$/u;

/** The `¶` (or icon) anchor docs generators put in every heading: not part of its text. */
const isPermalink = (node: ElementContent) =>
  node.type === 'element' && node.tagName === 'a' && String(node.properties.href ?? '').startsWith('#') && PERMALINK_TEXT.test(textOf(node));

export function removePermalinks(content: Element | Root): void {
  eachElement(content, (element) => {
    if (HEADINGS.has(element.tagName)) element.children = element.children.filter((child) => !isPermalink(child));
  });
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 500);

/**
 * The page's title: the content's first `h1` with text (taken out of the content, since the
 * markdown starts with it), else the document's `<title>`.
 */
export function takeTitle(tree: Root, content: Element | Root): string | undefined {
  const stack: { node: Element; parent: Element | Root }[] = [];
  const pushChildren = (parent: Element | Root) => {
    for (let i = parent.children.length - 1; i >= 0; i--) {
      const node = parent.children[i];
      if (node.type === 'element') stack.push({ node, parent });
    }
  };
  // Depth first, in document order: the first h1 in reading order wins.
  pushChildren(content);
  while (stack.length) {
    const { node, parent } = stack.pop()!;
    if (node.tagName !== 'h1') {
      pushChildren(node);
      continue;
    }
    const text = clean(textOf(node));
    if (!text) continue;
    parent.children.splice(parent.children.indexOf(node), 1);
    return text;
  }
  const title = select('head > title', tree) ?? select('title', tree);
  return (title && clean(textOf(title))) || undefined;
}
