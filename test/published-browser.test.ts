/**
 * A published page in a real browser (headless Chromium): it renders with the site's title, its
 * navigation and sections, follows a navigation link, and leaves a screenshot
 * (test-results/published-site.png; `docs/published-site.png` in the README is a copy of one).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sdk } from './helpers/clients.js';
import { CHROMIUM, CHROMIUM_ARGS, hasBrowser } from './helpers/chromium.js';
import { createOrg, spaceWithPages } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const spaceWith = (token: string, orgId: string, title: string, pages: { title: string; markdown: string }[]) => spaceWithPages(server.url, token, orgId, title, pages);

describe.skipIf(!hasBrowser)('a published page in Chromium', () => {
  it('renders the title, the navigation and the sections, follows a link, and takes a screenshot', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const guide = await spaceWith(owner.token, org.id, 'Guide', [
      {
        title: 'Introduction',
        markdown:
          '# Introduction\n\nAcme helps teams **ship documentation** they are proud of.\n\n{% hint style="info" %}\nNew here? Start with the quick start.\n{% endhint %}\n\n## Install\n\n```bash\nnpm install @acme/cli\n```\n\n## Concepts\n\n| Term | Meaning |\n| --- | --- |\n| Space | A body of content |\n| Site | Spaces published together |\n',
      },
      { title: 'Quick start', markdown: '# Quick start\n\n1. Install the CLI.\n2. Run `acme init`.\n3. Publish.\n' },
      { title: 'Configuration', markdown: '# Configuration\n\nEvery option, explained.\n' },
    ]);
    const reference = await spaceWith(owner.token, org.id, 'API reference', [{ title: 'Endpoints', markdown: '# Endpoints\n\nAll of them.\n' }]);
    const site = (await api.orgs.createSite(org.id, { title: 'Acme Docs', spaces: [guide.id] } as never)).data;
    await api.orgs.addSectionToSite(org.id, site.id, { spaceId: guide.id, title: 'Guides' } as never);
    await api.orgs.addSectionToSite(org.id, site.id, { spaceId: reference.id, title: 'API reference' } as never);
    const customization = (await api.orgs.getSiteCustomizationById(org.id, site.id)).data as Record<string, any>;
    await api.orgs.updateSiteCustomizationById(org.id, site.id, {
      ...customization,
      styling: { ...customization.styling, primaryColor: { light: '#6d28d9', dark: '#a78bfa' } },
      announcement: { enabled: true, message: 'Version 2 is out.', style: 'info' },
      footer: { ...customization.footer, copyright: '© Acme' },
    } as never);
    await api.orgs.publishSite(org.id, site.id);

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })).newPage();
      const response = await page.goto(`${server.url}/sites/${site.id}/`);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe('Introduction · Acme Docs');
      expect(await page.textContent('main h1')).toBe('Introduction');
      const nav = await page.$$eval('nav a', (links) => links.map((a) => a.textContent?.trim()));
      expect(nav).toEqual(expect.arrayContaining(['Introduction', 'Quick start', 'Configuration']));
      expect(await page.isVisible('text=API reference')).toBe(true);
      expect(await page.isVisible('text=Version 2 is out.')).toBe(true);
      const screenshot = await page.screenshot({ fullPage: false });
      expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
      expect(screenshot.length).toBeGreaterThan(10_000);
      const out = path.resolve('test-results');
      await mkdir(out, { recursive: true });
      await writeFile(path.join(out, 'published-site.png'), screenshot);

      await page.click('nav a:has-text("Quick start")');
      await page.waitForURL(/quick-start$/);
      expect(await page.textContent('main h1')).toBe('Quick start');
      expect(await page.getAttribute('nav a:has-text("Quick start")', 'aria-current')).toBe('page');
    } finally {
      await browser.close();
    }
  });
});
