/**
 * Highlighting and maths of the published renderer, as units: highlight.js output cut into
 * lines (spans reopened across line ends), which blocks are highlighted and which are not, and
 * KaTeX's handling of broken or hostile formulas.
 */
import { describe, expect, it } from 'vitest';
import { renderDocument } from '../src/published/render/index.js';
import { highlightLines, languageOf, splitLines } from '../src/published/render/document/highlight.js';
import { mathHtml } from '../src/published/render/document/math.js';
import { block, codeBlock, doc, link, text, url } from './helpers/document-builders.js';

const context = { pageUrl: () => undefined, fileUrl: () => undefined };

describe('code highlighting', () => {
  it('cuts highlighted HTML into lines, closing and reopening the spans open across a line end', () => {
    expect(splitLines('<span class="a">x\n<span class="b">y\nz</span></span>w')).toEqual([
      '<span class="a">x</span>',
      '<span class="a"><span class="b">y</span></span>',
      '<span class="a"><span class="b">z</span></span>w',
    ]);
    expect(splitLines('one\n\ntwo')).toEqual(['one', '', 'two']);
  });

  it('highlights a language known by name or alias, line by line; leaves unknown languages and huge code alone', () => {
    expect(languageOf('TypeScript')?.name).toBe('TypeScript');
    expect(languageOf('sh')?.name).toBe('Bash');
    expect(languageOf('klingon')).toBeUndefined();
    const lines = highlightLines('/* a\nb */ let x = 1', 'ts')!;
    expect(lines).toEqual(['<span class="hljs-comment">/* a</span>', '<span class="hljs-comment">b */</span> <span class="hljs-keyword">let</span> x = <span class="hljs-number">1</span>']);
    expect(highlightLines('x', 'klingon')).toBeUndefined();
    expect(highlightLines('x'.repeat(100_001), 'js')).toBeUndefined();
  });

  it('escapes the code it highlights, and keeps the inlines of a code line that holds more than text (not highlighted)', () => {
    const html = renderDocument(doc(codeBlock({ syntax: 'html' }, '<script>alert(1)</script>')), context);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;');
    const linked = block('code', { syntax: 'js' }, [block('code-line', {}, [text('see '), link(url('https://example.com/'), text('docs'))])]);
    const out = renderDocument(doc(linked), context);
    expect(out).toContain('<a href="https://example.com/">docs</a>');
    expect(out).not.toContain('hljs');
    expect(out).toContain('<span class="code-language">JavaScript</span>');
  });
});

describe('maths', () => {
  it('renders KaTeX with MathML; a broken formula shows its source, a hostile one runs nothing', () => {
    expect(mathHtml('x^2', false)).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML">');
    const broken = mathHtml('\\frac{1', true);
    expect(broken).toContain('katex-error');
    expect(broken).toContain('\\frac{1');
    const hostile = mathHtml('\\href{javascript:alert(1)}{x} <img src=x onerror=alert(2)>', false);
    expect(hostile).not.toMatch(/href="javascript:/);
    expect(hostile).not.toContain('<img');
    expect(mathHtml('', true)).toBe('<span class="math"></span>');
  });
});
