/**
 * Rendering of published sites (src/published/render): JSON documents → HTML for every block,
 * inline and mark; heading anchors; escaping and URL filtering; tables from fragments; tabs;
 * bounded recursion; whole pages (landmarks, customization, navigation), the search page and
 * error pages. Output is parsed with hast-util-from-html where structure matters. No database.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Element, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { BlockNode, InlineNode, JSONDocument } from '../src/lib/documents/types.js';
import { markdownToDocument } from '../src/lib/markdown/index.js';
import {
  PAGE_IDS,
  renderDocument,
  renderDocumentWithOutline,
  renderMessagePage,
  renderPage,
  renderSearchPage,
  safeUrl,
  SCRIPT_HASHES,
  SITE_CSS,
  SITE_SCRIPT,
  THEME_SCRIPT,
  type PageView,
  type RenderContext,
} from '../src/published/render/index.js';
import { colorVariables, contrast, parseHex, BACKGROUND } from '../src/published/render/page/colors.js';
import { DARK_PALETTE, LIGHT_PALETTE } from '../src/published/render/page/css.js';
import { block, codeBlock, doc, fragment, leaves, link, mark, p, text, url, voidBlock } from './helpers/document-builders.js';

// ---- fixtures ----

const reusable: Record<string, JSONDocument> = {
  shared: doc(p(text('Shared text'))),
  // Includes itself: must not loop.
  loop: doc(p(text('Loop body')), voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'loop' } })),
};

const context: RenderContext = {
  pageUrl: (id, anchor) => (id === 'missing' ? undefined : `/docs/${id}${anchor ? `#${anchor}` : ''}`),
  fileUrl: (id) =>
    id === 'report'
      ? { url: '/files/report/report.pdf', name: 'report.pdf', contentType: 'application/pdf', size: 1536 }
      : id === 'pic'
        ? { url: '/files/pic/pic.png', name: 'pic.png', contentType: 'image/png' }
        : undefined,
  spaceUrl: (id) => `/spaces/${id}/`,
  reusableContent: (id) => reusable[id],
  refTitle: (ref) => (ref.kind === 'page' && ref.page === 'p2' ? 'Second page' : ref.kind === 'user' && ref.user === 'u1' ? 'Ada Lovelace' : undefined),
};

const render = (...blocks: BlockNode[]) => renderDocument(doc(...blocks), context);
const parse = (html: string): Root => fromHtml(html, { fragment: true });
const parsePage = (html: string): Root => fromHtml(html);
const textContent = (node: Root | RootContent): string =>
  node.type === 'text' ? node.value : 'children' in node ? (node.children as RootContent[]).map(textContent).join('') : '';
const all = (selector: string, tree: Root) => selectAll(selector, tree) as Element[];
const one = (selector: string, tree: Root) => {
  const found = select(selector, tree) as Element | undefined;
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
};
const prop = (el: Element, name: string) => el.properties?.[name];

const inline = (type: string, data: Record<string, unknown>, nodes?: InlineNode['nodes']): InlineNode =>
  nodes ? { object: 'inline', type, isVoid: false, data, nodes } : { object: 'inline', type, isVoid: true, data };
const heading = (level: 1 | 2 | 3, title: string, data: Record<string, unknown> = {}) => block(`heading-${level}`, data, [text(title)]);
const item = (...nodes: BlockNode[]) => block('list-item', {}, nodes);
const task = (checked: boolean, label: string) => block('list-item', { checked }, [p(text(label))]);
const image = (data: Record<string, unknown>, caption?: string) => voidBlock('image', data, caption ? [fragment('caption', [p(text(caption))])] : []);
const tabsItem = (title: string, ...nodes: BlockNode[]) => block('tabs-item', { title }, nodes);
const expandable = (title: string, body: BlockNode[], data: Record<string, unknown> = {}) =>
  voidBlock('expandable', data, [fragment('expandable-title', [p(text(title))], 'expandable-title'), fragment('expandable-body', body, 'expandable-body')]);

// ---- blocks ----

describe('renderDocument: blocks', () => {
  const cases: [name: string, blocks: BlockNode[], expected: string[]][] = [
    ['paragraph', [p(text('Hello'))], ['<p>Hello</p>']],
    ['hard line break', [p(text('one\ntwo'))], ['<p>one<br>two</p>']],
    ['heading-1 is h2 with anchor and self-link', [heading(1, 'Getting started')], ['<h2 id="getting-started" class="heading">Getting started <a class="heading-anchor" href="#getting-started" aria-hidden="true" tabindex="-1">#</a></h2>']],
    ['heading-2 is h3', [heading(2, 'Install')], ['<h3 id="install" class="heading">Install ']],
    ['heading-3 is h4', [heading(3, 'On Linux')], ['<h4 id="on-linux" class="heading">On Linux ']],
    ['custom heading id', [heading(1, 'Title', { id: 'custom.id_1' })], ['<h2 id="custom.id_1"', 'href="#custom.id_1"']],
    ['invalid custom heading id falls back to the slug', [heading(1, 'Title', { id: 'Bad Id!' })], ['<h2 id="title"']],
    ['unordered list', [block('list-unordered', {}, [item(p(text('a'))), item(p(text('b')))])], ['<ul><li><p>a</p></li><li><p>b</p></li></ul>']],
    ['ordered list with start', [block('list-ordered', { start: 3 }, [item(p(text('c')))])], ['<ol start="3"><li><p>c</p></li></ol>']],
    ['ordered list starting at 1', [block('list-ordered', { start: 1 }, [item(p(text('a')))])], ['<ol><li>']],
    ['nested list', [block('list-unordered', {}, [item(p(text('a')), block('list-ordered', {}, [item(p(text('b')))]))])], ['<ul><li><p>a</p><ol><li><p>b</p></li></ol></li></ul>']],
    [
      'task list with disabled checkboxes',
      [block('list-tasks', {}, [task(true, 'done'), task(false, 'todo')])],
      ['<ul class="task-list">', '<input type="checkbox" disabled checked aria-labelledby="task_1">', '<div class="task-body" id="task_1"><p>done</p></div>', '<input type="checkbox" disabled aria-labelledby="task_2">'],
    ],
    ['blockquote', [block('blockquote', {}, [p(text('quoted'))])], ['<blockquote><p>quoted</p></blockquote>']],
    ['hint info', [block('hint', { style: 'info' }, [p(text('x'))])], ['<div class="hint hint-info" role="note" aria-label="Info"><p>x</p></div>']],
    ['hint warning', [block('hint', { style: 'warning' }, [p(text('x'))])], ['<div class="hint hint-warning" role="note" aria-label="Warning">']],
    ['hint danger', [block('hint', { style: 'danger' }, [p(text('x'))])], ['<div class="hint hint-danger" role="note" aria-label="Danger">']],
    ['hint success', [block('hint', { style: 'success' }, [p(text('x'))])], ['<div class="hint hint-success" role="note" aria-label="Success">']],
    ['hint of unknown style is info', [block('hint', { style: 'bogus' }, [p(text('x'))])], ['<div class="hint hint-info" role="note"']],
    [
      'code block',
      [codeBlock({ syntax: 'JavaScript' }, 'const a = "<b>";', 'a && b')],
      [
        '<div class="code-bar"><span class="code-language">JavaScript</span><button type="button" class="code-copy" hidden data-copied="Copied">Copy</button></div>',
        '<pre class="code" tabindex="0"><code class="language-javascript hljs"><span class="code-line"><span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;&lt;b&gt;&quot;</span>;</span>\n<span class="code-line">a &amp;&amp; b</span></code></pre>',
      ],
    ],
    [
      'code block with title and line numbers',
      [codeBlock({ syntax: 'sh', title: 'install.sh', lineNumbers: true, overflow: 'wrap' }, 'npm i')],
      ['<figure class="code-block"><figcaption>install.sh</figcaption><div class="code-bar"><span class="code-language">Bash</span>', '<pre class="code line-numbers wrap" tabindex="0"><code class="language-sh hljs">'],
    ],
    ['code block without syntax', [codeBlock({}, 'x')], ['<div class="code-bar"><button', '<pre class="code" tabindex="0"><code><span class="code-line">x</span></code></pre>']],
    ['code block in an unknown language: labelled, not highlighted', [codeBlock({ syntax: 'zorg' }, 'x = 1')], ['<span class="code-language">zorg</span>', '<code class="language-zorg"><span class="code-line">x = 1</span></code>']],
    ['expandable', [expandable('More', [p(text('Hidden'))])], ['<details class="expandable"><summary>More</summary><div class="expandable-body"><p>Hidden</p></div></details>']],
    ['expandable open by default', [expandable('More', [p(text('Shown'))], { defaultExpanded: true })], ['<details class="expandable" open><summary>More</summary>']],
    [
      'images with caption and alt',
      [block('images', {}, [image({ ref: url('https://cdn.example.com/a.png'), alt: 'A chart' }, 'Figure 1')])],
      ['<div class="images"><figure class="image"><img src="https://cdn.example.com/a.png" alt="A chart" loading="lazy" decoding="async"><figcaption>Figure 1</figcaption></figure></div>'],
    ],
    ['image from a file', [block('images', {}, [image({ ref: { kind: 'file', file: 'pic' }, width: 320 })])], ['<img src="/files/pic/pic.png" alt="" width="320" loading="lazy"']],
    [
      'image with a dark variant',
      [block('images', {}, [image({ ref: url('/light.png'), refDark: url('/dark.png'), alt: 'Logo' })])],
      ['<img src="/light.png" class="only-light" alt="Logo"', '<img src="/dark.png" class="only-dark" alt="Logo"'],
    ],
    ['image of an unknown file shows its alt', [block('images', {}, [image({ ref: { kind: 'file', file: 'gone' }, alt: 'Missing chart' })])], ['<figure class="image image-broken"><span class="image-missing">Missing chart</span></figure>']],
    [
      'file download card',
      [voidBlock('file', { ref: { kind: 'file', file: 'report' } })],
      ['<p class="file-card"><a class="card" href="/files/report/report.pdf" download="report.pdf"><span class="file-name">report.pdf</span><span class="file-meta">application/pdf · 1.5 KB</span></a></p>'],
    ],
    ['unknown file', [voidBlock('file', { ref: { kind: 'file', file: 'gone' } })], ['<p class="file-card file-missing">File unavailable</p>']],
    ['embed as a link card', [voidBlock('embed', { url: 'https://www.youtube.com/watch?v=1' })], ['<a class="card" href="https://www.youtube.com/watch?v=1"><span class="card-title">www.youtube.com</span>']],
    ['math block', [voidBlock('math', { formula: 'a < b' })], ['<div class="math-block"><span class="katex-display"><span class="katex">', '<annotation encoding="application/x-tex">a &lt; b</annotation>']],
    ['divider', [voidBlock('divider', {})], ['<hr>']],
    ['content-ref to a page', [voidBlock('content-ref', { ref: { kind: 'page', page: 'p2' } })], ['<a class="card" href="/docs/p2"><span class="card-title">Second page</span></a>']],
    ['content-ref to a URL', [voidBlock('content-ref', { ref: url('https://example.com/x') })], ['href="https://example.com/x"', '<span class="card-detail">example.com</span>']],
    ['broken content-ref', [voidBlock('content-ref', { ref: { kind: 'page', page: 'missing' } })], ['<p class="card-block content-ref card-broken"><span class="card-title">missing</span></p>']],
    ['reusable content', [voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'shared' } })], ['<div class="reusable-content"><p>Shared text</p></div>']],
    ['reusable content including itself is expanded once', [voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'loop' } })], ['<div class="reusable-content"><p>Loop body</p></div>']],
    ['stepper', [block('stepper', {}, [block('stepper-step', {}, [p(text('one'))])])], ['<ol class="stepper"><li class="stepper-step"><p>one</p></li></ol>']],
    ['unknown block with children shows them', [block('mystery', {}, [p(text('inside'))])], ['<p>inside</p>']],
    ['unknown block with inline content', [block('mystery', {}, [text('loose text')])], ['<p>loose text</p>']],
    ['unknown void block with fragments', [voidBlock('widget', {}, [fragment('body', [p(text('from fragment'))])])], ['<p>from fragment</p>']],
  ];

  it.each(cases)('%s', (_name, blocks, expected) => {
    const html = render(...blocks);
    for (const fragmentHtml of expected) expect(html).toContain(fragmentHtml);
  });

  it('leaves out a missing reusable content and conditional blocks', () => {
    expect(render(voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'nope' } }))).toBe('');
    expect(render(block('if', { expression: 'visitor.claims.admin' }, [p(text('secret'))]))).toBe('');
  });

  it('renders a document read from markdown', () => {
    const { document } = markdownToDocument('# T\n\nSee **[docs](https://example.com)**.\n\n{% hint style="success" %}\nDone\n{% endhint %}\n\n* [x] shipped\n');
    const html = renderDocument(document, context);
    expect(html).toContain('<p>See <a href="https://example.com"><strong>docs</strong></a>.</p>');
    expect(html).toContain('<div class="hint hint-success" role="note" aria-label="Success"><p>Done</p></div>');
    expect(html).toContain('checked');
  });

  it('writes the interface words in the site language', () => {
    const html = renderDocument(doc(block('hint', { style: 'warning' }, [p(text('x'))])), { ...context, lang: 'fr' });
    expect(html).toContain('aria-label="Attention"');
  });
});

// ---- inlines and marks ----

describe('renderDocument: inlines and marks', () => {
  const cases: [name: string, nodes: InlineNode['nodes'], expected: string][] = [
    ['link to a URL', [link(url('https://example.com/a?b=1&c=2'), text('site'))], '<a href="https://example.com/a?b=1&amp;c=2">site</a>'],
    ['link to a page', [link({ kind: 'page', page: 'p2' }, text('next'))], '<a href="/docs/p2">next</a>'],
    ['link to an anchor of a page', [link({ kind: 'anchor', page: 'p2', anchor: 'setup' }, text('setup'))], '<a href="/docs/p2#setup">setup</a>'],
    ['link to an anchor of this page', [link({ kind: 'anchor', anchor: 'setup' }, text('setup'))], '<a href="#setup">setup</a>'],
    ['link to a file', [link({ kind: 'file', file: 'report' }, text('report'))], '<a href="/files/report/report.pdf">report</a>'],
    ['link to a space', [link({ kind: 'space', space: 'sp1' }, text('other'))], '<a href="/spaces/sp1/">other</a>'],
    ['broken page link is text', [link({ kind: 'page', page: 'missing' }, text('gone'))], '<span class="link-broken">gone</span>'],
    ['link of an unsupported kind is text', [link({ kind: 'collection', collection: 'c' }, text('c'))], '<span class="link-broken">c</span>'],
    ['mailto link', [link(url('mailto:a@example.com'), text('mail'))], '<a href="mailto:a@example.com">mail</a>'],
    ['relative link', [link(url('../guide/intro'), text('rel'))], '<a href="../guide/intro">rel</a>'],
    ['emoji', [inline('emoji', { code: '1f600' })], '<span class="emoji">😀</span>'],
    ['flag emoji sequence', [inline('emoji', { code: '1f1eb-1f1f7' })], '<span class="emoji">🇫🇷</span>'],
    ['inline math', [inline('inline-math', { formula: 'x^2 < y' })], '<annotation encoding="application/x-tex">x^2 &lt; y</annotation>'],
    ['inline image', [inline('inline-image', { ref: url('/icon.png'), alt: 'icon' })], '<img src="/icon.png" class="inline-image" alt="icon" decoding="async">'],
    ['inline image of a line size', [inline('inline-image', { ref: { kind: 'file', file: 'pic' }, size: 'line' })], 'class="inline-image inline-image-line"'],
    ['mention of a user', [inline('mention', { ref: { kind: 'user', user: 'u1' } })], '<span class="mention">Ada Lovelace</span>'],
    ['mention of a page links to it', [inline('mention', { ref: { kind: 'page', page: 'p2' } })], '<a class="mention" href="/docs/p2">Second page</a>'],
    ['unknown mention shows the id', [inline('mention', { ref: { kind: 'user', user: 'u9' } })], '<span class="mention">u9</span>'],
    ['button', [inline('button', { label: 'Start', kind: 'primary', ref: { kind: 'page', page: 'p2' } })], '<a class="button button-primary" href="/docs/p2">Start</a>'],
    ['no link inside a link', [link(url('/a'), text('x'), link(url('/b'), text('y')))], '<a href="/a">xy</a>'],
    ['bold', [text('b', mark('bold'))], '<strong>b</strong>'],
    ['italic', [text('i', mark('italic'))], '<em>i</em>'],
    ['code', [text('c', mark('code'))], '<code>c</code>'],
    ['strikethrough', [text('s', mark('strikethrough'))], '<s>s</s>'],
    ['keyboard', [text('Ctrl', mark('keyboard'))], '<kbd>Ctrl</kbd>'],
    ['superscript', [text('2', mark('superscript'))], '<sup>2</sup>'],
    ['subscript', [text('2', mark('subscript'))], '<sub>2</sub>'],
    ['colour', [text('red', mark('color', { text: 'red', background: 'default' }))], '<span class="color-text-red">red</span>'],
    ['semantic colour and background', [text('x', mark('color', { text: '$primary', background: 'yellow' }))], '<span class="color-text-primary color-bg-yellow">x</span>'],
    ['unknown colour is ignored', [text('x', mark('color', { text: 'url(evil)', background: 'default' }))], '<p>x</p>'],
    ['marks nest in one order', [text('x', mark('code'), mark('bold'), mark('italic'))], '<strong><em><code>x</code></em></strong>'],
    ['neighbouring leaves share marks', [leaves(['bold ', mark('bold')], ['both', mark('bold'), mark('italic')], [' plain'])], '<strong>bold <em>both</em></strong> plain'],
    ['marks inside a link', [link(url('/a'), text('go', mark('bold')))], '<a href="/a"><strong>go</strong></a>'],
  ];

  it.each(cases)('%s', (_name, nodes, expected) => {
    expect(render(block('paragraph', {}, nodes!))).toContain(expected);
  });
});

// ---- escaping and URLs ----

describe('escaping', () => {
  it.each([
    ['https://example.com/x', 'https://example.com/x'],
    ['HTTP://EXAMPLE.COM', 'HTTP://EXAMPLE.COM'],
    ['mailto:a@b.c', 'mailto:a@b.c'],
    ['/absolute/path', '/absolute/path'],
    ['relative/path?x=1', 'relative/path?x=1'],
    ['#anchor', '#anchor'],
    ['//cdn.example.com/x', '//cdn.example.com/x'],
    ['  https://example.com  ', 'https://example.com'],
    ['javascript:alert(1)', undefined],
    ['JaVaScRiPt:alert(1)', undefined],
    [' \u0001javascript:alert(1)', undefined],
    ['java\tscript:alert(1)', undefined],
    ['java\nscript:alert(1)', undefined],
    ['data:text/html,<script>alert(1)</script>', undefined],
    ['vbscript:msgbox', undefined],
    ['file:///etc/passwd', undefined],
    ['', undefined],
  ])('safeUrl(%j) = %j', (input, expected) => {
    expect(safeUrl(input)).toBe(expected);
  });

  it('escapes text: a script in a paragraph stays text', () => {
    const html = render(p(text('<script>alert("x")</script> & more')));
    expect(html).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more</p>');
    expect(all('script', parse(html))).toHaveLength(0);
  });

  it('drops javascript: and data: links, keeping their text', () => {
    const html = render(
      p(
        link(url('javascript:alert(1)'), text('a')),
        link(url('  JAVASCRIPT:alert(1)'), text('b')),
        link(url('data:text/html;base64,PHNjcmlwdD4='), text('c')),
        inline('inline-image', { ref: url('javascript:alert(1)'), alt: 'd' }),
      ),
      voidBlock('embed', { url: 'javascript:alert(1)' }),
      block('images', {}, [image({ ref: url('data:image/svg+xml,<svg onload=alert(1)>'), alt: 'e' })]),
    );
    expect(html).not.toMatch(/(href|src)="[^"]*(javascript|data):/i);
    const tree = parse(html);
    for (const el of all('[href], [src]', tree)) {
      expect(String(prop(el, 'href') ?? prop(el, 'src'))).not.toMatch(/^\s*(javascript|data):/i);
    }
    expect(all('a', tree)).toHaveLength(0);
    expect(all('img', tree)).toHaveLength(0);
    expect(textContent(tree)).toContain('abcd');
  });

  it('escapes quotes in attributes', () => {
    const alt = '" onerror="alert(1)';
    const title = `x" onclick='alert(2)'`;
    const html = render(
      block('images', {}, [image({ ref: url('/a.png?x="y"'), alt })]),
      codeBlock({ title, syntax: '"><script>' }, 'x'),
      block('tabs', {}, [tabsItem(`"><img src=x onerror=alert(3)>`, p(text('t')))]),
    );
    const tree = parse(html);
    const img = one('img', tree);
    expect(prop(img, 'alt')).toBe(alt);
    expect(prop(img, 'src')).toBe('/a.png?x="y"');
    expect(textContent(one('figcaption', tree))).toBe(title);
    expect(textContent(one('[role=tab]', tree))).toBe(`"><img src=x onerror=alert(3)>`);
    for (const el of all('*', tree)) {
      expect(Object.keys(el.properties ?? {}).filter((k) => /^on/i.test(k))).toEqual([]);
    }
    expect(all('script', tree)).toHaveLength(0);
    expect(all('img', tree)).toHaveLength(1);
  });

  it('escapes table titles and cells, file names and mentions', () => {
    const table = voidBlock(
      'table',
      { view: { type: 'grid', columns: ['a'] }, definition: { a: { id: 'a', title: '<b>Title</b>', type: 'text', textAlignment: 'left' } }, records: { r: { orderIndex: 'a0', values: { a: '<i>raw</i>' } } } },
      [],
    );
    const html = renderDocument(doc(table, voidBlock('file', { ref: { kind: 'file', file: 'x' } })), {
      ...context,
      fileUrl: () => ({ url: '/f', name: '<evil>.pdf', contentType: 'text/html"' }),
    });
    expect(html).toContain('&lt;b&gt;Title&lt;/b&gt;');
    expect(html).toContain('&lt;i&gt;raw&lt;/i&gt;');
    expect(html).toContain('download="&lt;evil&gt;.pdf"');
    expect(all('b, i', parse(html))).toHaveLength(0);
  });
});

// ---- anchors ----

describe('heading anchors', () => {
  it('are unique, follow the text and are listed for the outline', () => {
    const { html, headings } = renderDocumentWithOutline(
      doc(heading(1, 'Intro'), heading(2, 'Intro'), heading(1, 'Intro 1'), heading(3, 'Ünïcödé & Co.'), heading(1, '!!!'), heading(1, 'Main content')),
      context,
    );
    const ids = all('h2, h3, h4', parse(html)).map((h) => String(prop(h, 'id')));
    expect(ids).toEqual(['intro', 'intro-1', 'intro-1-1', 'unicode-co', 'section', 'main-content-1']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(headings).toEqual([
      { id: 'intro', title: 'Intro', level: 1 },
      { id: 'intro-1', title: 'Intro', level: 2 },
      { id: 'intro-1-1', title: 'Intro 1', level: 1 },
      { id: 'unicode-co', title: 'Ünïcödé & Co.', level: 3 },
      { id: 'section', title: '!!!', level: 1 },
      { id: 'main-content-1', title: 'Main content', level: 1 },
    ]);
    // Each self-link points at its own heading.
    for (const h of all('h2, h3, h4', parse(html))) expect(prop(one('a.heading-anchor', { type: 'root', children: [h] }), 'href')).toBe(`#${prop(h, 'id')}`);
  });

  it('do not depend on the tabs and tasks before them; headings in containers stay out of the outline', () => {
    const before = renderDocumentWithOutline(doc(heading(1, 'Tabs 1 tab 1'), heading(1, 'Task 1')), context);
    const after = renderDocumentWithOutline(
      doc(block('tabs', {}, [tabsItem('A', heading(1, 'Inside'))]), block('list-tasks', {}, [task(true, 'x')]), heading(1, 'Tabs 1 tab 1'), heading(1, 'Task 1')),
      context,
    );
    expect(after.headings.map((h) => h.id)).toEqual(before.headings.map((h) => h.id));
    expect(after.headings.map((h) => h.title)).not.toContain('Inside');
    const ids = all('[id]', parse(after.html)).map((el) => String(prop(el, 'id')));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('include headings of reusable content at the top level', () => {
    const { headings } = renderDocumentWithOutline(doc(voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'h' } })), {
      ...context,
      reusableContent: () => doc(heading(1, 'Shared heading')),
    });
    expect(headings).toEqual([{ id: 'shared-heading', title: 'Shared heading', level: 1 }]);
  });
});

// ---- tables ----

describe('tables', () => {
  it('read columns from the definition and text cells from fragments', () => {
    const { document } = markdownToDocument('| Name | Size |\n|:--|--:|\n| **bold** [link](https://example.com) | 12 |\n| b | 3 |\n');
    const tree = parse(renderDocument(document, context));
    expect(all('th', tree).map(textContent)).toEqual(['Name', 'Size']);
    expect(all('th', tree).map((th) => prop(th, 'scope'))).toEqual(['col', 'col']);
    const rows = all('tbody tr', tree);
    expect(rows.map((r) => all('td', { type: 'root', children: [r] }).map(textContent))).toEqual([
      ['bold link', '12'],
      ['b', '3'],
    ]);
    expect(one('tbody td strong', tree)).toBeTruthy();
    expect(prop(one('tbody td a', tree), 'href')).toBe('https://example.com');
    expect(prop(all('tbody td', tree)[1], 'className')).toEqual(['align-right']);
    expect(prop(one('.table-wrapper', tree), 'tabIndex')).toBe(0);
  });

  it('order records by orderIndex, follow view.columns and render every column type', () => {
    const table = voidBlock(
      'table',
      {
        view: { type: 'grid', columns: ['t', 'n', 'c', 'f', 's', 'r', 'ref', 'u'], hideHeader: false },
        definition: {
          t: { id: 't', title: 'Text', type: 'text', textAlignment: 'center' },
          n: { id: 'n', title: 'Number', type: 'number' },
          c: { id: 'c', title: 'Done', type: 'checkbox' },
          f: { id: 'f', title: 'Files', type: 'files' },
          s: { id: 's', title: 'Tags', type: 'select', multiple: true, options: [{ value: 'o1', label: 'Alpha', color: 'red' }] },
          r: { id: 'r', title: 'Stars', type: 'rating', max: 5 },
          ref: { id: 'ref', title: 'Page', type: 'content-ref' },
          u: { id: 'u', title: 'Owner', type: 'users', multiple: false },
          hidden: { id: 'hidden', title: 'Not in view', type: 'text', textAlignment: 'left' },
        },
        records: {
          second: { orderIndex: 'a2', values: { t: 'cell2', n: 2, c: false } },
          first: {
            orderIndex: 'a1',
            values: { t: 'cell1', n: 1.5, c: true, f: ['report'], s: ['o1'], r: 3, ref: { kind: 'page', page: 'p2' }, u: ['u1'], hidden: 'cell1' },
          },
        },
      },
      [fragment('cell1', [p(text('First', mark('italic')))]), fragment('cell2', [p(text('Second')), p(text('More'))])],
    );
    const tree = parse(render(table));
    expect(all('th', tree).map(textContent)).toEqual(['Text', 'Number', 'Done', 'Files', 'Tags', 'Stars', 'Page', 'Owner']);
    const [first, second] = all('tbody tr', tree).map((r) => all('td', { type: 'root', children: [r] }));
    expect(first.map(textContent)).toEqual(['First', '1.5', '', 'report.pdf', 'Alpha', '★★★☆☆', 'Second page', 'Ada Lovelace']);
    expect(all('em', { type: 'root', children: [first[0]] })).toHaveLength(1);
    expect(prop(one('input', { type: 'root', children: [first[2]] }), 'checked')).toBe(true);
    expect(prop(one('input', { type: 'root', children: [first[2]] }), 'ariaLabel')).toBe('Done');
    expect(prop(one('a', { type: 'root', children: [first[3]] }), 'href')).toBe('/files/report/report.pdf');
    expect(prop(one('.rating', { type: 'root', children: [first[5]] }), 'ariaLabel')).toBe('3/5');
    expect(prop(one('a', { type: 'root', children: [first[6]] }), 'href')).toBe('/docs/p2');
    // A cell of several blocks keeps them.
    expect(all('p', { type: 'root', children: [second[0]] }).map(textContent)).toEqual(['Second', 'More']);
    expect(prop(one('input', { type: 'root', children: [second[2]] }), 'checked')).toBeFalsy();
  });

  it('hide the header when asked and tolerate a cell holding text directly', () => {
    const table = voidBlock(
      'table',
      { view: { type: 'grid', columns: ['a'], hideHeader: true }, definition: { a: { id: 'a', title: 'A', type: 'text', textAlignment: 'left' } }, records: { r: { orderIndex: 'a0', values: { a: 'plain' } } } },
      [],
    );
    const tree = parse(render(table));
    expect(all('thead', tree)).toHaveLength(0);
    expect(textContent(one('td', tree))).toBe('plain');
  });
});

// ---- tabs ----

describe('tabs', () => {
  it('are an ARIA tablist linked to tabpanels, all panels shown without script', () => {
    const tree = parse(render(block('tabs', {}, [tabsItem('macOS', p(text('brew'))), tabsItem('Linux', p(text('apt'))), tabsItem('', p(text('other')))])));
    const list = one('[role=tablist]', tree);
    expect(prop(list, 'hidden')).toBe(true);
    const tabs = all('[role=tablist] > button[role=tab]', tree);
    const panels = all('[role=tabpanel]', tree);
    expect(tabs.map(textContent)).toEqual(['macOS', 'Linux', '3']);
    expect(panels).toHaveLength(3);
    tabs.forEach((tab, i) => {
      expect(prop(tab, 'type')).toBe('button');
      expect(prop(tab, 'ariaSelected')).toBe(i === 0 ? 'true' : 'false');
      expect(prop(tab, 'tabIndex')).toBe(i === 0 ? 0 : -1);
      const panel = panels[i];
      expect(prop(tab, 'ariaControls')).toEqual([prop(panel, 'id')]);
      expect(prop(panel, 'ariaLabelledBy')).toEqual([prop(tab, 'id')]);
      expect(prop(panel, 'hidden')).toBeUndefined();
    });
    expect(all('.tabpanel-title', tree).map(textContent)).toEqual(['macOS', 'Linux', '3']);
    expect(all('[role=tabpanel] > p:not(.tabpanel-title)', tree).map(textContent)).toEqual(['brew', 'apt', 'other']);
  });

  it('get ids unique across groups', () => {
    const group = () => block('tabs', {}, [tabsItem('A', p(text('a'))), tabsItem('B', p(text('b')))]);
    const ids = all('[id]', parse(render(group(), group()))).map((el) => String(prop(el, 'id')));
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
  });
});

// ---- bounds ----

describe('bounded recursion', () => {
  it('renders 10,000 nested blockquotes without overflowing the stack', () => {
    let node: BlockNode = p(text('deepest <text>'));
    for (let i = 0; i < 10_000; i++) node = block('blockquote', {}, [node]);
    const html = render(node);
    expect(html).toContain('deepest &lt;text&gt;');
    expect(html.match(/<blockquote>/g)!.length).toBeLessThan(100);
    expect(textContent(parse(html))).toContain('deepest <text>');
  });

  it('renders deeply nested lists, links and a huge heading without throwing', () => {
    let list: BlockNode = p(text('leaf'));
    for (let i = 0; i < 5_000; i++) list = block('list-unordered', {}, [item(list)]);
    let inlineNode: InlineNode = link(url('/x'), text('in'));
    for (let i = 0; i < 5_000; i++) inlineNode = inline('unknown-inline', {}, [inlineNode]);
    let title: InlineNode = link(url('/t'), text('heading'));
    for (let i = 0; i < 5_000; i++) title = inline('unknown-inline', {}, [title]);
    const html = render(list, block('paragraph', {}, [inlineNode]), block('heading-1', {}, [title]));
    expect(html).toContain('leaf');
    expect(html).toContain('in');
    expect(html).toContain('<h2 id="heading"');
  });

  it('never throws on malformed documents', () => {
    const bad = [
      { object: 'document', data: {}, nodes: 'nope' },
      { object: 'document', data: {}, nodes: [null, 1, 'x', { object: 'block' }, { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: 'x' }] }] },
      { object: 'document', data: {}, nodes: [{ object: 'block', type: 'table', data: { definition: 'x', records: [1] } }, { object: 'block', type: 'code', nodes: [null] }] },
      { object: 'document', data: {}, nodes: [{ object: 'block', type: 'list-ordered', data: { start: 'x' }, nodes: [{ object: 'block', type: 'list-item', nodes: [{ object: 'text', leaves: [{ text: 'x', marks: null }] }] }] }] },
    ] as unknown as JSONDocument[];
    for (const document of bad) expect(() => renderDocument(document, context)).not.toThrow();
  });
});

// ---- pages ----

const site = (overrides: Partial<PageView['site']> = {}): PageView['site'] => ({
  title: 'Acme Docs',
  href: '/sites/s1/',
  logo: { light: '/files/logo-light.svg', dark: '/files/logo-dark.svg' },
  favicon: { light: '/files/icon-light.png', dark: '/files/icon-dark.png' },
  headerLinks: [
    { title: 'Blog', href: 'https://blog.example.com' },
    { title: 'Products', href: '/products', children: [{ title: 'API', href: '/api' }] },
    { title: 'Evil', href: 'javascript:alert(1)' },
  ],
  footer: { groups: [{ title: 'Company', links: [{ title: 'About', href: '/about' }] }], copyright: '© 2025 Acme <Inc>' },
  announcement: { message: 'We moved!', link: { title: 'Read more', href: '/news' }, style: 'warning' },
  colors: { primary: { light: '#ff0000', dark: '#00ff00' }, danger: { light: 'red;}</style><script>alert(1)</script>', dark: '#abc' } },
  theme: { default: 'light', toggleable: true },
  ...overrides,
});

const pageView = (overrides: Partial<PageView> = {}): PageView => ({
  lang: 'en',
  site: site(),
  sections: [
    { title: 'Guides', href: '/sites/s1/guides/', current: true },
    { title: 'API', href: '/sites/s1/api/', current: false },
  ],
  variants: [
    { title: 'v2', href: '/sites/s1/guides/v2/', current: true },
    { title: 'v1', href: '/sites/s1/guides/v1/', current: false },
  ],
  nav: [
    {
      title: 'Getting started',
      kind: 'group',
      children: [
        {
          title: 'Install',
          href: '/sites/s1/install',
          kind: 'page',
          emoji: '1f680',
          children: [{ title: 'Linux', href: '/sites/s1/install/linux', kind: 'page', current: true, children: [] }],
        },
        { title: 'Configure', href: '/sites/s1/configure', kind: 'page', children: [{ title: 'Advanced', href: '/sites/s1/configure/advanced', kind: 'page', children: [] }] },
        { title: 'Status', href: 'https://status.example.com', kind: 'link', children: [] },
      ],
    },
  ],
  page: { title: 'Linux', description: 'Install on "Linux"', bodyHtml: '<p>Body here</p>', headings: [{ id: 'setup', title: 'Setup', level: 1 }] },
  previous: { title: 'Install', href: '/sites/s1/install' },
  next: { title: 'Configure', href: '/sites/s1/configure' },
  searchAction: '/sites/s1/search',
  noindex: false,
  canonicalUrl: 'https://docs.example.com/install/linux',
  ...overrides,
});

describe('renderPage', () => {
  const html = renderPage(pageView());
  const tree = parsePage(html);

  it('is an HTML5 document with lang, title, description, canonical URL and favicons', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(prop(one('html', tree), 'lang')).toBe('en');
    expect(textContent(one('title', tree))).toBe('Linux · Acme Docs');
    expect(prop(one('meta[name=description]', tree), 'content')).toBe('Install on "Linux"');
    expect(prop(one('link[rel=canonical]', tree), 'href')).toBe('https://docs.example.com/install/linux');
    expect(all('link[rel=icon]', tree).map((l) => [prop(l, 'href'), prop(l, 'media')])).toEqual([
      ['/files/icon-light.png', '(prefers-color-scheme: light)'],
      ['/files/icon-dark.png', '(prefers-color-scheme: dark)'],
    ]);
    expect(prop(one('meta[name=viewport]', tree), 'content')).toContain('width=device-width');
  });

  it('marks noindex only when asked', () => {
    expect(all('meta[name=robots]', tree)).toHaveLength(0);
    const hidden = parsePage(renderPage(pageView({ noindex: true })));
    expect(prop(one('meta[name=robots]', hidden), 'content')).toBe('noindex');
  });

  it('has landmarks and a skip link to main', () => {
    expect(all('body > header.site-header', tree)).toHaveLength(1);
    expect(all('main', tree)).toHaveLength(1);
    expect(all('footer.site-footer', tree)).toHaveLength(1);
    expect(all('aside', tree).length).toBeGreaterThanOrEqual(2);
    for (const el of all('nav, aside', tree)) expect(prop(el, 'ariaLabel') ?? prop(el, 'ariaLabelledBy')).toBeTruthy();
    const labels = all('nav, aside', tree).map((el) => String(prop(el, 'ariaLabel') ?? textContent(one(`#${(prop(el, 'ariaLabelledBy') as string[])[0]}`, tree))));
    expect(new Set(labels).size).toBe(labels.length);
    const skip = one('body > a.skip-link', tree);
    expect(prop(skip, 'href')).toBe(`#${PAGE_IDS.main}`);
    expect(prop(one('main', tree), 'id')).toBe(PAGE_IDS.main);
    // The skip link is the first thing of the body.
    expect((one('body', tree).children.find((c) => c.type === 'element') as Element).properties?.className).toEqual(['skip-link']);
    expect(textContent(one('main h1', tree))).toBe('Linux');
    expect(textContent(one('main .page-body', tree))).toBe('Body here');
  });

  it('applies the colours as CSS custom properties for light and dark, dropping invalid ones', () => {
    const styles = all('style', tree).map(textContent).join('\n');
    expect(styles).toContain(':root{--primary:#ff0000;');
    expect(styles).toContain(':root[data-theme="dark"]{--primary:#00ff00;');
    expect(styles).toMatch(/@media \(prefers-color-scheme: dark\)\{:root:not\(\[data-theme="light"\]\)\{--primary:#00ff00;/);
    expect(styles).toContain('--danger:#aabbcc;');
    expect(html).not.toContain('alert(1)</script>');
    expect(all('script', tree).every((s) => !textContent(s).includes('alert'))).toBe(true);
  });

  it('follows the system theme with a toggle when toggleable, else fixes the default theme', () => {
    expect(prop(one('html', tree), 'dataTheme')).toBeUndefined();
    const toggle = one('button.theme-toggle', tree);
    expect(prop(toggle, 'ariaPressed')).toBe('false');
    expect(textContent(one('head script', tree))).toBe(THEME_SCRIPT);
    const fixed = parsePage(renderPage(pageView({ site: site({ theme: { default: 'dark', toggleable: false } }) })));
    expect(prop(one('html', fixed), 'dataTheme')).toBe('dark');
    expect(all('button.theme-toggle', fixed)).toHaveLength(0);
    expect(all('head script', fixed)).toHaveLength(0);
    expect(prop(one('meta[name=color-scheme]', fixed), 'content')).toBe('dark');
  });

  it('shows the logo per theme, header links, footer and the announcement', () => {
    const logos = all('header .site-brand img', tree);
    expect(logos.map((i) => [prop(i, 'src'), prop(i, 'className'), prop(i, 'alt')])).toEqual([
      ['/files/logo-light.svg', ['only-light'], 'Acme Docs'],
      ['/files/logo-dark.svg', ['only-dark'], 'Acme Docs'],
    ]);
    expect(prop(one('.site-brand', tree), 'href')).toBe('/sites/s1/');
    expect(all('.header-links a', tree).map((a) => [textContent(a), prop(a, 'href')])).toEqual([
      ['Blog', 'https://blog.example.com'],
      ['Products', '/products'],
      ['API', '/api'],
    ]);
    expect(textContent(one('.header-menu summary', tree))).toBe('Products');
    // The unsafe link is text.
    expect(all('.header-links span', tree).map(textContent)).toContain('Evil');
    expect(html).not.toContain('javascript:');
    expect(textContent(one('.footer-group h2', tree))).toBe('Company');
    expect(prop(one('.footer-group a', tree), 'href')).toBe('/about');
    expect(textContent(one('.copyright', tree))).toBe('© 2025 Acme <Inc>');
    const banner = one('.announcement', tree);
    expect(prop(banner, 'className')).toEqual(['announcement', 'announcement-warning']);
    expect(textContent(banner)).toBe('We moved! Read more');
    expect(prop(one('.announcement a', tree), 'href')).toBe('/news');
  });

  it('without a logo shows the title; without toggle no script in head', () => {
    const plain = parsePage(renderPage(pageView({ site: site({ logo: undefined, announcement: undefined }) })));
    expect(textContent(one('.site-brand', plain))).toBe('Acme Docs');
    expect(all('.announcement', plain)).toHaveLength(0);
  });

  it('marks the current page in the navigation and opens its ancestors', () => {
    const current = all('[aria-current=page]', tree);
    expect(current.map(textContent)).toEqual(['Linux']);
    expect(prop(current[0], 'href')).toBe('/sites/s1/install/linux');
    const details = all('.nav-tree details', tree);
    expect(details.map((d) => prop(d, 'open'))).toEqual([true, undefined]);
    expect(textContent(one('.nav-group-title', tree))).toBe('Getting started');
    expect(textContent(one('.nav-tree .emoji', tree))).toBe('🚀');
    expect(prop(one('.nav-external', tree), 'href')).toBe('https://status.example.com');
    expect(prop(one(`nav#${PAGE_IDS.nav}`, tree), 'ariaLabel')).toBe('Pages');
    expect(prop(one('a.menu-link', tree), 'href')).toBe(`#${PAGE_IDS.nav}`);
  });

  it('shows section tabs, the variant switcher, previous/next links and the outline', () => {
    const sections = all('nav.section-tabs a', tree);
    expect(sections.map((a) => [textContent(a), prop(a, 'ariaCurrent')])).toEqual([
      ['Guides', 'true'],
      ['API', undefined],
    ]);
    expect(textContent(one('.variants summary', tree))).toBe('Versions: v2');
    expect(all('.variants a', tree).map((a) => prop(a, 'href'))).toEqual(['/sites/s1/guides/v2/', '/sites/s1/guides/v1/']);
    expect(prop(one('a[rel=prev]', tree), 'href')).toBe('/sites/s1/install');
    expect(textContent(one('a[rel=next]', tree))).toBe('NextConfigure');
    expect(all('aside.outline a', tree).map((a) => prop(a, 'href'))).toEqual(['#setup']);
    // One section or variant: nothing to switch.
    const single = parsePage(renderPage(pageView({ sections: [{ title: 'Only', href: '/', current: true }], variants: [] })));
    expect(all('.section-tabs, .variants', single)).toHaveLength(0);
  });

  it('has a GET search form with q and hidden fields', () => {
    const form = one('header form[role=search]', tree);
    expect(prop(form, 'action')).toBe('/sites/s1/search');
    expect(prop(form, 'method')).toBe('get');
    expect(prop(one('header input[type=search]', tree), 'name')).toBe('q');
    expect(prop(one(`label[for=${PAGE_IDS.search}]`, tree), 'htmlFor')).toEqual([PAGE_IDS.search]);
    const shared = parsePage(renderPage(pageView({ searchFields: { shareKey: 'k"1' } })));
    const hidden = one('form[role=search] input[type=hidden]', shared);
    expect([prop(hidden, 'name'), prop(hidden, 'value')]).toEqual(['shareKey', 'k"1']);
  });

  it('loads nothing from elsewhere, inlines the stylesheet or links the given one', () => {
    expect(all('script[src], link[rel=stylesheet], link[rel=preconnect], iframe', tree)).toHaveLength(0);
    expect(html).toContain(SITE_CSS);
    expect(SITE_CSS).not.toMatch(/@import|url\(/);
    const linked = parsePage(renderPage(pageView({ stylesheetUrl: '/assets/site.css' })));
    expect(prop(one('link[rel=stylesheet]', linked), 'href')).toBe('/assets/site.css');
    expect(all('style', linked).map(textContent).join('')).not.toContain('.skip-link');
  });

  it('publishes hashes of its inline scripts for a Content-Security-Policy', () => {
    const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    const scripts = all('script', tree).map(textContent);
    expect(scripts).toEqual([THEME_SCRIPT, SITE_SCRIPT]);
    expect(scripts.map(sha)).toEqual([...SCRIPT_HASHES]);
  });

  it('keeps ids unique between the layout and the body', () => {
    const body = renderDocumentWithOutline(doc(heading(1, 'Main content'), heading(1, 'Site search'), heading(1, 'Page outline')), context);
    const full = parsePage(renderPage(pageView({ page: { title: 'T', bodyHtml: body.html, headings: body.headings } })));
    const ids = all('[id]', full).map((el) => String(prop(el, 'id')));
    expect(new Set(ids).size).toBe(ids.length);
    expect(all('aside.outline a', full).map((a) => prop(a, 'href'))).toEqual(['#main-content-1', '#site-search-1', '#page-outline-1']);
  });

  it('escapes the title, description and language', () => {
    const evil = parsePage(renderPage(pageView({ lang: 'en"><script>', page: { title: '</title><script>alert(1)</script>', description: '"><b>', bodyHtml: '' } })));
    expect(textContent(one('title', evil))).toBe('</title><script>alert(1)</script> · Acme Docs');
    expect(prop(one('html', evil), 'lang')).toBe('en');
    expect(all('script', evil).map(textContent).some((s) => s.includes('alert'))).toBe(false);
  });

  it('uses the site locale for the interface', () => {
    const fr = parsePage(renderPage(pageView({ lang: 'fr' })));
    expect(prop(one('html', fr), 'lang')).toBe('fr');
    expect(textContent(one('.skip-link', fr))).toBe('Aller au contenu');
    expect(textContent(one('aside.outline h2', fr))).toBe('Sur cette page');
  });
});

// ---- colours ----

describe('colours', () => {
  it('keep the default palettes readable (4.5:1 for text colours)', () => {
    for (const [palette, bg] of [
      [LIGHT_PALETTE, BACKGROUND.light],
      [DARK_PALETTE, BACKGROUND.dark],
    ] as const) {
      const background = parseHex(bg)!;
      const textColors = Object.entries(palette).filter(([k]) => /-text$|^--(text|muted|green|blue|red|orange|yellow|purple|pink|violet|cyan)$/.test(k));
      expect(textColors.length).toBeGreaterThan(10);
      for (const [name, value] of textColors) expect([name, contrast(parseHex(value)!, background) >= 4.5]).toEqual([name, true]);
      expect(contrast(parseHex(palette['--on-primary'])!, parseHex(palette['--primary'])!)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('derive readable text variants from pale or dark brand colours', () => {
    const light = colorVariables({ primary: { light: '#ffee00', dark: '#101010' } }, 'light');
    const dark = colorVariables({ primary: { light: '#ffee00', dark: '#101010' } }, 'dark');
    expect(light['--primary']).toBe('#ffee00');
    expect(contrast(parseHex(light['--primary-text'])!, parseHex(BACKGROUND.light)!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parseHex(dark['--primary-text'])!, parseHex(BACKGROUND.dark)!)).toBeGreaterThanOrEqual(4.5);
    expect(light['--on-primary']).toBe('#111111');
    expect(dark['--on-primary']).toBe('#ffffff');
    // A colour that already reads is kept.
    expect(colorVariables({ primary: { light: '#0b62d6', dark: '#0b62d6' } }, 'light')['--primary-text']).toBe('#0b62d6');
  });
});

// ---- search and error pages ----

describe('renderSearchPage', () => {
  const base = () => {
    const { page: _p, previous: _pr, next: _n, ...rest } = pageView();
    return rest;
  };

  it('lists results with highlighted snippets, announces the count and is never indexed', () => {
    const html = renderSearchPage({
      ...base(),
      query: 'install <b>',
      results: [
        { title: 'Install', href: '/sites/s1/install', snippet: 'How to install <b> on Linux', section: 'Guides' },
        { title: 'Evil', href: 'javascript:alert(1)' },
      ],
    });
    const tree = parsePage(html);
    expect(textContent(one('title', tree))).toBe('install <b> – Search · Acme Docs');
    expect(prop(one('meta[name=robots]', tree), 'content')).toBe('noindex');
    expect(textContent(one('main h1', tree))).toBe('Search');
    expect(textContent(one('main [role=status]', tree))).toBe('2 results for “install <b>”');
    const items = all('ol.search-results > li', tree);
    expect(items).toHaveLength(2);
    expect(prop(one('ol.search-results a', tree), 'href')).toBe('/sites/s1/install');
    expect(textContent(one('.search-result-section', tree))).toBe('Guides');
    expect(all('.search-result-snippet mark', tree).map(textContent)).toEqual(['install', '<b>']);
    expect(all('.search-result-snippet b', tree)).toHaveLength(0);
    expect(html).not.toContain('javascript:');
    // Both forms hold the query; the page's own has its own id.
    expect(all('input[name=q]', tree).map((i) => prop(i, 'value'))).toEqual(['install <b>', 'install <b>']);
    expect(prop(one(`main input#${PAGE_IDS.searchQuery}`, tree), 'name')).toBe('q');
  });

  it('says when nothing matched and invites a query when empty', () => {
    const none = parsePage(renderSearchPage({ ...base(), query: 'zzz', results: [] }));
    expect(textContent(one('main [role=status]', none))).toBe('No results for “zzz”');
    expect(all('ol.search-results', none)).toHaveLength(0);
    const empty = parsePage(renderSearchPage({ ...base(), query: '  ', results: [{ title: 'x', href: '/x' }] }));
    expect(textContent(one('main [role=status]', empty))).toBe('Type words to search this site.');
    expect(textContent(one('title', empty))).toBe('Search · Acme Docs');
  });
});

describe('renderMessagePage', () => {
  it.each([
    [404, 'Page not found'],
    [403, 'Access denied'],
    [401, 'Sign-in required'],
  ] as const)('%i: %s in the site look, never indexed', (status, heading) => {
    const html = renderMessagePage({ lang: 'en', site: site() }, status, 'No page at <this> address.');
    const tree = parsePage(html);
    expect(textContent(one('title', tree))).toBe(`${heading} · Acme Docs`);
    expect(textContent(one('main h1', tree))).toBe(heading);
    expect(textContent(one('main .status', tree))).toBe(String(status));
    expect(textContent(one('main', tree))).toContain('No page at <this> address.');
    expect(prop(one('meta[name=robots]', tree), 'content')).toBe('noindex');
    expect(prop(one('main a', tree), 'href')).toBe('/sites/s1/');
    expect(all('body > header.site-header, footer.site-footer, a.skip-link', tree)).toHaveLength(3);
    expect(all('style', tree).map(textContent).join('')).toContain('--primary:#ff0000');
    // Without navigation given, no page titles leak and there is no search form.
    expect(all('.sidebar, .nav-tree, form', tree)).toHaveLength(0);
  });

  it('can show the navigation for a 404 of a readable site', () => {
    const { nav, searchAction } = pageView();
    const tree = parsePage(renderMessagePage({ lang: 'de', site: site(), nav, searchAction }, 404, ''));
    expect(textContent(one('main h1', tree))).toBe('Seite nicht gefunden');
    expect(all('.nav-tree a', tree).length).toBeGreaterThan(0);
    expect(all('form[role=search]', tree)).toHaveLength(1);
  });
});

// ---- in a browser: the page script (skipped where no Chromium is installed) ----

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));

describe.skipIf(!CHROMIUM && !process.env.CI)('in Chromium', () => {
  const tabbed = () => {
    const body = renderDocument(doc(block('tabs', {}, [tabsItem('Alpha', p(text('alpha body'))), tabsItem('Beta', p(text('beta body')))])), context);
    return renderPage(pageView({ page: { title: 'Tabs', bodyHtml: body } }));
  };

  it('tabs are stacked panels without script and working tabs with it; the theme toggle switches and the system theme applies', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const plain = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      await plain.setContent(tabbed());
      expect(await plain.isVisible('[role=tablist]')).toBe(false);
      expect(await plain.isVisible('text=alpha body')).toBe(true);
      expect(await plain.isVisible('text=beta body')).toBe(true);
      expect(await plain.isVisible('.tabpanel-title >> nth=1')).toBe(true);
      expect(await plain.isVisible('.theme-toggle')).toBe(false);

      const page = await (await browser.newContext({ colorScheme: 'light' })).newPage();
      await page.setContent(tabbed());
      expect(await page.isVisible('[role=tablist]')).toBe(true);
      expect(await page.isVisible('.tabpanel-title')).toBe(false);
      expect([await page.isVisible('text=alpha body'), await page.isVisible('text=beta body')]).toEqual([true, false]);
      await page.click('[role=tab] >> text=Beta');
      expect([await page.isVisible('text=alpha body'), await page.isVisible('text=beta body')]).toEqual([false, true]);
      expect(await page.getAttribute('[role=tab] >> text=Beta', 'aria-selected')).toBe('true');
      await page.keyboard.press('ArrowRight');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Alpha');
      expect(await page.isVisible('text=alpha body')).toBe(true);
      await page.keyboard.press('End');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Beta');

      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(await background()).toBe('rgb(255, 255, 255)');
      await page.click('.theme-toggle');
      expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
      expect(await page.getAttribute('.theme-toggle', 'aria-pressed')).toBe('true');
      expect(await background()).toBe('rgb(15, 17, 23)');
      // The site's primary colour for the dark theme.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim())).toBe('#00ff00');

      const dark = await (await browser.newContext({ colorScheme: 'dark' })).newPage();
      await dark.setContent(tabbed());
      expect(await dark.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 17, 23)');
      expect(await dark.isVisible('.site-brand img.only-dark')).toBe(true);
      expect(await dark.isVisible('.site-brand img.only-light')).toBe(false);
    } finally {
      await browser.close();
    }
  });
});
