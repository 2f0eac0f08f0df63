/**
 * What a published site shows of its content, in headless Chromium: a group's pages listed in the
 * navigation from the home page (outside the group's branch), code highlighted on the server with
 * its language and a copy button whose script runs under the page's CSP, maths rendered by KaTeX
 * (stylesheet and fonts served by quire), a favicon that answers, search results and the 404 page
 * in the site's frame (navigation and search kept), and a small-screen menu that opens in place.
 * Leaves a screenshot of highlighted code and maths (test-results/published-site-code-math.png;
 * `docs/published-site-code-math.png` is a copy of one).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, sdk } from './helpers/clients.js';
import { CHROMIUM, CHROMIUM_ARGS, hasBrowser } from './helpers/chromium.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const HOME = [
  '# Getting started',
  '',
  'Install the client, then call it.',
  '',
  '```javascript',
  'import { Client } from "@acme/sdk";',
  '',
  '// One client per process.',
  'const client = new Client({ retries: 3 });',
  'await client.publish("docs", { draft: false });',
  '```',
  '',
  'Energy and mass are related:',
  '',
  '$$',
  'E = mc^2',
  '$$',
  '',
  'The sum of the first n integers is $$\\frac{n(n+1)}{2}$$ (inline).',
  '',
  ...Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} of a long page, so that the page scrolls on a small screen.\n`),
].join('\n');

type Published = { base: string };

/** A space with a home page (code, maths) and a group holding two pages, published as a site. */
async function publish(): Promise<Published> {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Acme SDK' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
  const content = `/spaces/${space.id}/change-requests/${cr.id}/content`;
  const post = async (changes: unknown[]) => {
    const answer = await http(server.url, owner.token, 'POST', content, { changes });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  };
  await post([{ operation: 'insert_page', title: 'Getting started', document: { markdown: HOME } }]);
  await post([{ operation: 'insert_page', type: 'group', title: 'Guides' }]);
  const pages = (await http(server.url, owner.token, 'GET', `${content}/pages`)).body.pages as { id: string; title: string }[];
  const group = pages.find((p) => p.title === 'Guides')!;
  await post([
    { operation: 'insert_page', into: group.id, title: 'Install', document: { markdown: '# Install\n\nRun the installer.\n' } },
    { operation: 'insert_page', into: group.id, title: 'Deploy', document: { markdown: '# Deploy\n\nShip the zeppelin build.\n' } },
  ]);
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  const site = (await api.orgs.createSite(org.id, { title: 'Acme Docs', spaces: [space.id] } as never)).data;
  await api.orgs.publishSite(org.id, site.id);
  return { base: `${server.url}/sites/${site.id}` };
}

/** Console errors (CSP refusals among them), uncaught errors and CSP violation events of a page. */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()} @ ${m.location().url}`));
  page.on('pageerror', (e) => problems.push(`error: ${e.message}`));
  await page.exposeFunction('reportCsp', (text: string) => problems.push(`csp: ${text}`));
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportCsp(t: string): void }).reportCsp(`${e.violatedDirective} ${e.blockedURI}`)));
  return problems;
}

const navLinks = (page: Page) => page.$$eval('#site-nav a', (links) => links.map((a) => a.textContent?.trim()));

describe.skipIf(!hasBrowser)('what a published site shows, in Chromium', () => {
  let browser: Browser;
  let site: Published;
  beforeAll(async () => {
    site = await publish();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => browser?.close());

  it('lists a group’s pages from the home page, highlights code with its language and a working copy button, renders maths, has a favicon', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 600 }, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    const problems = await watch(page);
    const response = await page.goto(`${site.base}/`);
    expect(response?.status()).toBe(200);
    expect(await page.textContent('main h1')).toBe('Getting started');

    // The group's pages, though the home page is outside the group's branch.
    expect(await page.textContent('#site-nav .nav-group-title')).toBe('Guides');
    expect(await navLinks(page)).toEqual(['Getting started', 'Install', 'Deploy']);

    // Code: token spans from the server, the language's name, a copy button shown by the page script.
    const tokens = await page.$$eval('.code-block code.hljs span[class^="hljs-"]', (spans) => spans.map((s) => [s.className, s.textContent]));
    expect(tokens).toEqual(expect.arrayContaining([['hljs-keyword', 'import'], ['hljs-string', '"@acme/sdk"'], ['hljs-comment', '// One client per process.']]));
    expect(await page.textContent('.code-block .code-language')).toBe('JavaScript');
    const keywordColor = await page.$eval('.hljs-keyword', (el) => getComputedStyle(el).color);
    expect(keywordColor).not.toBe(await page.$eval('.code-block code', (el) => getComputedStyle(el).color));
    const copy = page.locator('.code-block .code-copy');
    expect(await copy.isVisible()).toBe(true);
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText().catch(() => null));
    if (copied !== null) expect(copied).toBe('import { Client } from "@acme/sdk";\n\n// One client per process.\nconst client = new Client({ retries: 3 });\nawait client.publish("docs", { draft: false });');

    // Maths: KaTeX markup with MathML, styled by KaTeX's stylesheet and fonts served by quire.
    expect(await page.$$eval('.math-block .katex-display .katex-html', (els) => els.length)).toBe(1);
    expect(await page.textContent('.math-block annotation')).toBe('E = mc^2');
    expect(await page.$$eval('.page-body p .katex annotation', (els) => els.map((e) => e.textContent))).toEqual(['\\frac{n(n+1)}{2}']);
    await page.evaluate(() => document.fonts.ready);
    expect(await page.$eval('.math-block .katex', (el) => getComputedStyle(el).fontFamily)).toContain('KaTeX_Main');
    expect(await page.evaluate(() => document.fonts.check('1em KaTeX_Main'))).toBe(true);
    const katexCss = await page.$eval('link[rel="stylesheet"][href*="katex"]', (l) => (l as HTMLLinkElement).href);
    const css = await fetch(katexCss);
    expect(css.status).toBe(200);
    expect(css.headers.get('cache-control')).toContain('immutable');

    // The favicon the page names answers.
    const icon = await page.$eval('link[rel="icon"]', (l) => (l as HTMLLinkElement).href);
    const favicon = await fetch(icon);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await favicon.text()).toContain('<svg');
    expect((await fetch(`${site.base}/favicon.ico`)).status).toBe(200);

    expect(problems).toEqual([]);

    // The page as a visitor first sees it: navigation with the group, code and maths.
    await expect.poll(() => copy.textContent(), { timeout: 5000 }).toBe('Copy');
    await page.evaluate(() => window.scrollTo(0, 0));
    const screenshot = await page.screenshot({ fullPage: false });
    expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
    const out = path.resolve('test-results');
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'published-site-code-math.png'), screenshot);
    await context.close();
  });

  it('keeps the navigation and search on the search results and on the 404 page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = await watch(page);
    await page.goto(`${site.base}/`);
    await page.fill('#site-search', 'zeppelin');
    await page.press('#site-search', 'Enter');
    await page.waitForURL(/~search\?q=zeppelin/);
    expect(await page.$$eval('#search-results a', (links) => links.map((a) => a.textContent))).toEqual(['Deploy']);
    expect(await navLinks(page)).toEqual(['Getting started', 'Install', 'Deploy']);

    const missing = await page.goto(`${site.base}/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(await page.textContent('main h1')).toBe('Page not found');
    expect(await navLinks(page)).toEqual(['Getting started', 'Install', 'Deploy']);
    expect(await page.isVisible('form[role="search"] #site-search')).toBe(true);
    expect(await page.$eval('link[rel="icon"]', (l) => (l as HTMLLinkElement).href)).toContain('/~assets/favicon');
    // The one error is the browser reporting the page's own 404 status.
    expect(problems).toEqual([`console: Failed to load resource: the server responded with a status of 404 (Not Found) @ ${site.base}/no-such-page`]);
    await page.close();
  });

  it('opens the small-screen menu in place, without scrolling', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 700 } });
    const problems = await watch(page);
    await page.goto(`${site.base}/guides/install`);
    expect(await page.isVisible('#site-nav')).toBe(false);
    const before = await page.evaluate(() => window.scrollY);
    await page.click('.menu-link');
    expect(await page.getAttribute('.menu-link', 'aria-expanded')).toBe('true');
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
    expect(page.url()).not.toContain('#');
    const nav = await page.locator('#site-nav').boundingBox();
    expect(nav).not.toBeNull();
    expect(nav!.y).toBeGreaterThanOrEqual(0);
    expect(nav!.y).toBeLessThan(700);
    expect(await page.isVisible('#site-nav a:has-text("Deploy")')).toBe(true);
    await mkdir(path.resolve('test-results'), { recursive: true });
    await page.screenshot({ path: path.resolve('test-results', 'published-site-mobile-menu.png') });
    await page.keyboard.press('Escape');
    expect(await page.isVisible('#site-nav')).toBe(false);
    expect(await page.getAttribute('.menu-link', 'aria-expanded')).toBe('false');
    await page.click('.menu-link');
    await page.click('#site-nav a:has-text("Deploy")');
    await page.waitForURL(/deploy$/);
    expect(await page.textContent('main h1')).toBe('Deploy');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('published-site assets over HTTP', () => {
  it('serves KaTeX’s fonts with a year of caching, and a 404 for other asset names', async () => {
    const { base } = await publish();
    const html = await (await fetch(`${base}/`)).text();
    const cssPath = /href="([^"]*~assets\/katex-[^"]+\/katex\.min\.css)"/.exec(html)?.[1];
    expect(cssPath).toBeDefined();
    const css = await (await fetch(`${server.url}${cssPath}`)).text();
    const font = /url\((fonts\/KaTeX_Main-Regular\.woff2)\)/.exec(css)?.[1];
    expect(font).toBeDefined();
    const fontAnswer = await fetch(`${server.url}${cssPath!.replace('katex.min.css', font!)}`);
    expect(fontAnswer.status).toBe(200);
    expect(fontAnswer.headers.get('content-type')).toBe('font/woff2');
    expect(fontAnswer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${server.url}${cssPath!.replace('katex.min.css', '%2e%2e%2fpackage.json')}`)).status).toBe(404);
    expect((await fetch(`${base}/~assets/nothing.js`)).status).toBe(404);
    const page = await fetch(`${base}/guides/deploy`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('katex.min.css');
  });

  it('reads as much for a page of a large space as of a small one, and keeps its ETag', async () => {
    /** A space whose "Reference" page holds `children` pages, beside a group of two, published. */
    const spaceWith = async (children: number) => {
      const { org, owner } = await createOrg(server.db);
      const api = sdk(server.url, owner.token);
      const space = (await api.orgs.createSpace(org.id, { title: 'Big' })).data;
      const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
      const content = `/spaces/${space.id}/change-requests/${cr.id}/content`;
      const post = (changes: unknown[]) => http(server.url, owner.token, 'POST', content, { changes });
      await post([
        { operation: 'insert_page', title: 'Home', document: { markdown: '# Home\n\n```python\nprint("hi")\n```\n\n$$a^2 + b^2 = c^2$$\n' } },
        { operation: 'insert_page', title: 'Reference', document: { markdown: 'All of it.' } },
        { operation: 'insert_page', type: 'group', title: 'Guides' },
      ]);
      const pages = (await http(server.url, owner.token, 'GET', `${content}/pages`)).body.pages as { id: string; title: string }[];
      const id = (title: string) => pages.find((p) => p.title === title)!.id;
      await post([{ operation: 'insert_page', into: id('Guides'), title: 'Install', document: { markdown: 'Install it.' } }, { operation: 'insert_page', into: id('Guides'), title: 'Deploy', document: { markdown: 'Deploy it.' } }]);
      await post(Array.from({ length: children }, (_, i) => ({ operation: 'insert_page', into: id('Reference'), title: `Endpoint ${i + 1}`, document: { markdown: `Endpoint ${i + 1}.` } })));
      await api.spaces.mergeChangeRequest(space.id, cr.id);
      const site = (await api.orgs.createSite(org.id, { title: 'Big', spaces: [space.id] } as never)).data;
      await api.orgs.publishSite(org.id, site.id);
      return `${server.url}/sites/${site.id}`;
    };
    const reads = async (url: string) => {
      server.queries.length = 0;
      const answer = await fetch(url);
      const body = await answer.text();
      return { status: answer.status, count: server.queries.length, body, etag: answer.headers.get('etag') };
    };
    const small = await spaceWith(2);
    const large = await spaceWith(120);
    for (const path of ['/', '/guides/deploy', '/~search?q=deploy', '/no-such-page']) {
      const [a, b] = [await reads(`${small}${path}`), await reads(`${large}${path}`)];
      expect(b.status, path).toBe(a.status);
      expect(b.count, path).toBe(a.count);
      expect(b.body, path).not.toContain('Endpoint 100');
    }
    const home = await reads(`${large}/`);
    expect(home.body).toContain('hljs-built_in');
    expect(home.body).toContain('class="katex"');
    const again = await fetch(`${large}/`, { headers: { 'if-none-match': home.etag! } });
    expect(again.status).toBe(304);
  });
});
