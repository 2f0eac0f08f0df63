/**
 * The site customization record (2.11; shapes and enumerations from the public document's
 * SiteCustomizationSettings) and the record a new site starts with.
 */

export type Themed<T = string> = { light: T; dark: T };
/** A link target (the public `ContentRef`): `{kind: 'url', url}`, `{kind: 'page', page, space?}`, … */
export type ContentRef = { kind: string } & Record<string, unknown>;
export type ContentLink = { title: string; localizedTitle?: Record<string, string>; to: ContentRef };
export type HeaderItem = {
  title: string;
  localizedTitle?: Record<string, string>;
  style?: 'link' | 'button-primary' | 'button-secondary';
  to: ContentRef | null;
  links: ContentLink[];
  condition?: string;
};
export type FontDefinition = { id: string; custom: boolean; fontFamily: string; fontFaces: unknown[] };

export interface SiteCustomization {
  title?: string;
  localizedTitle?: Record<string, string>;
  styling: {
    theme: 'clean' | 'muted' | 'bold' | 'gradient';
    primaryColor: Themed;
    tint?: { color: Themed };
    infoColor: Themed;
    successColor: Themed;
    warningColor: Themed;
    dangerColor: Themed;
    corners: 'straight' | 'rounded' | 'circular';
    depth: 'subtle' | 'flat';
    links: 'default' | 'accent';
    font: string | FontDefinition;
    headingFont?: string | FontDefinition | null;
    monospaceFont: string | FontDefinition;
    background: 'plain' | 'match';
    icons: 'regular' | 'solid' | 'duotone' | 'light' | 'thin';
    codeTheme: { default: Themed; openapi: Themed };
    sidebar: { background: 'default' | 'filled'; list: 'default' | 'pill' | 'line' };
    search: 'prominent' | 'subtle';
  };
  internationalization: { locale: string };
  /** `{icon: {light, dark}}`, `{emoji}`, or `{}` for the default favicon. */
  favicon: { icon?: Themed } | { emoji?: string };
  header: {
    preset: 'default' | 'bold' | 'contrast' | 'custom' | 'none';
    logo?: Themed;
    primaryLink?: ContentRef;
    backgroundColor?: Themed;
    linkColor?: Themed;
    links: HeaderItem[];
  };
  footer: { logo?: Themed; groups: { title: string; links: ContentLink[] }[]; copyright?: string };
  announcement?: {
    enabled: boolean;
    message: string;
    localizedMessage?: Record<string, string>;
    link?: ContentLink;
    style: 'info' | 'warning' | 'danger' | 'success';
  };
  themes: { default: 'light' | 'dark' | 'system'; toggeable: boolean };
  feedback: { enabled: boolean };
  ai: { mode: 'none' | 'search' | 'assistant'; greeting?: string; suggestions?: string[]; instructions?: string } & Record<string, unknown>;
  advancedCustomization: { enabled: boolean };
  pageActions: { items: string[] };
  externalLinks: { target: 'self' | 'blank' };
  pagination: { enabled: boolean };
  trademark: { enabled: boolean };
  privacyPolicy: { url?: string };
  socialPreview: { url?: string };
  socialAccounts: { platform: string; handle: string; display: { footer: boolean; header: boolean } }[];
  insights: { trackingCookie: boolean };
  /** Fields of the service description (2.11) that the public document does not have. */
  pdf?: { enabled: boolean };
  aiSearch?: { enabled: boolean };
  git?: { showEditLink: boolean };
  /** Set by the store on every write; never taken from input. */
  updatedAt?: string;
}

const same = (color: string): Themed => ({ light: color, dark: color });
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') Object.values(Object.freeze(value)).forEach(deepFreeze);
  return value;
}

/**
 * Valid against SiteCustomizationSettings (checked by test/site-customization.test.ts); deeply
 * frozen, so copy before changing. No `title`: it falls back to the content's.
 */
export const DEFAULT_CUSTOMIZATION: SiteCustomization = deepFreeze<SiteCustomization>({
  styling: {
    theme: 'clean',
    primaryColor: same('#346DDB'),
    infoColor: same('#787878'),
    successColor: same('#00C950'),
    warningColor: same('#FE9A00'),
    dangerColor: same('#FB2C36'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  feedback: { enabled: true },
  // quire has no AI features: the assistant and AI search stay off.
  ai: { mode: 'none' },
  advancedCustomization: { enabled: false },
  // Both are things quire serves for a page: its Markdown and a PDF export.
  pageActions: { items: ['markdown', 'pdf'] },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  trademark: { enabled: false },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: false },
  pdf: { enabled: false },
  aiSearch: { enabled: false },
  git: { showEditLink: false },
});
