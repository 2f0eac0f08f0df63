/** hast-util-to-mdast as the import wants it: where its defaults do not fit, and why. */
import type { Element, Root } from 'hast';
import { defaultHandlers, type Handle, type Options } from 'hast-util-to-mdast';
import { codeLanguage } from './code-language.js';
import { eachElement } from './hast-walk.js';

const LANGUAGE = 'dataImportLanguage';

/**
 * Notes each `<pre>`'s language on the element itself: hast-util-to-mdast converts a clone of the
 * tree, and the wrapper that often names the language is out of the `pre` handler's sight.
 */
export function markCodeLanguages(content: Element | Root): void {
  eachElement(content, (element, ancestors) => {
    const language = element.tagName === 'pre' ? codeLanguage(element, ancestors) : undefined;
    if (language) element.properties[LANGUAGE] = language;
  });
}

const ignore: Handle = () => undefined;

const pre: Handle = (state, node) => {
  const code = defaultHandlers.pre(state, node);
  const language = node.properties[LANGUAGE];
  code.lang = typeof language === 'string' ? language : null;
  return code;
};

/** A table without header cells gets an empty header row by default: its first row is the header instead. */
const table: Handle = (state, node) => {
  const result = defaultHandlers.table(state, node);
  if (result.type === 'table' && result.children.length > 1 && result.children[0].children.every((cell) => !cell.children.length)) result.children.shift();
  return result;
};

export const TO_MDAST_OPTIONS: Options = {
  // `<base href>` ignored: addresses stay as written (the import resolves them against the page's source).
  handlers: { base: ignore, pre, table },
  // Comments would be written as raw HTML.
  nodeHandlers: { comment: ignore },
};
