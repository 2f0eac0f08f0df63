/**
 * Confluence's rendered markup (the HTML of a space export) → elements the common conversion
 * (hast-util-to-mdast, html/handlers.ts) understands, or blocks of the platform's dialect:
 *
 * - information macros (`confluence-information-macro-information|note|tip|warning`) and the
 *   new editor's panels (`data-panel-type`) → hints (info, warning, success, danger), their title
 *   a bold first line; a plain panel (`div.panel`) → an info hint;
 * - code macros (`div.code.panel`, `pre.syntaxhighlighter-pre` with `brush: java`) → code blocks
 *   with their language, the title (`codeHeader`) and line numbers (`gutter: true`) kept;
 *   `noformat` (`div.preformatted`) → a code block without language;
 * - expand macros (`div.expand-container`) → expandables, titled by their control's text;
 * - task lists (`ul.inline-task-list`, `li.checked`) → task lists;
 * - emoticons → their emoji (by code point, or Confluence's own by name; else their text); Confluence's own icons (`images/icons/…`) and the table
 *   of contents macro → nothing; user mentions → the name, unlinked;
 *   an embedded file's preview → a link to the file named after it.
 *
 * Dialect blocks are marked `quire-block` elements (their opening and closing lines as
 * properties), written by the handler below around their converted content. Inside a table
 * (whose cells hold no blocks) a macro keeps its content only, and code its lines as inline code.
 */
import type { Element, ElementContent, Root } from 'hast';
import type { Handle } from 'hast-util-to-mdast';
import { writeTag } from '../../../markdown/tag-syntax.js';
import { eachElement, textOf } from '../../html/hast-walk.js';

const classes = (element: Element) => (Array.isArray(element.properties.className) ? element.properties.className.map(String) : []);
const hasClass = (element: Element, name: string) => classes(element).includes(name);
const children = (element: Element) => element.children.filter((c): c is Element => c.type === 'element');

/** The first descendant element (document order) for which `test` holds. */
function find(root: Element, test: (element: Element) => boolean): Element | undefined {
  let found: Element | undefined;
  eachElement(root, (element) => {
    if (!found && test(element)) found = element;
  });
  return found;
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const BLOCK = 'quire-block';

/** `element` becomes a dialect block around `content`. */
function toBlock(element: Element, open: string, close: string, content: ElementContent[]): void {
  element.tagName = BLOCK;
  element.properties = { dataOpen: open, dataClose: close };
  element.children = content;
}

/** `element` becomes a plain container of `content` (inside tables). */
function unwrap(element: Element, content: ElementContent[]): void {
  element.tagName = 'div';
  element.properties = {};
  element.children = content;
}

const boldLine = (text: string): ElementContent[] =>
  text ? [{ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'element', tagName: 'strong', properties: {}, children: [{ type: 'text', value: text }] }] }] : [];

const INFORMATION_STYLES: Record<string, string> = {
  'confluence-information-macro-information': 'info',
  'confluence-information-macro-note': 'warning',
  'confluence-information-macro-tip': 'success',
  'confluence-information-macro-warning': 'danger',
};
const PANEL_TYPES: Record<string, string> = { info: 'info', note: 'info', success: 'success', warning: 'warning', error: 'danger' };

/** SyntaxHighlighter brushes (Confluence's code macro) → the languages fenced blocks name. */
const BRUSHES: Record<string, string | null> = {
  js: 'javascript',
  jscript: 'javascript',
  py: 'python',
  'c#': 'csharp',
  'c-sharp': 'csharp',
  'c++': 'cpp',
  sh: 'bash',
  shell: 'bash',
  ps: 'powershell',
  vb: 'vbnet',
  text: null,
  plain: null,
  none: null,
};
const LANGUAGE = /^[\w+#.-]{1,40}$/;

/** `brush: java; gutter: true` (an attribute, or the class of older exports) → its settings. */
function codeParams(pre: Element): { language?: string; lineNumbers: boolean } {
  const written = String(pre.properties.dataSyntaxhighlighterParams ?? '') || classes(pre).join(' ');
  const params = new Map<string, string>();
  for (const part of written.split(';')) {
    const [key, ...value] = part.split(':');
    if (key && value.length) params.set(key.trim().toLowerCase(), value.join(':').trim().toLowerCase());
  }
  const brush = params.get('brush');
  const mapped = brush === undefined ? undefined : Object.hasOwn(BRUSHES, brush) ? BRUSHES[brush] : brush;
  return { ...(mapped && LANGUAGE.test(mapped) ? { language: mapped } : {}), lineNumbers: params.get('gutter') === 'true' };
}

/** A `pre` ready for the code handler: its language as a class, its text only. */
function codeElement(pre: Element, language: string | undefined): Element {
  return {
    type: 'element',
    tagName: 'pre',
    properties: language ? { className: [`language-${language}`] } : {},
    children: [{ type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: textOf(pre).replace(/\n$/, '') }] }],
  };
}

/** A table's cell holds no code block: its lines become inline code, a line break between them. */
const inlineCode = (text: string): ElementContent[] =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .flatMap((line, i): ElementContent[] => [
      ...(i ? [{ type: 'element', tagName: 'br', properties: {}, children: [] } as Element] : []),
      ...(line.trim() ? [{ type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: line }] } as Element] : []),
    ]);

function codeMacro(element: Element, inTable: boolean): void {
  const pre = find(element, (e) => e.tagName === 'pre');
  if (!pre) return;
  const header = find(element, (e) => hasClass(e, 'codeHeader'));
  const title = header ? clean(textOf(header)) : '';
  const { language, lineNumbers } = codeParams(pre);
  const code = codeElement(pre, language);
  if (inTable) unwrap(element, inlineCode(textOf(pre)));
  else if (title || lineNumbers) toBlock(element, writeTag('code', [['title', title], ['lineNumbers', lineNumbers || undefined]]), '{% endcode %}', [code]);
  else unwrap(element, [code]);
}

function hint(element: Element, style: string, title: string, body: ElementContent[], inTable: boolean): void {
  const content = [...boldLine(title), ...body];
  if (inTable) unwrap(element, content);
  else toBlock(element, writeTag('hint', [['style', style]]), '{% endhint %}', content);
}

function informationMacro(element: Element, style: string, inTable: boolean): void {
  const titleElement = find(element, (e) => e.tagName === 'p' && hasClass(e, 'title'));
  const body = find(element, (e) => hasClass(e, 'confluence-information-macro-body'));
  hint(element, style, titleElement ? clean(textOf(titleElement)) : '', body ? body.children : [], inTable);
}

function panel(element: Element, style: string, inTable: boolean): void {
  const header = children(element).find((e) => hasClass(e, 'panelHeader'));
  const content = children(element).find((e) => hasClass(e, 'panelContent'));
  hint(element, style, header ? clean(textOf(header)) : '', content ? content.children : element.children.filter((c) => c !== header), inTable);
}

function expand(element: Element, inTable: boolean): void {
  const control = find(element, (e) => hasClass(e, 'expand-control-text'));
  const content = find(element, (e) => hasClass(e, 'expand-content'));
  const title = (control && clean(textOf(control))) || 'Click here to expand...';
  const body = content ? content.children : [];
  if (inTable) unwrap(element, [...boldLine(title), ...body]);
  else toBlock(element, `<details>\n<summary>${escapeHtml(title)}</summary>`, '</details>', body);
}

function taskList(list: Element): void {
  for (const item of children(list)) {
    if (item.tagName !== 'li') continue;
    const checkbox: Element = { type: 'element', tagName: 'input', properties: { type: 'checkbox', checked: hasClass(item, 'checked') }, children: [] };
    item.children = [checkbox, ...item.children];
  }
}

const text = (value: string): ElementContent => ({ type: 'text', value });

/** Confluence's own emoticons (`emoticon-tick`, `data-emoticon-name="tick"`), whose fallback is a short name. */
const EMOTICONS: Record<string, string> = {
  tick: '✅',
  cross: '❌',
  warning: '⚠️',
  information: 'ℹ️',
  plus: '➕',
  minus: '➖',
  question: '❓',
  'light-on': '💡',
  'light-off': '💡',
  'yellow-star': '⭐',
  'red-star': '⭐',
  'green-star': '⭐',
  'blue-star': '⭐',
  smile: '🙂',
  sad: '🙁',
  cheeky: '😛',
  laugh: '😃',
  wink: '😉',
  'thumbs-up': '👍',
  'thumbs-down': '👎',
  heart: '❤️',
  'broken-heart': '💔',
};

/** An emoticon's character: its emoji ID's code points (`1f642`), a known emoticon's, else its fallback or alt text. */
function emoticon(image: Element): string {
  const id = String(image.properties.dataEmojiId ?? '');
  if (/^[0-9a-f]{4,6}(-[0-9a-f]{4,6}){0,7}$/i.test(id)) return String.fromCodePoint(...id.split('-').map((hex) => parseInt(hex, 16)));
  const name = String(image.properties.dataEmoticonName ?? '') || (classes(image).find((c) => c.startsWith('emoticon-')) ?? '').slice('emoticon-'.length);
  if (Object.hasOwn(EMOTICONS, name)) return EMOTICONS[name];
  const fallback = String(image.properties.dataEmojiFallback ?? '');
  return fallback && !/^:[\w+-]+:$/.test(fallback) ? fallback : String(image.properties.alt ?? fallback);
}

/** Rewrites Confluence's macros in `content` (see the top of this file); `content` is bounded already. */
export function rewriteMacros(content: Element | Root): void {
  eachElement(content, (element, ancestors) => {
    const inTable = ancestors.some((a) => a.tagName === 'table');
    const names = classes(element);
    if (element.tagName === 'div') {
      const information = names.map((name) => INFORMATION_STYLES[name]).find(Boolean);
      const panelType = String(element.properties.dataPanelType ?? '');
      if (hasClass(element, 'code') || hasClass(element, 'preformatted')) codeMacro(element, inTable);
      else if (information) informationMacro(element, information, inTable);
      else if (Object.hasOwn(PANEL_TYPES, panelType)) panel(element, PANEL_TYPES[panelType], inTable);
      else if (hasClass(element, 'panel')) panel(element, 'info', inTable);
      else if (hasClass(element, 'expand-container')) expand(element, inTable);
      else if (names.some((name) => name === 'toc-macro' || name.startsWith('rbtoc'))) element.children = [];
      return;
    }
    if (element.tagName === 'pre' && !ancestors.some((a) => a.tagName === BLOCK) && (element.properties.dataSyntaxhighlighterParams || names.includes('brush:'))) {
      if (inTable) Object.assign(element, { tagName: 'span', properties: {}, children: inlineCode(textOf(element)) });
      else Object.assign(element, codeElement(element, codeParams(element).language));
      return;
    }
    if (element.tagName === 'ul' && hasClass(element, 'inline-task-list')) return taskList(element);
    if (element.tagName === 'img') {
      const src = String(element.properties.src ?? '');
      if (hasClass(element, 'emoticon') || /(^|\/)images\/icons\/emoticons\//.test(src)) {
        const emoji = emoticon(element);
        element.tagName = 'span';
        element.properties = {};
        element.children = [text(emoji)];
      } else if (/^(\.\/)?images\/icons\//.test(src)) element.properties = {};
      return;
    }
    if (element.tagName === 'a') {
      if (hasClass(element, 'confluence-userlink') || hasClass(element, 'user-mention')) {
        element.tagName = 'span';
        element.properties = {};
      } else if (hasClass(element, 'confluence-embedded-file')) {
        const name = String(element.properties.dataLinkedResourceDefaultAlias ?? '') || clean(textOf(element)) || 'Attachment';
        element.children = [text(name)];
      }
    }
  });
}

/** The handler writing a dialect block marked by rewriteMacros: its lines around its content. */
export const quireBlock: Handle = (state, node: Element) => {
  const raw = (value: unknown) => ({ type: 'dialect', value: String(value) }) as never;
  return [raw(node.properties.dataOpen), ...state.toFlow(state.all(node)), raw(node.properties.dataClose)];
};

export const BLOCK_TAG = BLOCK;
