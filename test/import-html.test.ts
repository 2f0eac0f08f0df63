/**
 * HTML imports: htmlToMarkdown (exact markdown, then the document markdownToDocument reads from
 * it), main-content extraction, links for the crawler, hostile input; and the `html` source over
 * a local HTTP server with the charset cases. No database needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../src/lib/import-readers/html/to-markdown.js';
import { ImportError } from '../src/lib/import-readers/import-error.js';
import { htmlSource } from '../src/lib/import-readers/sources/html.js';
import { markdownToDocument, type PageMarkdown } from '../src/lib/markdown/index.js';
import { localServer, plainContext } from './helpers/plain-fetch.js';

type Node = {
  object: string;
  type?: string;
  data?: Record<string, any>;
  nodes?: Node[];
  fragments?: Node[];
  leaves?: { text: string; marks: { type: string }[] }[];
};

const blocks = (page: PageMarkdown) => page.document.nodes as unknown as Node[];
const types = (page: PageMarkdown) => blocks(page).map((n) => n.type);
const descendants = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...descendants(n.nodes ?? []), ...descendants(n.fragments ?? [])]);
const find = (page: PageMarkdown, type: string) => descendants(blocks(page)).filter((n) => n.type === type);
const textOf = (node: Node): string => (node.leaves ? node.leaves.map((l) => l.text).join('') : (node.nodes ?? []).map(textOf).join(''));
const marksOf = (page: PageMarkdown) => Object.fromEntries(descendants(blocks(page)).flatMap((n) => n.leaves ?? []).map((l) => [l.text, l.marks.map((m) => m.type)]));

type Case = { name: string; html: string; markdown: string; check: (page: PageMarkdown) => void };

const cases: Case[] = [
  {
    name: 'headings: the first h1 is the title, h2–h4 the heading blocks',
    html: '<h1>Getting   started</h1><h2>Install</h2><h3>On Linux</h3><h4>Debian</h4><h1>Another top</h1>',
    markdown: '# Getting started\n\n## Install\n\n### On Linux\n\n#### Debian\n\n# Another top\n',
    check: (page) => {
      expect(page.title).toBe('Getting started');
      expect(types(page)).toEqual(['heading-1', 'heading-2', 'heading-3', 'heading-1']);
      expect(blocks(page).map(textOf)).toEqual(['Install', 'On Linux', 'Debian', 'Another top']);
    },
  },
  {
    name: 'heading permalinks are not text',
    html: '<h1>Setup<a class="headerlink" href="#setup">¶</a></h1><h2 id="x"><a class="anchor" href="#x"><svg><path d=""/></svg></a>Options</h2>',
    markdown: '# Setup\n\n## Options\n',
    check: (page) => {
      expect(page.title).toBe('Setup');
      expect(find(page, 'link')).toEqual([]);
    },
  },
  {
    name: 'paragraphs with emphasis, inline code and strikethrough',
    html: '<p>Some <strong>bold</strong>, <em>italic</em>, <code>x()</code> and <del>old</del>.</p><p>Second</p>',
    markdown: 'Some **bold**, _italic_, `x()` and ~~old~~.\n\nSecond\n',
    check: (page) => {
      expect(types(page)).toEqual(['paragraph', 'paragraph']);
      expect(marksOf(page)).toMatchObject({ bold: ['bold'], italic: ['italic'], 'x()': ['code'], old: ['strikethrough'] });
    },
  },
  {
    name: 'code block with language-x on the code',
    html: '<pre><code class="hljs language-ts">const a = 1;\nconst b = 2;\n</code></pre>',
    markdown: '```ts\nconst a = 1;\nconst b = 2;\n```\n',
    check: (page) => {
      const [code] = find(page, 'code');
      expect(code.data).toEqual({ syntax: 'ts' });
      expect(code.nodes!.map(textOf)).toEqual(['const a = 1;', 'const b = 2;']);
    },
  },
  {
    name: 'code block with lang-x on the pre',
    html: '<pre class="prettyprint lang-python"><code>print("{% x %}")</code></pre>',
    markdown: '```python\nprint("{% x %}")\n```\n',
    check: (page) => expect(find(page, 'code').map((c) => [c.data?.syntax, textOf(c)])).toEqual([['python', 'print("{% x %}")']]),
  },
  {
    name: 'code block with highlight-source-x on a wrapper',
    html: '<div class="highlight highlight-source-shell notranslate"><pre>npm install quire</pre></div>',
    markdown: '```shell\nnpm install quire\n```\n',
    check: (page) => expect(find(page, 'code')[0].data).toEqual({ syntax: 'shell' }),
  },
  {
    name: 'code block without a language',
    html: '<pre>plain\n  indented</pre>',
    markdown: '```\nplain\n  indented\n```\n',
    check: (page) => {
      const [code] = find(page, 'code');
      expect(code.data?.syntax).toBeUndefined();
      expect(code.nodes!.map(textOf)).toEqual(['plain', '  indented']);
    },
  },
  {
    name: 'unordered (nested) and ordered lists',
    html: '<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul><ol start="3"><li>x</li><li>y</li></ol>',
    markdown: '* a\n* b\n  * c\n\n3. x\n4. y\n',
    check: (page) => {
      expect(types(page)).toEqual(['list-unordered', 'list-ordered']);
      expect(blocks(page)[1].data).toEqual({ start: 3 });
      expect(find(page, 'list-unordered')).toHaveLength(2);
    },
  },
  {
    name: 'task list',
    html: '<ul><li><input type="checkbox" checked disabled> done</li><li><input type="checkbox"> todo</li></ul>',
    markdown: '* [x] done\n* [ ] todo\n',
    check: (page) => {
      expect(types(page)).toEqual(['list-tasks']);
      expect(blocks(page)[0].nodes!.map((item) => [item.data?.checked, textOf(item)])).toEqual([
        [true, 'done'],
        [false, 'todo'],
      ]);
    },
  },
  {
    name: 'blockquote and horizontal rule',
    html: '<blockquote><p>Quoted <em>words</em></p></blockquote><hr><p>after</p>',
    markdown: '> Quoted _words_\n\n***\n\nafter\n',
    check: (page) => expect(types(page)).toEqual(['blockquote', 'divider', 'paragraph']),
  },
  {
    name: 'table with a header',
    html: '<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>a</td><td><b>1</b></td></tr><tr><td>b</td><td>2</td></tr></tbody></table>',
    markdown: '| Name | Value |\n| ---- | ----- |\n| a    | **1** |\n| b    | 2     |\n',
    check: (page) => {
      const [table] = find(page, 'table');
      expect(Object.values(table.data!.definition).map((c: any) => c.title)).toEqual(['Name', 'Value']);
      expect(Object.keys(table.data!.records)).toHaveLength(2);
      expect(table.fragments!.map(textOf)).toEqual(['a', '1', 'b', '2']);
    },
  },
  {
    name: 'table without header cells: the first row is the header',
    html: '<table><tr><td>Key</td><td>Meaning</td></tr><tr><td>k</td><td>m</td></tr></table>',
    markdown: '| Key | Meaning |\n| --- | ------- |\n| k   | m       |\n',
    check: (page) => expect(Object.values(find(page, 'table')[0].data!.definition).map((c: any) => c.title)).toEqual(['Key', 'Meaning']),
  },
  {
    name: 'image: src and alt as written',
    html: '<p><img src="../img/logo.png?v=2" alt="The logo" width="40"></p>',
    markdown: '![The logo](../img/logo.png?v=2)\n',
    check: (page) => {
      expect(types(page)).toEqual(['images']);
      expect(find(page, 'image')[0].data).toEqual({ ref: { kind: 'url', url: '../img/logo.png?v=2' }, alt: 'The logo' });
    },
  },
  {
    name: 'link: href as written, even with a <base>',
    html: '<html><head><base href="https://cdn.example/"></head><body><p>See <a href="../guide/setup.html#install">the guide</a>.</p></body></html>',
    markdown: 'See [the guide](../guide/setup.html#install).\n',
    check: (page) => expect(find(page, 'link').map((l) => [l.data?.ref, textOf(l)])).toEqual([[{ kind: 'url', url: '../guide/setup.html#install' }, 'the guide']]),
  },
  {
    name: 'script links are unwrapped, empty links dropped',
    html: '<p><a href="javascript:alert(1)">click</a> <a href="x.html"></a>end</p>',
    markdown: 'click end\n',
    check: (page) => expect(find(page, 'link')).toEqual([]),
  },
  {
    name: 'dialect tags in the text stay text',
    html: '<p>{% hint style="danger" %}</p><p>Danger</p><p>{% endhint %}</p><p>{% embed url="https://x" %}</p>',
    markdown: '\\{% hint style="danger" %}\n\nDanger\n\n\\{% endhint %}\n\n\\{% embed url="https\\://x" %}\n',
    check: (page) => {
      expect(types(page)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph']);
      expect(blocks(page).map(textOf)).toEqual(['{% hint style="danger" %}', 'Danger', '{% endhint %}', '{% embed url="https://x" %}']);
    },
  },
  {
    name: 'markdown and HTML syntax in the text stays text',
    html: '<p>* not a list, # not a heading, &lt;b&gt;not bold&lt;/b&gt;, $$x$$</p>',
    markdown: '\\* not a list, # not a heading, \\<b>not bold\\</b>, \\$$x\\$$\n',
    check: (page) => {
      expect(types(page)).toEqual(['paragraph']);
      expect(textOf(blocks(page)[0])).toBe('* not a list, # not a heading, <b>not bold</b>, $$x$$');
    },
  },
  {
    name: 'title from <title> when the content has no h1',
    html: '<html><head><title> Page \n title </title></head><body><h2>Part</h2><p>x</p></body></html>',
    markdown: '# Page title\n\n## Part\n\nx\n',
    check: (page) => {
      expect(page.title).toBe('Page title');
      expect(types(page)).toEqual(['heading-1', 'paragraph']);
    },
  },
  {
    name: 'no title at all',
    html: '<p>Only text</p>',
    markdown: 'Only text\n',
    check: (page) => expect(page.title).toBeUndefined(),
  },
];

describe('htmlToMarkdown', () => {
  it.each(cases)('$name', ({ html, markdown, check }) => {
    const out = htmlToMarkdown(html);
    expect(out.markdown).toBe(markdown);
    const page = markdownToDocument(out.markdown);
    expect(page.title).toBe(out.title);
    check(page);
  });
});

describe('main content', () => {
  const chrome = (inner: string) =>
    `<html><head><title>Site</title><style>p{}</style></head><body><header><p>Brand</p></header><nav><a href="/nav">Menu</a></nav>${inner}<aside>Ads</aside><footer><p>© Footer</p><a href="/legal">Legal</a></footer><script>track()</script></body></html>`;

  it('strips navigation, header, footer, aside, forms, scripts and hidden elements from the body', () => {
    const out = htmlToMarkdown(
      chrome('<div><h1>Doc</h1><p>Body text</p><p hidden>Hidden</p><div aria-hidden="true">Aria</div><p style="display: none">None</p><form><p>Form</p></form><noscript>Enable JS</noscript><template><p>T</p></template></div>'),
    );
    expect(out.markdown).toBe('# Doc\n\nBody text\n');
    expect(out.links).toEqual([]);
  });

  it.each([
    ['main', '<main><h1>Main</h1><p>inside</p></main>'],
    ['article', '<article><h1>Main</h1><p>inside</p></article>'],
    ['[role=main]', '<div role="main"><h1>Main</h1><p>inside</p></div>'],
  ])('prefers %s over the rest of the body', (_, inner) => {
    const out = htmlToMarkdown(chrome(`<div><p>outside</p>${inner}</div>`));
    expect(out.markdown).toBe('# Main\n\ninside\n');
    expect(out.title).toBe('Main');
  });

  it('ignores an empty <main> (filled by a script)', () => {
    expect(htmlToMarkdown(chrome('<main></main><div><p>Real content</p></div>')).markdown).toBe('# Site\n\nReal content\n');
  });

  it('takes the first h1 in reading order, wherever it is nested', () => {
    const out = htmlToMarkdown('<main><section><div><h1>Deep first</h1></div></section><h1>Second</h1></main>');
    expect(out.title).toBe('Deep first');
    expect(out.markdown).toBe('# Deep first\n\n# Second\n');
  });
});

describe('links', () => {
  const html = `<body><nav><a href="/from-nav">nav</a></nav><main>
    <a href="../setup.html">a</a> <a href="/abs">b</a> <a href="https://other.org/x?y=1#frag">c</a>
    <a href="#local">d</a> <a href="mailto:a@b.c">e</a> <a href="javascript:void(0)">f</a>
    <a href="setup.html">g</a> <a href="../setup.html#part">dup</a> <a href="http://[bad">bad</a> <a>none</a> <a href="ftp://x/y">ftp</a>
  </main></body>`;

  it('are the content’s hrefs resolved against the base URL, without fragments, once each', () => {
    expect(htmlToMarkdown(html, { baseUrl: 'https://example.com/docs/intro/page.html' }).links).toEqual([
      'https://example.com/docs/setup.html',
      'https://example.com/abs',
      'https://other.org/x?y=1',
      'https://example.com/docs/intro/setup.html',
    ]);
  });

  it('are the hrefs as written without a base URL', () => {
    expect(htmlToMarkdown(html).links).toEqual(['../setup.html', '/abs', 'https://other.org/x?y=1', 'setup.html', 'http://[bad', 'ftp://x/y']);
  });

  it('leave the markdown’s links as written', () => {
    const out = htmlToMarkdown(html, { baseUrl: 'https://example.com/docs/intro/page.html' });
    expect(out.markdown).toContain('[a](../setup.html)');
    expect(out.markdown).not.toContain('from-nav');
  });
});

describe('hostile input', () => {
  const hostile: [string, string][] = [
    ['50 000 nested divs', '<title>Deep</title><script>x()</script>' + '<div>'.repeat(50_000) + 'deep &amp; text' + '</div>'.repeat(50_000)],
    ['1 500 nested blockquotes', '<p>start</p>' + '<blockquote>'.repeat(1_500) + 'x'],
    ['100 000 unclosed <b>', '<b>'.repeat(100_000) + 'x'],
    ['200 000 sibling paragraphs', '<main>' + '<p>x</p>'.repeat(200_000) + '</main>'],
    ['a 3 MB href and a huge data: image', `<main><p><a href="${'a'.repeat(3_000_000)}">text</a><img src="data:image/png;base64,${'A'.repeat(200_000)}"></p></main>`],
    ['colspan bomb', '<table><tr>' + '<td colspan="1000000">x</td>'.repeat(50) + '</tr>' + '<tr><td>y</td></tr>'.repeat(5_000) + '</table>'],
    ['200 000 <', '<'.repeat(200_000)],
    ['unclosed scripts', '<script>'.repeat(100_000)],
    ['6 MB of text', '<p>' + 'word '.repeat(1_200_000)],
  ];

  it.each(hostile)('%s: no throw, bounded output', (_, html) => {
    const out = htmlToMarkdown(html, { baseUrl: 'https://example.com/' });
    expect(typeof out.markdown).toBe('string');
    expect(out.markdown.length).toBeLessThan(1_200_000);
    expect(() => markdownToDocument(out.markdown)).not.toThrow();
  }, 60_000);

  it('keeps the text of a page too deep to parse', () => {
    const out = htmlToMarkdown('<title>Deep &amp; dark</title>' + '<div>'.repeat(50_000) + 'deep &amp; text' + '</div>'.repeat(50_000));
    expect(out).toEqual({ title: 'Deep & dark', markdown: '# Deep & dark\n\ndeep & text\n', links: [] });
  });

  it('caps nesting and size of what it converts', () => {
    const deep = htmlToMarkdown('<blockquote>'.repeat(1_000) + 'x');
    expect(deep.markdown.split('\n').at(-2)!.length).toBeLessThan(300);
    const wide = htmlToMarkdown('<main>' + '<p>x</p>'.repeat(200_000) + '</main>');
    expect(wide.markdown.split('\n\n').length).toBeLessThanOrEqual(25_000);
    const table = htmlToMarkdown('<table><tr>' + '<td colspan="1000000">x</td>'.repeat(50) + '</tr>' + '<tr><td>y</td></tr>'.repeat(5_000) + '</table>');
    const rows = table.markdown.trim().split('\n');
    expect(rows.length * (rows[0].split('|').length - 2)).toBeLessThanOrEqual(20_000 + 200);
    const text = htmlToMarkdown('<p>' + 'word '.repeat(1_000_000));
    expect(text.markdown.length).toBeLessThanOrEqual(1_000_001);
    expect(text.markdown.length).toBeGreaterThan(900_000);
  });

  it('drops a link or image whose address is absurdly long, keeping the text', () => {
    const out = htmlToMarkdown(`<p><a href="${'a'.repeat(100_000)}">text</a><img src="data:image/png;base64,${'A'.repeat(100_000)}" alt="pic"></p>`);
    expect(out.markdown).toBe('text\n');
    expect(out.links).toEqual([]);
  });
});

describe('html source', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  const pages: Record<string, [string, Buffer]> = {
    '/utf8': ['text/html; charset=utf-8', Buffer.from('<title>Ignored</title><h1>Café — ünïcode ✓</h1><p>Body</p>')],
    '/latin1': ['text/html; charset=ISO-8859-1', latin1('<h1>Crème brûlée</h1>')],
    '/meta': ['text/html', latin1('<html><head><meta charset="windows-1252"></head><body><h1>Déjà vu</h1></body></html>')],
    '/http-equiv': [
      'text/html',
      Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><h1>'), Buffer.from([0x93, 0xfa, 0x96, 0x7b]), Buffer.from('</h1>')]),
    ],
    '/header-wins': ['text/html; charset=utf-8', Buffer.from('<meta charset="windows-1252"><h1>Naïve</h1>')],
    '/bom': ['text/html', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<h1>UTF-16 — ok</h1>', 'utf16le')])],
    '/unknown-charset': ['text/html; charset=x-nonsense', Buffer.from('<h1>Fallback ✓</h1>')],
    '/docs/getting-started.html': ['application/xhtml+xml', Buffer.from('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>No title here</p></body></html>')],
    '/file.pdf': ['application/pdf', Buffer.from('%PDF-1.4')],
  };
  let server: Awaited<ReturnType<typeof localServer>>;

  beforeAll(async () => {
    server = await localServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/utf8' }).end();
        return;
      }
      const page = pages[req.url ?? ''];
      if (!page) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': page[0] }).end(page[1]);
    });
  });
  afterAll(() => server.close());

  it.each([
    ['/utf8', 'Café — ünïcode ✓'],
    ['/latin1', 'Crème brûlée'],
    ['/meta', 'Déjà vu'],
    ['/http-equiv', '日本'],
    ['/header-wins', 'Naïve'],
    ['/bom', 'UTF-16 — ok'],
    ['/unknown-charset', 'Fallback ✓'],
  ])('%s decodes to the title %s', async (path, title) => {
    const tree = await htmlSource(server.url(path), plainContext());
    expect(tree.files).toEqual([]);
    expect(tree.totalResources).toBe(1);
    expect(tree.pages).toHaveLength(1);
    const [page] = tree.pages;
    expect(page).toMatchObject({ source: server.url(path), title, children: [] });
    expect(markdownToDocument(page.markdown).title).toBe(title);
  });

  it('takes the final URL as the source and the path as the title when the page has none', async () => {
    const moved = await htmlSource(server.url('/moved'), plainContext());
    expect(moved.pages[0].source).toBe(server.url('/utf8'));
    const untitled = await htmlSource(server.url('/docs/getting-started.html'), plainContext());
    expect(untitled.pages[0]).toEqual({ source: server.url('/docs/getting-started.html'), title: 'Getting started', markdown: 'No title here\n', children: [] });
  });

  it('asks only for HTML, and stops once cancelled', async () => {
    await expect(htmlSource(server.url('/file.pdf'), plainContext())).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT_TYPE' });
    const controller = new AbortController();
    controller.abort();
    const error = await htmlSource(server.url('/utf8'), plainContext(controller.signal)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect(error).toMatchObject({ code: 'CANCELLED' });
  });
});
