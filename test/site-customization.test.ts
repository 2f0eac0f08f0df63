/**
 * Site customization (2.11, 4.9; src/domain/publishing/sites/customization/): the committed schema file is the
 * script's output, the defaults are a valid record, PUT bodies are refused with a 400 naming the
 * dotted path of the first bad field (enumerations list their values), valid ones round-trip, and
 * the site-space override follows PATCH semantics. No database needed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/lib/errors.js';
import {
  applyOverridePatch,
  DEFAULT_CUSTOMIZATION,
  effectiveCustomization,
  themeColors,
  validateCustomization,
  validateOverridePatch,
  type SiteCustomization,
} from '../src/domain/publishing/sites/customization/validate.js';

const full = (): Record<string, any> => structuredClone(DEFAULT_CUSTOMIZATION) as Record<string, any>;
/** A full record with `change` applied to a copy. */
const withChange = (change: (c: Record<string, any>) => void) => {
  const c = full();
  change(c);
  return c;
};

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a 400');
}

describe('customization schema file', () => {
  it('is the output of scripts/customization-schema.mjs (rerun it after upgrading @gitbook/api)', async () => {
    // @ts-expect-error: a plain JavaScript module
    const { customizationSchema } = await import('../scripts/customization-schema.mjs');
    const committed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../src/domain/publishing/sites/customization/schema.json'), 'utf8'));
    expect(committed, 'run `node scripts/customization-schema.mjs`').toEqual(customizationSchema());
  });

  it('answers records the public document itself accepts (GET of a site and of a site space)', () => {
    const document = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
    const ajv = new Ajv2020({ strict: false, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addFormat('emoji', true);
    ajv.addSchema(document, 'openapi');
    const settings = ajv.compile({ $ref: 'openapi#/components/schemas/SiteCustomizationSettings' });
    expect(settings(DEFAULT_CUSTOMIZATION), JSON.stringify(settings.errors)).toBe(true);
    const stored = validateCustomization(withChange((c) => (c.title = 'Docs')));
    const effective = effectiveCustomization(stored, applyOverridePatch(null, validateOverridePatch({ styling: { theme: 'bold' }, favicon: { emoji: '📘' } })));
    expect(settings(effective), JSON.stringify(settings.errors)).toBe(true);
  });
});

describe('validateCustomization (PUT)', () => {
  it('accepts the defaults as they are', () => {
    expect(validateCustomization(full())).toEqual(DEFAULT_CUSTOMIZATION);
  });

  const invalid: [name: string, body: unknown, field: string, message: RegExp][] = [
    ['not an object', 'dark', '', /Invalid request body: must be object/],
    ['a required group missing', withChange((c) => delete c.styling), 'styling', /is required/],
    ['a required field missing in a group', withChange((c) => delete c.themes.toggeable), 'themes.toggeable', /is required/],
    ['a theme outside the enumeration', withChange((c) => (c.styling.theme = 'neon')), 'styling.theme', /must be one of: clean, muted, bold, gradient$/],
    ['a default theme mode outside the enumeration', withChange((c) => (c.themes.default = 'dusk')), 'themes.default', /light, dark, system/],
    ['a locale outside the enumeration', withChange((c) => (c.internationalization.locale = 'xx')), 'internationalization.locale', /one of: en, fr/],
    ['a font neither built in nor defined', withChange((c) => (c.styling.font = 'Comic Sans')), 'styling.font', /one of: ABCFavorit, Inter/],
    ['a font definition missing a field', withChange((c) => (c.styling.font = { id: 'f', fontFamily: 'Acme', fontFaces: [] })), 'styling.font.custom', /is required/],
    ['a font definition without faces', withChange((c) => (c.styling.font = { id: 'f', custom: true, fontFamily: 'Acme', fontFaces: [] })), 'styling.font.fontFaces', /fewer than 1 items/],
    ['a colour that is not hex', withChange((c) => (c.styling.primaryColor.light = 'blue')), 'styling.primaryColor.light', /hex colour/],
    ['a colour pair without its dark half', withChange((c) => (c.styling.primaryColor = { light: '#346DDB' })), 'styling.primaryColor.dark', /is required/],
    ['a colour given as a string', withChange((c) => (c.styling.dangerColor = '#FF0000')), 'styling.dangerColor', /must be object/],
    ['a tint without its colour', withChange((c) => (c.styling.tint = {})), 'styling.tint.color', /is required/],
    ['a boolean given as a string', withChange((c) => (c.feedback.enabled = 'yes')), 'feedback.enabled', /must be boolean/],
    ['a title too short', withChange((c) => (c.title = 'x')), 'title', /fewer than 2 characters/],
    ['a title too long', withChange((c) => (c.title = 'x'.repeat(129))), 'title', /more than 128 characters/],
    ['a logo that is not a URL', withChange((c) => (c.header.logo = { light: 'not a url', dark: 'https://x.test/d.png' })), 'header.logo.light', /valid uri/],
    ['header links not an array', withChange((c) => (c.header.links = {})), 'header.links', /must be array/],
    [
      'a header link target of an unknown kind',
      withChange((c) => (c.header.links = [{ title: 'Home', links: [], to: { kind: 'web', url: 'https://x.test' } }])),
      'header.links.0.to.kind',
      /must be one of: file, url, page, anchor, user, collection, space, reusable-content, tag, openapi$/,
    ],
    [
      'a header link target without its kind',
      withChange((c) => (c.header.links = [{ title: 'Home', links: [], to: { url: 'https://x.test' } }])),
      'header.links.0.to.kind',
      /is required \(one of: file, url/,
    ],
    [
      'a file target whose file is not a string',
      withChange((c) => (c.header.links = [{ title: 'Spec', links: [], to: { kind: 'file', file: 42 } }])),
      'header.links.0.to.file',
      /must be string/,
    ],
    [
      'a nested header link with a target of the wrong type',
      withChange((c) => (c.header.links = [{ title: 'More', to: null, links: [{ title: 'A', to: 'https://x.test' }] }])),
      'header.links.0.links.0.to',
      /must be object/,
    ],
    [
      'a header link style outside the enumeration',
      withChange((c) => (c.header.links = [{ title: 'Go', style: 'huge', to: null, links: [] }])),
      'header.links.0.style',
      /link, button-primary, button-secondary/,
    ],
    [
      'a header link condition that does not parse',
      withChange((c) => (c.header.links = [{ title: 'Beta', to: null, links: [], condition: 'visitor.claims.beta ===' }])),
      'header.links.0.condition',
      /not a valid expression/,
    ],
    [
      'a header link condition reaching outside the visitor',
      withChange((c) => (c.header.links = [{ title: 'Beta', to: null, links: [], condition: 'process.exit()' }])),
      'header.links.0.condition',
      /only these methods|not allowed/,
    ],
    ['a favicon of no known shape', withChange((c) => (c.favicon = { icon: { light: 'https://x.test/l.png' } })), 'favicon.icon.dark', /is required/],
    ['a favicon emoji that is no emoji (hex code points of a letter)', withChange((c) => (c.favicon = { emoji: '0041' })), 'favicon.emoji', /valid emoji/],
    ['a favicon with both an icon and an emoji', withChange((c) => (c.favicon = { emoji: '📘', icon: { light: 'https://x.test/l.png', dark: 'https://x.test/d.png' } })), 'favicon', /more than one/],
    ['an announcement without a message', withChange((c) => (c.announcement = { enabled: true, style: 'info' })), 'announcement.message', /is required/],
    ['an announcement style outside the enumeration', withChange((c) => (c.announcement = { enabled: true, message: 'Hello', style: 'loud' })), 'announcement.style', /info, warning, danger, success/],
    ['a footer group without links', withChange((c) => (c.footer.groups = [{ title: 'Company' }])), 'footer.groups.0.links', /is required/],
    ['a copyright too long', withChange((c) => (c.footer.copyright = 'c'.repeat(513))), 'footer.copyright', /more than 512/],
    ['a localized title keyed by an unknown locale', withChange((c) => (c.localizedTitle = { klingon: 'Qapla' })), 'localizedTitle.klingon', /not an allowed key: must be one of: en/],
    ['a social account on an unknown platform', withChange((c) => (c.socialAccounts = [{ platform: 'myspace', handle: 'me', display: { footer: true, header: false } }])), 'socialAccounts.0.platform', /github/],
    ['a page action outside the enumeration', withChange((c) => (c.pageActions.items = ['print'])), 'pageActions.items.0', /assistant, external-ai, markdown/],
    ['the description-only pdf flag of the wrong type', withChange((c) => (c.pdf = { enabled: 1 })), 'pdf.enabled', /must be boolean/],
  ];

  it.each(invalid)('refuses %s', (_name, body, field, message) => {
    const error = refusal(() => validateCustomization(body));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(field ? `Invalid value for "${field}": ` : 'Invalid request body');
    expect(error.message).toMatch(message);
    expect(error.field).toBe(field || undefined);
  });

  const valid: [name: string, body: Record<string, any>][] = [
    ['a title and brand colours', withChange((c) => Object.assign(c, { title: 'Acme Docs' }, { styling: { ...c.styling, primaryColor: { light: '#ff0000', dark: '#0f0' }, tint: { color: { light: '#123456', dark: '#654321' } } } }))],
    ['header links of several kinds, with a condition', withChange((c) => (c.header.links = [
      { title: 'Home', style: 'button-primary', to: { kind: 'url', url: 'https://acme.test' }, links: [] },
      { title: 'Guide', to: { kind: 'page', page: 'p1', space: 's1' }, links: [{ title: 'Spec', to: { kind: 'file', file: 'f1' } }], condition: 'visitor.claims.plan === "pro"' },
      { title: 'Menu', to: null, links: [], condition: '' },
    ]))],
    ['a favicon icon, a logo and an announcement', withChange((c) => Object.assign(c, {
      favicon: { icon: { light: 'https://acme.test/l.png', dark: 'https://acme.test/d.png' } },
      header: { ...c.header, logo: { light: 'https://acme.test/logo.svg', dark: 'https://acme.test/logo-dark.svg' } },
      announcement: { enabled: true, message: 'We moved!', style: 'warning', link: { title: 'Read', to: { kind: 'url', url: 'https://acme.test/news' } } },
    }))],
    ['an emoji favicon (a flag, two code points)', withChange((c) => (c.favicon = { emoji: '🇫🇷' }))],
    ['an emoji favicon as code points', withChange((c) => (c.favicon = { emoji: '1f389' }))],
    ['a custom font definition', withChange((c) => (c.styling.font = { id: 'f', custom: true, fontFamily: 'Acme Sans', fontFaces: [{ weight: 400, sources: [{ url: 'https://acme.test/a.woff2', format: 'woff2' }] }] }))],
    ['footer groups and a copyright', withChange((c) => (c.footer = { groups: [{ title: 'Legal', links: [{ title: 'Terms', to: { kind: 'url', url: 'https://acme.test/terms' } }] }], copyright: '© Acme' }))],
  ];

  it.each(valid)('stores %s as given', (_name, body) => {
    const stored = validateCustomization(body);
    expect(stored).toEqual(body);
    expect(validateCustomization(stored)).toEqual(stored); // what is stored can be PUT back
  });

  it('fills the optional groups the input lacks from the defaults and drops unknown properties', () => {
    const body = withChange((c) => {
      delete c.pdf;
      delete c.git;
      c.surprise = { x: 1 };
      c.styling.sparkles = true;
      c.updatedAt = '2020-01-01T00:00:00.000Z';
    });
    const stored = validateCustomization(body) as Record<string, any>;
    expect(stored.pdf).toEqual(DEFAULT_CUSTOMIZATION.pdf);
    expect(stored.git).toEqual(DEFAULT_CUSTOMIZATION.git);
    expect(stored).not.toHaveProperty('surprise');
    expect(stored).not.toHaveProperty('updatedAt');
    expect(stored.styling).not.toHaveProperty('sparkles');
  });

  it('answers a copy: changing it leaves the defaults alone', () => {
    const stored = validateCustomization(full());
    stored.header.links.push({ title: 'X', to: null, links: [] });
    expect(DEFAULT_CUSTOMIZATION.header.links).toEqual([]);
  });
});

describe('site-space override (PATCH)', () => {
  const site: SiteCustomization = validateCustomization(withChange((c) => (c.title = 'Acme Docs')));
  const red = { light: '#FF0000', dark: '#AA0000' };
  const green = { light: '#00FF00', dark: '#00AA00' };
  const favicon = { emoji: '📘' };

  type Case = [name: string, current: Record<string, any> | null, patch: Record<string, unknown>, override: Record<string, any>];
  const cases: Case[] = [
    ['sets a title', null, { title: 'Variant' }, { title: 'Variant' }],
    ['null unsets the title', { title: 'Variant', favicon }, { title: null }, { favicon }],
    ['null resets the favicon override', { title: 'Variant', favicon }, { favicon: null }, { title: 'Variant' }],
    ['an omitted field is left unchanged', { title: 'Variant', favicon }, { themes: { default: 'dark' } }, { title: 'Variant', favicon, themes: { default: 'dark' } }],
    ['a given value replaces the overridden one', { styling: { primaryColor: red } }, { styling: { primaryColor: green } }, { styling: { primaryColor: green } }],
    ['fields of a group are patched one by one', { styling: { primaryColor: red, theme: 'bold' } }, { styling: { corners: 'straight' } }, { styling: { primaryColor: red, theme: 'bold', corners: 'straight' } }],
    ['null inside a group resets that field only', { styling: { primaryColor: red, theme: 'bold' } }, { styling: { primaryColor: null } }, { styling: { theme: 'bold' } }],
    ['a group emptied by nulls is removed', { styling: { sidebar: { list: 'pill' } } }, { styling: { sidebar: { list: null } } }, {}],
    ['the header links are replaced as a whole', { header: { links: [{ title: 'A', to: null, links: [] }] } }, { header: { links: [{ title: 'B', to: null, links: [] }] } }, { header: { links: [{ title: 'B', to: null, links: [] }] } }],
    ['null header links reset them', { header: { links: [], preset: 'bold' } }, { header: { links: null } }, { header: { preset: 'bold' } }],
    ['the announcement is replaced as a whole', { announcement: { enabled: true, message: 'Old news', style: 'info' } }, { announcement: { enabled: false, message: 'New', style: 'danger' } }, { announcement: { enabled: false, message: 'New', style: 'danger' } }],
    ['an empty patch changes nothing', { title: 'Variant' }, {}, { title: 'Variant' }],
  ];

  it.each(cases)('%s', (_name, current, patch, expected) => {
    expect(applyOverridePatch(current, validateOverridePatch(patch))).toEqual(expected);
  });

  it('lays the override over the site; the title falls back to the site, then the content', () => {
    const override = applyOverridePatch(null, validateOverridePatch({ title: 'Variant', styling: { primaryColor: red }, favicon }));
    const effective = effectiveCustomization(site, override, 'Content');
    expect(effective.title).toBe('Variant');
    expect(effective.styling.primaryColor).toEqual(red);
    expect(effective.styling.theme).toBe(site.styling.theme); // the rest of the group is the site's
    expect(effective.favicon).toEqual(favicon);

    const untitled = applyOverridePatch(override, validateOverridePatch({ title: null, favicon: null }));
    expect(effectiveCustomization(site, untitled, 'Content').title).toBe('Acme Docs');
    expect(effectiveCustomization(site, untitled).favicon).toEqual(site.favicon);
    const { title: _, ...siteWithoutTitle } = site;
    expect(effectiveCustomization(siteWithoutTitle, untitled, 'Content').title).toBe('Content');
    expect(effectiveCustomization(siteWithoutTitle, null)).not.toHaveProperty('title');
    expect(effectiveCustomization(site, null)).toEqual(site);
  });

  const invalid: [name: string, patch: unknown, field: string, message: RegExp][] = [
    ['a title too short', { title: 'x' }, 'title', /fewer than 2/],
    ['a theme outside the enumeration', { styling: { theme: 'neon' } }, 'styling.theme', /must be one of: clean, muted, bold, gradient$/],
    ['a colour that is not hex', { styling: { primaryColor: { light: 'red', dark: '#000' } } }, 'styling.primaryColor.light', /hex colour/],
    ['a feedback group without its flag', { feedback: {} }, 'feedback.enabled', /is required/],
    ['a null announcement (not nullable in the public document)', { announcement: null }, 'announcement', /must be object/],
    ['a header link target of an unknown kind', { header: { links: [{ title: 'A', links: [], to: { kind: 'nope' } }] } }, 'header.links.0.to.kind', /must be one of: file, url/],
    ['a favicon emoji that is no emoji', { favicon: { emoji: 'abc' } }, 'favicon.emoji', /valid emoji/],
  ];

  it.each(invalid)('refuses %s', (_name, patch, field, message) => {
    const error = refusal(() => validateOverridePatch(patch));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(`Invalid value for "${field}": `);
    expect(error.message).toMatch(message);
  });

  it('drops properties the PATCH body does not know', () => {
    expect(validateOverridePatch({ title: 'Variant', socialAccounts: [], styling: { sparkles: true } })).toEqual({ title: 'Variant', styling: {} });
  });
});

describe('themeColors', () => {
  it('takes the tint from the primary colour unless one is set', () => {
    expect(themeColors(DEFAULT_CUSTOMIZATION).tint).toEqual(DEFAULT_CUSTOMIZATION.styling.primaryColor);
    const tinted = validateCustomization(withChange((c) => (c.styling.tint = { color: { light: '#111111', dark: '#222222' } })));
    expect(themeColors(tinted)).toMatchObject({ primary: { light: '#346DDB' }, tint: { light: '#111111', dark: '#222222' } });
  });
});
