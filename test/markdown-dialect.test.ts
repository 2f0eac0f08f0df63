/**
 * The platform's markdown dialect (src/lib/markdown): `{% %}` tags, `<details>`, `<figure>`,
 * `<mark>` colours, front matter and titles, in both directions with exact output; tags nested
 * in tags and in list items; malformed tags; and the round trip of every page under
 * test/fixtures/markdown-dialect. No database needed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BlockNode } from '../src/lib/documents/types.js';
import { documentToMarkdown, markdownToDocument, sameContent, withoutKeys } from '../src/lib/markdown/index.js';
import { block, codeBlock, doc, fragment, leaves, link, mark, p, text, url, voidBlock, type Inline } from './helpers/document-builders.js';

// ---- expected documents (keys left out) ----
const bold = mark('bold');
const color = (text: string, background: string) => mark('color', { text, background });
const hint = (style: string, ...nodes: BlockNode[]) => block('hint', { style }, nodes);
const tabs = (...items: [string, ...BlockNode[]][]) => block('tabs', {}, items.map(([title, ...nodes]) => block('tabs-item', { title }, nodes)));
const image = (data: Record<string, unknown>, caption?: BlockNode[]) => voidBlock('image', data, caption ? [fragment('caption', caption)] : []);
const expandable = (data: Record<string, unknown>, title: Inline[], body: BlockNode[]) =>
  voidBlock('expandable', data, [fragment('expandable-title', [p(...title)], 'expandable-title'), fragment('expandable-body', body, 'expandable-body')]);
const item = (...nodes: BlockNode[]) => block('list-item', {}, nodes);

const read = (markdown: string) => withoutKeys(markdownToDocument(markdown).document.nodes);

type Case = { name: string; markdown: string; blocks: BlockNode[]; written?: string };

const cases: Case[] = [
  ...['info', 'warning', 'danger', 'success'].map((style) => ({
    name: `hint ${style}`,
    markdown: `{% hint style="${style}" %}\nNote **this**.\n{% endhint %}`,
    blocks: [hint(style, p(leaves(['Note '], ['this', bold], ['.'])))],
  })),
  { name: 'hint with several blocks', markdown: '{% hint style="warning" %}\nOne\n\n* two\n{% endhint %}', blocks: [hint('warning', p(text('One')), block('list-unordered', {}, [item(p(text('two')))]))] },
  { name: 'hint with an unknown style', markdown: '{% hint style="purple" %}\nx\n{% endhint %}', blocks: [hint('info', p(text('x')))], written: '{% hint style="info" %}\nx\n{% endhint %}' },
  { name: 'empty hint', markdown: '{% hint style="info" %}\n{% endhint %}', blocks: [hint('info', p(text('')))] },
  {
    name: 'tabs',
    markdown: '{% tabs %}\n{% tab title="A" %}\nText A\n{% endtab %}\n\n{% tab title="B" %}\n```js\nb()\n```\n{% endtab %}\n{% endtabs %}',
    blocks: [tabs(['A', p(text('Text A'))], ['B', codeBlock({ syntax: 'js' }, 'b()')])],
  },
  {
    name: 'code with title and line numbers',
    markdown: '{% code title="app.js" lineNumbers="true" %}\n```js\nrun()\n```\n{% endcode %}',
    blocks: [codeBlock({ syntax: 'js', title: 'app.js', lineNumbers: true }, 'run()')],
  },
  {
    name: 'code with every attribute',
    markdown: '{% code title="a &quot;b&quot;" overflow="wrap" lineNumbers="false" fullWidth="true" expandable="true" collapsedLineCount="5" %}\n```\nx\n```\n{% endcode %}',
    blocks: [codeBlock({ title: 'a "b"', overflow: 'wrap', lineNumbers: false, fullWidth: true, expandable: true, collapsedLineCount: 5 }, 'x')],
  },
  { name: 'embed', markdown: '{% embed url="https://www.youtube.com/watch?v=x" %}', blocks: [voidBlock('embed', { url: 'https://www.youtube.com/watch?v=x' })] },
  { name: 'file', markdown: '{% file src=".gitbook/assets/a.pdf" %}\n{% endfile %}', blocks: [voidBlock('file', { ref: url('.gitbook/assets/a.pdf') })] },
  {
    name: 'file with a caption (not kept)',
    markdown: '{% file src="a.pdf" %}\nThe caption\n{% endfile %}',
    blocks: [voidBlock('file', { ref: url('a.pdf') })],
    written: '{% file src="a.pdf" %}\n{% endfile %}',
  },
  {
    name: 'content-ref',
    markdown: '{% content-ref url="guides/setup.md" %}\n[guides/setup.md](guides/setup.md)\n{% endcontent-ref %}',
    blocks: [voidBlock('content-ref', { ref: url('guides/setup.md') })],
  },
  {
    name: 'content-ref on one line',
    markdown: '{% content-ref url="x.md" %}[Title](x.md){% endcontent-ref %}',
    blocks: [voidBlock('content-ref', { ref: url('x.md') })],
    written: '{% content-ref url="x.md" %}\n[x.md](x.md)\n{% endcontent-ref %}',
  },
  { name: 'include', markdown: '{% include "../.gitbook/includes/note.md" %}', blocks: [voidBlock('reusable-content', { ref: url('../.gitbook/includes/note.md') })] },
  {
    name: 'expandable',
    markdown: '<details>\n\n<summary>More</summary>\n\nHidden **text**.\n\n</details>',
    blocks: [expandable({}, [text('More')], [p(leaves(['Hidden '], ['text', bold], ['.']))])],
  },
  {
    name: 'expandable open, with HTML in the summary',
    markdown: '<details open>\n\n<summary>Plans with <strong>SSO</strong></summary>\n\nBusiness\n\n</details>',
    blocks: [expandable({ defaultExpanded: true }, [leaves(['Plans with '], ['SSO', bold])], [p(text('Business'))])],
  },
  {
    name: 'expandable on one line',
    markdown: '<details><summary>Q?</summary>A.</details>',
    blocks: [expandable({}, [text('Q?')], [p(text('A.'))])],
    written: '<details>\n\n<summary>Q?</summary>\n\nA.\n\n</details>',
  },
  {
    name: 'figure with a caption',
    markdown: '<figure><img src=".gitbook/assets/a.png" alt="A chart"><figcaption><p>Sales <strong>up</strong> &amp; <a href="https://x.dev">more</a></p></figcaption></figure>',
    blocks: [block('images', {}, [image({ ref: url('.gitbook/assets/a.png'), alt: 'A chart' }, [p(leaves(['Sales '], ['up', bold], [' & ']), link(url('https://x.dev'), text('more')))])])],
  },
  {
    name: 'figure without caption, with a width',
    markdown: '<figure><img src="a.png" alt="" width="375"><figcaption></figcaption></figure>',
    blocks: [block('images', {}, [image({ ref: url('a.png'), width: 375 })])],
  },
  {
    name: 'figure without caption nor size',
    markdown: '<figure><img src="a.png" alt="Logo"><figcaption></figcaption></figure>',
    blocks: [block('images', {}, [image({ ref: url('a.png'), alt: 'Logo' })])],
    written: '![Logo](a.png)',
  },
  {
    name: 'two figures',
    markdown: '<figure><img src="a.png" alt=""><figcaption><p>A</p></figcaption></figure>\n<figure><img src="b.png" alt=""><figcaption><p>B</p></figcaption></figure>',
    blocks: [block('images', {}, [image({ ref: url('a.png') }, [p(text('A'))]), image({ ref: url('b.png') }, [p(text('B'))])])],
  },
  {
    name: 'inline image with a size',
    markdown: 'Click <img src="icon.png" alt="gear" data-size="line"> to open.',
    blocks: [p(text('Click '), { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: url('icon.png'), alt: 'gear', size: 'line' } }, text(' to open.'))],
  },
  { name: 'math', markdown: '$$\n\\frac{a}{b}\n$$', blocks: [voidBlock('math', { formula: '\\frac{a}{b}' })] },
  { name: 'text colour', markdown: '<mark style="color:red;">alert</mark>', blocks: [p(text('alert', color('red', 'default')))] },
  { name: 'background colour', markdown: '<mark style="background-color:yellow;">lit</mark>', blocks: [p(text('lit', color('default', 'yellow')))] },
  {
    name: 'both colours, semantic tokens, around bold',
    markdown: 'a <mark style="color:$primary;background-color:$info;">b **c**</mark>',
    blocks: [p(leaves(['a '], ['b ', color('$primary', '$info')], ['c', bold, color('$primary', '$info')]))],
  },
  { name: 'bare mark is a highlight', markdown: '<mark>hi</mark>', blocks: [p(text('hi', color('default', 'yellow')))], written: '<mark style="background-color:yellow;">hi</mark>' },
  { name: 'heading with an anchor', markdown: '## Install <a href="#setup" id="setup"></a>', blocks: [block('heading-1', { id: 'setup' }, [text('Install')])] },
  {
    name: 'stepper',
    markdown: '{% stepper %}\n{% step %}\nOne\n{% endstep %}\n\n{% step %}\nTwo\n{% endstep %}\n{% endstepper %}',
    blocks: [block('stepper', {}, [block('stepper-step', {}, [p(text('One'))]), block('stepper-step', {}, [p(text('Two'))])])],
  },
  {
    name: 'columns',
    markdown: '{% columns %}\n{% column %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}',
    blocks: [block('columns', {}, [block('column', {}, [p(text('Left'))]), block('column', {}, [p(text('Right'))])])],
  },
  {
    name: 'hint and code inside a tab',
    markdown: '{% tabs %}\n{% tab title="Py" %}\n{% hint style="info" %}\nPython 3\n{% endhint %}\n\n{% code title="a.py" %}\n```python\nprint(1)\n```\n{% endcode %}\n{% endtab %}\n{% endtabs %}',
    blocks: [tabs(['Py', hint('info', p(text('Python 3'))), codeBlock({ syntax: 'python', title: 'a.py' }, 'print(1)')])],
  },
  {
    name: 'hint and code inside an expandable',
    markdown: '<details>\n\n<summary>S</summary>\n\n{% hint style="danger" %}\nCareful\n{% endhint %}\n\n```sh\nrm x\n```\n\n</details>',
    blocks: [expandable({}, [text('S')], [hint('danger', p(text('Careful'))), codeBlock({ syntax: 'sh' }, 'rm x')])],
  },
  {
    name: 'tags inside list items',
    markdown: '1. Build:\n\n   {% code title="sh" %}\n   ```bash\n   make\n   ```\n   {% endcode %}\n\n2. Done.',
    blocks: [block('list-ordered', {}, [item(p(text('Build:')), codeBlock({ syntax: 'bash', title: 'sh' }, 'make')), item(p(text('Done.')))])],
  },
  {
    name: 'a tag first in a list item',
    markdown: '* {% hint style="info" %}\n  In a list\n  {% endhint %}\n* next',
    blocks: [block('list-unordered', {}, [item(hint('info', p(text('In a list')))), item(p(text('next')))])],
  },
  {
    name: 'tag right after a paragraph line',
    markdown: 'Intro\n{% hint style="info" %}\nBody\n{% endhint %}\nOutro',
    blocks: [p(text('Intro')), hint('info', p(text('Body'))), p(text('Outro'))],
    written: 'Intro\n\n{% hint style="info" %}\nBody\n{% endhint %}\n\nOutro',
  },
];

describe('markdown ↔ document: the dialect', () => {
  it.each(cases)('reads $name', ({ markdown, blocks }) => {
    expect(read(markdown)).toEqual(blocks);
  });

  it.each(cases)('writes $name', ({ markdown, blocks, written }) => {
    expect(documentToMarkdown(doc(...blocks))).toBe(`${written ?? markdown}\n`);
  });

  it('reads front matter, description and title, and writes them back', () => {
    const markdown = '---\ndescription: What this page is about.\nicon: book\nhidden: true\nlayout:\n  title:\n    visible: false\n---\n\n# Configure\n\nBody\n';
    const page = markdownToDocument(markdown);
    expect(page.title).toBe('Configure');
    expect(page.description).toBe('What this page is about.');
    expect(page.frontMatter).toEqual({ icon: 'book', hidden: true, layout: { title: { visible: false } } });
    expect(withoutKeys(page.document)).toEqual(doc(p(text('Body'))));
    expect(documentToMarkdown(page.document, page)).toBe(markdown);
  });

  it('writes description and front matter given apart, description first', () => {
    expect(documentToMarkdown(doc(p(text('x'))), { description: 'D', frontMatter: { icon: 'gear', description: 'ignored' } })).toBe('---\ndescription: D\nicon: gear\n---\n\nx\n');
  });

  it('reads YAML that is not a mapping as content, not front matter', () => {
    expect(markdownToDocument('---\nFoo\n---\nBar').frontMatter).toEqual({});
    expect(read('---\nFoo\n---\nBar')).toEqual([voidBlock('divider', {}), block('heading-1', {}, [text('Foo')]), p(text('Bar'))]);
    expect(read('---\n: [broken\n---\n\nText').at(-1)).toEqual(p(text('Text')));
  });
});

describe('markdown → document: malformed tags', () => {
  it('closes tags left open at the end', () => {
    expect(read('{% hint style="info" %}\nno end')).toEqual([hint('info', p(text('no end')))]);
  });

  it('closes a tab at the next tab', () => {
    expect(read('{% tabs %}\n{% tab title="A" %}\na\n{% tab title="B" %}\nb\n{% endtabs %}')).toEqual([tabs(['A', p(text('a'))], ['B', p(text('b'))])]);
  });

  it('wraps a tab outside tabs in tabs', () => {
    expect(read('{% tab title="A" %}\na\n{% endtab %}')).toEqual([tabs(['A', p(text('a'))])]);
  });

  it('keeps closing tags that close nothing, unknown tags and tags inside text as text', () => {
    expect(read('text\n{% endhint %}\n\n{% swagger src="x" %}\n\nsee {% hint style="info" %} here')).toEqual([
      p(text('text {% endhint %}')),
      p(text('{% swagger src="x" %}')),
      p(text('see {% hint style="info" %} here')),
    ]);
  });

  it('reads tags in fenced code (also in a list item) as code', () => {
    expect(read('```\n{% hint style="info" %}\n```\n\n* ```\n  {% endhint %}\n  ```')).toEqual([
      codeBlock({}, '{% hint style="info" %}'),
      block('list-unordered', {}, [item(codeBlock({}, '{% endhint %}'))]),
    ]);
  });

  it('reads an escaped tag as text, and escapes tag-like text when writing', () => {
    expect(read('\\{% hint style="info" %}')).toEqual([p(text('{% hint style="info" %}'))]);
    expect(documentToMarkdown(doc(p(text('{% endhint %}'))))).toBe('\\{% endhint %}\n');
  });

  it('reads a file without {% endfile %} as void; the page goes on', () => {
    expect(read('{% file src="a.pdf" %}\n\nAfter')).toEqual([voidBlock('file', { ref: url('a.pdf') }), p(text('After'))]);
  });

  it('reads an embed caption as a paragraph after it', () => {
    expect(read('{% embed url="https://x.dev" %}\nCaption\n{% endembed %}')).toEqual([voidBlock('embed', { url: 'https://x.dev' }), p(text('Caption'))]);
  });

  it('drops tags missing their required attribute', () => {
    expect(read('{% embed %}\n\n{% content-ref %}\n{% endcontent-ref %}\n\nx')).toEqual([p(text('x'))]);
  });

  it('reads an unclosed <details> up to the end', () => {
    expect(read('<details>\n\n<summary>T</summary>\n\nBody')).toEqual([expandable({}, [text('T')], [p(text('Body'))])]);
  });
});

// ---- the fixture pages ----
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/markdown-dialect');
const pages = readdirSync(fixtures).filter((f) => f.endsWith('.md')).sort();

describe('markdown ↔ document: dialect pages round trip', () => {
  it('has at least 15 pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(15);
  });

  it.each(pages)('%s: markdown → document → markdown → document is the same document', (file) => {
    const first = markdownToDocument(readFileSync(path.join(fixtures, file), 'utf8'));
    const written = documentToMarkdown(first.document, first);
    const second = markdownToDocument(written);
    expect(withoutKeys(second.document)).toEqual(withoutKeys(first.document));
    expect([second.title, second.description, second.frontMatter]).toEqual([first.title, first.description, first.frontMatter]);
  });

  it.each(pages)('%s: writing is stable after one pass', (file) => {
    const first = markdownToDocument(readFileSync(path.join(fixtures, file), 'utf8'));
    const once = documentToMarkdown(first.document, first);
    const again = markdownToDocument(once);
    expect(documentToMarkdown(again.document, again)).toBe(once);
  });

  it.each(pages)('%s: re-importing the same page keeps every key', (file) => {
    const markdown = readFileSync(path.join(fixtures, file), 'utf8');
    const before = markdownToDocument(markdown).document;
    const after = markdownToDocument(markdown, { previous: before }).document;
    expect(after).toEqual(before);
  });

  it('reads the quickstart page into the expected outline', () => {
    const page = markdownToDocument(readFileSync(path.join(fixtures, '17-quickstart.md'), 'utf8'));
    expect(page.title).toBe('Quickstart');
    expect(page.description).toBe('Get up and running in five minutes.');
    expect(page.document.nodes.map((n) => n.type)).toEqual([
      'paragraph',
      'hint',
      'heading-1',
      'list-ordered',
      'images',
      'heading-1',
      'tabs',
      'heading-2',
      'table',
      'expandable',
      'heading-1',
      'content-ref',
    ]);
    expect(sameContent(page.document, markdownToDocument(documentToMarkdown(page.document, page)).document)).toBe(true);
  });
});
