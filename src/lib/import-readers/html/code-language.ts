/**
 * The language of a `<pre>` code block, as the common highlighters mark it: `language-x` or
 * `lang-x` on the `code` or the `pre` (Prism, highlight.js, CommonMark renderers), on a wrapper
 * (`<div class="language-ruby highlighter-rouge">` of Jekyll, `highlight-source-js` of GitHub,
 * `highlight-python` of Sphinx), or a `data-lang` attribute.
 */
import type { Element } from 'hast';

const PREFIXES = ['language-', 'lang-', 'highlight-source-', 'highlight-'];
/** Class names that carry no language (`highlight-default` is Sphinx's "whatever the project says"). */
const NOT_LANGUAGES = new Set(['default', 'none', 'plaintext', 'nohighlight']);
/** What a fenced block's info string may hold: anything else is dropped rather than escaped. */
const LANGUAGE = /^[\w+#.-]{1,40}$/;

function fromElement(element: Element | undefined): string | undefined {
  if (!element) return undefined;
  const classes = Array.isArray(element.properties.className) ? element.properties.className.map(String) : [];
  for (const prefix of PREFIXES) {
    for (const name of classes) {
      const language = name.startsWith(prefix) ? name.slice(prefix.length).toLowerCase() : '';
      if (LANGUAGE.test(language) && !NOT_LANGUAGES.has(language)) return language;
    }
  }
  for (const attribute of [element.properties.dataLang, element.properties.dataLanguage]) {
    const language = typeof attribute === 'string' ? attribute.toLowerCase() : '';
    if (LANGUAGE.test(language) && !NOT_LANGUAGES.has(language)) return language;
  }
  return undefined;
}

/** Ancestors looked at, nearest first: wrappers sit one to three levels above the `pre`. */
const WRAPPER_LEVELS = 3;

export function codeLanguage(pre: Element, ancestors: readonly Element[]): string | undefined {
  const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  let language = fromElement(code) ?? fromElement(pre);
  for (let i = ancestors.length - 1; !language && i >= Math.max(0, ancestors.length - WRAPPER_LEVELS); i--) language = fromElement(ancestors[i]);
  return language;
}
