/**
 * Fidelity of the markdown converter (src/lib/markdown): `npx tsx scripts/markdown-fidelity.ts`.
 *
 * 1. Every example of the CommonMark spec: markdown → document → markdown → document, preserved
 *    when both documents (and title, description, front matter) are equal ignoring keys. Also, when
 *    micromark can be loaded, whether the markdown written renders to the spec's HTML (whitespace
 *    between tags ignored): a stricter measure, since the model does not keep everything markdown can say.
 * 2. The same over the dialect pages in test/fixtures/markdown-dialect/*.md, plus whether writing is
 *    stable (markdown → document → markdown → document → markdown gives the same markdown twice).
 *
 * Options: `--verbose` lists every CommonMark example that is not preserved.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentToMarkdown, markdownToDocument, sameContent, type PageMarkdown } from '../src/lib/markdown/index.js';

type Example = { markdown: string; html: string; section: string; number: number };

const require = createRequire(import.meta.url);
// The spec shows tabs as `→`; its own runner turns them back into tabs.
const examples: Example[] = (require('commonmark-spec').tests as Example[]).map((e) => ({ ...e, markdown: e.markdown.replace(/→/g, '\t'), html: e.html.replace(/→/g, '\t') }));
const verbose = process.argv.includes('--verbose');

// micromark is remark-parse's own parser (a dependency of it, not of quire): optional here.
let toHtml: ((markdown: string) => string) | null = null;
try {
  const { micromark } = (await import('micromark')) as { micromark: (md: string, options: object) => string };
  toHtml = (markdown) => micromark(markdown, { allowDangerousHtml: true, allowDangerousProtocol: true });
} catch {
  toHtml = null;
}

const normalizeHtml = (html: string) => html.replace(/\s+/g, ' ').replace(/>\s+/g, '>').replace(/\s+</g, '<').trim();

const write = (page: PageMarkdown) => documentToMarkdown(page.document, { title: page.title, description: page.description, frontMatter: page.frontMatter });
const samePage = (a: PageMarkdown, b: PageMarkdown) =>
  a.title === b.title && a.description === b.description && sameContent(a.frontMatter, b.frontMatter) && sameContent(a.document, b.document);

function roundTrip(markdown: string) {
  const first = markdownToDocument(markdown);
  const written = write(first);
  const second = markdownToDocument(written);
  const rewritten = write(second);
  return { written, preserved: samePage(first, second), stable: rewritten === written };
}

const pct = (n: number, total: number) => `${total ? ((100 * n) / total).toFixed(1) : '100.0'}%`;
const started = Date.now();

// ---- 1. CommonMark ----
type Tally = { total: number; preserved: number; html: number };
const sections = new Map<string, Tally>();
const lost: Example[] = [];
let htmlChecked = 0;
for (const example of examples) {
  const tally = sections.get(example.section) ?? { total: 0, preserved: 0, html: 0 };
  sections.set(example.section, tally);
  tally.total++;
  const { written, preserved } = roundTrip(example.markdown);
  if (preserved) tally.preserved++;
  else lost.push(example);
  if (toHtml) {
    htmlChecked++;
    if (normalizeHtml(toHtml(written)) === normalizeHtml(example.html)) tally.html++;
  }
}

const totals = [...sections.values()].reduce((a, t) => ({ total: a.total + t.total, preserved: a.preserved + t.preserved, html: a.html + t.html }), { total: 0, preserved: 0, html: 0 });
console.log('CommonMark spec examples (markdown → document → markdown → document; HTML: the markdown written renders as the spec says)\n');
const width = Math.max(...[...sections.keys()].map((s) => s.length));
console.log(`${'section'.padEnd(width)}  preserved        ${toHtml ? 'same HTML' : ''}`);
for (const [name, t] of sections) {
  const html = toHtml ? `${String(t.html).padStart(3)}/${String(t.total).padEnd(3)} ${pct(t.html, t.total).padStart(6)}` : '';
  console.log(`${name.padEnd(width)}  ${String(t.preserved).padStart(3)}/${String(t.total).padEnd(3)} ${pct(t.preserved, t.total).padStart(6)}   ${html}`);
}
console.log(`${'TOTAL'.padEnd(width)}  ${String(totals.preserved).padStart(3)}/${String(totals.total).padEnd(3)} ${pct(totals.preserved, totals.total).padStart(6)}   ${toHtml ? `${String(totals.html).padStart(3)}/${String(totals.total).padEnd(3)} ${pct(totals.html, totals.total).padStart(6)}` : '(micromark not found: no HTML figure)'}`);

const losing = [...sections].filter(([, t]) => t.preserved < t.total).sort((a, b) => b[1].total - b[1].preserved - (a[1].total - a[1].preserved));
console.log('\nSections losing the most, document round trip:');
if (!losing.length) console.log('  none');
for (const [name, t] of losing.slice(0, 8)) {
  const numbers = lost.filter((e) => e.section === name).map((e) => e.number);
  console.log(`  ${name}: ${t.total - t.preserved} (examples ${numbers.join(', ')})`);
}
if (toHtml) {
  console.log('Sections losing the most, same HTML (what the model cannot hold: raw HTML, link and image titles, h1/h5/h6, loose lists…):');
  const byHtml = [...sections].filter(([, t]) => t.html < t.total).sort((a, b) => b[1].total - b[1].html - (a[1].total - a[1].html));
  for (const [name, t] of byHtml.slice(0, 8)) console.log(`  ${name}: ${t.total - t.html} of ${t.total}`);
}
if (verbose) {
  for (const e of lost) {
    const { written } = roundTrip(e.markdown);
    console.log(`\n--- #${e.number} (${e.section})\n${JSON.stringify(e.markdown)}\n→ ${JSON.stringify(written)}`);
  }
}

// ---- 2. Dialect pages ----
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures/markdown-dialect');
const files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
let preserved = 0;
let stable = 0;
console.log(`\nDialect pages (${path.relative(process.cwd(), dir)})\n`);
for (const file of files) {
  const result = roundTrip(readFileSync(path.join(dir, file), 'utf8'));
  preserved += result.preserved ? 1 : 0;
  stable += result.stable ? 1 : 0;
  console.log(`  ${file.padEnd(32)} ${result.preserved ? 'preserved' : 'CHANGED  '}  ${result.stable ? 'stable' : 'UNSTABLE'}`);
}
console.log(`  ${'TOTAL'.padEnd(32)} preserved ${preserved}/${files.length} (${pct(preserved, files.length)}), stable ${stable}/${files.length}`);

const overall = totals.preserved + preserved;
console.log(`\nOverall: ${overall}/${totals.total + files.length} preserved (${pct(overall, totals.total + files.length)}); CommonMark ${pct(totals.preserved, totals.total)}, dialect ${pct(preserved, files.length)}${toHtml ? `; CommonMark same HTML ${pct(totals.html, htmlChecked)}` : ''}. ${((Date.now() - started) / 1000).toFixed(1)} s`);
