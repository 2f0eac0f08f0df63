/**
 * The stylesheet of published pages: system fonts (no web fonts), a light and a dark palette
 * (custom properties; the site's colours override them, see colors.ts), a three-column layout
 * (sidebar, content, outline) that collapses to one column on small screens with the page
 * navigation after the content (reached from the header's "Menu" link). Palette colours reach
 * at least 4.5:1 against their background.
 */
import { createHash } from 'node:crypto';
import { BACKGROUND, themeRules } from './colors.js';

export const LIGHT_PALETTE: Record<string, string> = {
  'color-scheme': 'light',
  '--bg': BACKGROUND.light,
  '--bg-soft': '#f6f7f9',
  '--text': '#1b1f24',
  '--muted': '#57606a',
  '--border': '#d0d7de',
  '--code-bg': '#f3f4f6',
  '--primary': '#0b62d6',
  '--primary-text': '#0b62d6',
  '--on-primary': '#ffffff',
  '--info': '#0969da',
  '--info-text': '#0969da',
  '--success': '#1a7f37',
  '--success-text': '#1a7f37',
  '--warning': '#9a6700',
  '--warning-text': '#9a6700',
  '--danger': '#cf222e',
  '--danger-text': '#cf222e',
  '--tint': '#0b62d6',
  '--tint-text': '#0b62d6',
  '--green': '#1a7f37',
  '--blue': '#0969da',
  '--red': '#cf222e',
  '--orange': '#bc4c00',
  '--yellow': '#7d5e00',
  '--purple': '#8250df',
  '--pink': '#bf3989',
  '--violet': '#6e40c9',
  '--cyan': '#0f7385',
};

export const DARK_PALETTE: Record<string, string> = {
  'color-scheme': 'dark',
  '--bg': BACKGROUND.dark,
  '--bg-soft': '#171a21',
  '--text': '#e6e8eb',
  '--muted': '#9aa4b1',
  '--border': '#30363d',
  '--code-bg': '#161b22',
  '--primary': '#4c9aff',
  '--primary-text': '#6cb0ff',
  '--on-primary': '#111111',
  '--info': '#4493f8',
  '--info-text': '#58a6ff',
  '--success': '#3fb950',
  '--success-text': '#3fb950',
  '--warning': '#d29922',
  '--warning-text': '#d29922',
  '--danger': '#f85149',
  '--danger-text': '#ff7b72',
  '--tint': '#4c9aff',
  '--tint-text': '#6cb0ff',
  '--green': '#3fb950',
  '--blue': '#58a6ff',
  '--red': '#ff7b72',
  '--orange': '#ffa657',
  '--yellow': '#e3b341',
  '--purple': '#d2a8ff',
  '--pink': '#ff9bce',
  '--violet': '#bc8cff',
  '--cyan': '#56d4dd',
};

const PALETTE = ['green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan'];
const SEMANTIC = ['primary', 'info', 'success', 'warning', 'danger', 'tint'];

const colorMarks = [
  ...PALETTE.map((c) => `.color-text-${c}{color:var(--${c})}.color-bg-${c}{background:color-mix(in srgb,var(--${c}) 18%,transparent)}`),
  ...SEMANTIC.map((c) => `.color-text-${c}{color:var(--${c}-text)}.color-bg-${c}{background:color-mix(in srgb,var(--${c}) 18%,transparent)}`),
].join('\n');

const hints = ['info', 'warning', 'danger', 'success']
  .map((s) => `.hint-${s},.announcement-${s}{border-color:var(--${s});background:color-mix(in srgb,var(--${s}) 10%,var(--bg))}`)
  .join('\n');

/** highlight.js token classes (see document/highlight.ts) in the palette's colours, light and dark. */
const HLJS_CSS = [
  ['comment,.hljs-quote,.hljs-meta', 'muted', 'font-style:italic'],
  ['keyword,.hljs-selector-tag,.hljs-built_in,.hljs-literal,.hljs-doctag', 'red', ''],
  ['string,.hljs-regexp,.hljs-addition,.hljs-template-tag,.hljs-template-variable', 'blue', ''],
  ['number,.hljs-symbol,.hljs-bullet,.hljs-variable.constant_', 'cyan', ''],
  ['title,.hljs-title.function_,.hljs-section,.hljs-selector-id', 'purple', ''],
  ['type,.hljs-title.class_,.hljs-class .hljs-title', 'orange', ''],
  ['attr,.hljs-attribute,.hljs-property,.hljs-variable,.hljs-params,.hljs-selector-class,.hljs-selector-attr', 'violet', ''],
  ['name,.hljs-tag,.hljs-link', 'green', ''],
  ['deletion', 'red', ''],
]
  .map(([selector, color, extra]) => `.hljs-${selector}{color:var(--${color})${extra ? `;${extra}` : ''}}`)
  .join('\n');

export const SITE_CSS = `${themeRules(LIGHT_PALETTE, DARK_PALETTE)}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{display:flex;flex-direction:column;min-height:100vh;margin:0;background:var(--bg);color:var(--text);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif}
a{color:var(--primary-text);text-underline-offset:.15em}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
img{max-width:100%;height:auto}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.skip-link{position:absolute;left:.5rem;top:-3rem;z-index:10;padding:.5rem 1rem;background:var(--primary);color:var(--on-primary);border-radius:.25rem}
.skip-link:focus{top:.5rem}
.only-dark{display:none}
:root[data-theme="dark"] .only-dark{display:revert}
:root[data-theme="dark"] .only-light{display:none}
@media (prefers-color-scheme: dark){:root:not([data-theme="light"]) .only-dark{display:revert}:root:not([data-theme="light"]) .only-light{display:none}}
.announcement{border-bottom:1px solid;padding:.5rem 1rem;text-align:center}
.site-header{border-bottom:1px solid var(--border);background:var(--bg)}
.header-inner{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem 1.25rem;max-width:90rem;margin:0 auto;padding:.75rem 1rem}
.site-brand{display:flex;align-items:center;gap:.5rem;color:var(--text);font-weight:700;font-size:1.125rem;text-decoration:none;margin-right:auto}
.site-brand img{max-height:2.25rem;width:auto}
.header-links ul,.section-tabs ul,.nav-tree,.nav-tree ul,.outline ul,.footer-group ul,.variants ul,.header-menu ul{list-style:none;margin:0;padding:0}
.header-links>ul{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
.header-links a,.header-links summary{color:var(--text);text-decoration:none;cursor:pointer}
.header-menu>summary{list-style:none}
.header-menu>summary::-webkit-details-marker{display:none}
.header-menu>summary::after{content:" ▾";color:var(--muted)}
.header-links a:hover{color:var(--primary-text);text-decoration:underline}
.header-menu{position:relative}
.header-menu ul{position:absolute;z-index:5;min-width:12rem;margin-top:.25rem;padding:.5rem;background:var(--bg);border:1px solid var(--border);border-radius:.5rem;box-shadow:0 4px 16px rgb(0 0 0/.12)}
.header-menu li a{display:block;padding:.25rem .5rem}
.search-form{display:flex;gap:.25rem}
.search-form input{min-width:0;width:14rem;max-width:100%;padding:.4rem .6rem;font:inherit;color:var(--text);background:var(--bg-soft);border:1px solid var(--border);border-radius:.375rem}
button,.button{font:inherit;cursor:pointer;padding:.4rem .75rem;border-radius:.375rem;border:1px solid var(--border);background:var(--bg-soft);color:var(--text)}
.search-form button,.button-primary{background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
.button{display:inline-block;text-decoration:none}
.theme-toggle{line-height:1;padding:.45rem .6rem}
.menu-link{display:none}
.menu-close{display:none}
.nav-open .menu-close{display:block}
.section-tabs{max-width:90rem;margin:0 auto;padding:0 1rem}
.section-tabs ul{display:flex;gap:1.5rem;overflow-x:auto}
.section-tabs a{display:block;padding:.5rem 0;color:var(--muted);text-decoration:none;border-bottom:2px solid transparent}
.section-tabs a[aria-current]{color:var(--text);border-bottom-color:var(--primary);font-weight:600}
.layout{flex:1 0 auto;width:100%;display:grid;grid-template-columns:17rem minmax(0,1fr) 14rem;gap:2rem;max-width:90rem;margin:0 auto;padding:1.5rem 1rem}
.layout.no-outline{grid-template-columns:17rem minmax(0,1fr)}
.layout.no-sidebar{grid-template-columns:minmax(0,1fr) 14rem}
.layout.no-sidebar.no-outline{grid-template-columns:minmax(0,1fr);max-width:56rem}
.sidebar,.outline{position:sticky;top:1rem;align-self:start;max-height:calc(100vh - 2rem);overflow-y:auto;font-size:.9375rem}
.variants{margin-bottom:1rem}
.variants summary{cursor:pointer;padding:.4rem .6rem;border:1px solid var(--border);border-radius:.375rem}
.variants li a{display:block;padding:.25rem .6rem}
.variants a[aria-current]{font-weight:600}
.nav-tree li{margin:.1rem 0}
.nav-tree ul{margin-left:.75rem;padding-left:.5rem;border-left:1px solid var(--border)}
.nav-tree a,.nav-tree .nav-text{display:inline-block;padding:.2rem .5rem;border-radius:.375rem;color:var(--text);text-decoration:none}
.nav-tree a:hover{background:var(--bg-soft)}
.nav-tree a[aria-current="page"]{background:color-mix(in srgb,var(--primary) 12%,var(--bg));color:var(--primary-text);font-weight:600}
.nav-group{margin-top:1rem!important}
.nav-group-title{display:block;padding:.2rem .5rem;font-size:.75rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}
.nav-tree .nav-group>ul{margin-left:0;padding-left:0;border:0}
.nav-tree li.has-children{position:relative}
.nav-tree li.has-children>a,.nav-tree li.has-children>.nav-text{padding-right:2rem}
.nav-children>summary{position:absolute;top:0;right:0;width:1.75rem;padding:.2rem 0;text-align:center;list-style:none;cursor:pointer;color:var(--muted);border-radius:.375rem}
.nav-children>summary::-webkit-details-marker{display:none}
.nav-children>summary:hover{background:var(--bg-soft)}
.nav-children:not([open])>summary>[aria-hidden]{display:inline-block;transform:rotate(-90deg)}
.nav-external::after{content:" ↗";color:var(--muted)}
.emoji{margin-right:.25em}
main{min-width:0}
main:focus{outline:none}
.page-header h1{margin:0 0 .5rem;font-size:2.25rem;line-height:1.2}
.page-description{margin:0 0 1.5rem;color:var(--muted);font-size:1.125rem}
.page-body h2,.page-body h3,.page-body h4{line-height:1.3;margin:2rem 0 .75rem;scroll-margin-top:1rem}
.heading-anchor{margin-left:.25rem;color:var(--muted);text-decoration:none;opacity:0}
.heading:hover .heading-anchor{opacity:1}
.page-body p,.page-body ul,.page-body ol,.page-body blockquote,.page-body pre,.page-body figure,.page-body table,.page-body details{margin:0 0 1rem}
.page-body li>p{margin:.25rem 0}
blockquote{margin-left:0;padding:.25rem 1rem;border-left:4px solid var(--border);color:var(--muted)}
.hint{margin:0 0 1rem;padding:.75rem 1rem;border:0 solid;border-left-width:4px;border-radius:.375rem}
${hints}
.hint>:last-child{margin-bottom:0}
code,kbd,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.875em}
:not(pre)>code{padding:.1em .35em;background:var(--code-bg);border-radius:.25rem}
kbd{padding:.1em .4em;border:1px solid var(--border);border-bottom-width:2px;border-radius:.25rem;background:var(--bg-soft)}
pre.code{overflow-x:auto;padding:1rem;background:var(--code-bg);border:1px solid var(--border);border-radius:.5rem;line-height:1.5}
pre.code.wrap{white-space:pre-wrap;overflow-wrap:anywhere}
pre.line-numbers{counter-reset:line}
pre.line-numbers .code-line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.5em;margin-right:1em;text-align:right;color:var(--muted);user-select:none}
.code-block{display:grid;grid-template-columns:minmax(0,1fr) auto;margin:0 0 1rem;background:var(--bg-soft);border:1px solid var(--border);border-radius:.5rem}
.code-block figcaption{grid-column:1;margin:0;padding:.4rem 1rem;font-size:.875rem;color:var(--muted)}
.code-bar{grid-column:2;display:flex;align-items:center;gap:.5rem;padding:.25rem .5rem;font-size:.8125rem;color:var(--muted)}
.code-copy{padding:.15rem .5rem;font-size:.8125rem}
.code-block pre.code{grid-column:1/-1;border:0;border-top:1px solid var(--border);border-radius:0 0 .5rem .5rem;margin:0}
${HLJS_CSS}
.tabs{margin:0 0 1rem;border:1px solid var(--border);border-radius:.5rem}
.tablist{display:flex;flex-wrap:wrap;gap:.25rem;padding:.25rem .5rem 0;border-bottom:1px solid var(--border)}
.tablist [role="tab"]{border:0;border-bottom:2px solid transparent;border-radius:0;background:none;color:var(--muted)}
.tablist [role="tab"][aria-selected="true"]{color:var(--text);border-bottom-color:var(--primary);font-weight:600}
.tabpanel{padding:1rem}
.tabpanel-title{font-weight:700}
.tabs-enhanced .tabpanel-title{display:none}
.tabpanel>:last-child{margin-bottom:0}
.expandable{border:1px solid var(--border);border-radius:.5rem;padding:.5rem 1rem}
.expandable summary{cursor:pointer;font-weight:600}
.expandable-body{padding-top:.5rem}
.expandable-body>:last-child{margin-bottom:0}
.table-wrapper{overflow-x:auto;margin:0 0 1rem}
table{border-collapse:collapse;width:100%}
th,td{padding:.5rem .75rem;border:1px solid var(--border);text-align:left;vertical-align:top}
th{background:var(--bg-soft)}
.align-center{text-align:center}.align-right{text-align:right}
td>p:last-child{margin-bottom:0}
.tag{display:inline-block;padding:0 .4rem;border-radius:1rem;background:var(--bg-soft);border:1px solid var(--border);font-size:.875em}
.images{display:flex;flex-wrap:wrap;gap:1rem;margin:0 0 1rem}
.images.align-center{justify-content:center}.images.align-right{justify-content:flex-end}
figure.image{margin:0}
figcaption{color:var(--muted);font-size:.875rem;margin-top:.25rem}
.inline-image-line{height:1.2em;width:auto;vertical-align:middle}
.card-block{margin:0 0 1rem}
.card{display:flex;flex-direction:column;gap:.15rem;padding:.75rem 1rem;border:1px solid var(--border);border-radius:.5rem;color:var(--text);text-decoration:none}
.card:hover{border-color:var(--primary)}
.card-title,.file-name{font-weight:600;color:var(--primary-text)}
.card-detail,.file-meta{color:var(--muted);font-size:.875rem;overflow-wrap:anywhere}
.card-broken,.file-missing{padding:.75rem 1rem;border:1px dashed var(--border);border-radius:.5rem;color:var(--muted)}
.link-broken{color:var(--muted);text-decoration:line-through dotted}
.math-block{margin:0 0 1rem;overflow-x:auto;overflow-y:hidden;text-align:center}
.math-block .katex-display{margin:0}
.math{font-family:"Cambria Math","STIX Two Math","Latin Modern Math",serif}
.task-list{list-style:none;padding-left:.25rem}
.task-item{display:flex;gap:.5rem;align-items:baseline}
.task-body>:first-child{margin-top:0}
.stepper{padding-left:1.5rem}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem}
.truncated{color:var(--muted)}
hr{border:0;border-top:1px solid var(--border);margin:2rem 0}
${colorMarks}
.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem}
.pagination a{display:flex;flex-direction:column;flex:1;max-width:50%;padding:.75rem 1rem;border:1px solid var(--border);border-radius:.5rem;text-decoration:none}
.pagination a[rel="next"]{margin-left:auto;text-align:right}
.pagination-label{font-size:.875rem;color:var(--muted)}
.outline h2{margin:0 0 .5rem;font-size:.8125rem;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.outline a{display:block;padding:.15rem 0;color:var(--muted);text-decoration:none}
.outline a:hover{color:var(--primary-text)}
.outline-level-2{padding-left:.75rem}.outline-level-3{padding-left:1.5rem}
.search-results{padding-left:1.25rem}
.search-results li{margin-bottom:1rem}
.search-result-title{font-weight:600}
.search-result-section{display:block;color:var(--muted);font-size:.875rem}
.search-result-snippet{margin:.25rem 0 0}
.search-result-snippet mark{background:color-mix(in srgb,var(--primary) 22%,transparent);color:inherit}
.message{padding:3rem 0}
.message .status{font-size:.875rem;color:var(--muted);letter-spacing:.08em}
.site-footer{border-top:1px solid var(--border);background:var(--bg-soft);margin-top:3rem}
.footer-inner{max-width:90rem;margin:0 auto;padding:2rem 1rem}
.footer-groups{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:1.5rem}
.footer-group h2{font-size:.875rem;margin:0 0 .5rem}
.footer-group li{margin:.25rem 0}
.copyright{margin:1.5rem 0 0;color:var(--muted);font-size:.875rem}
@media (max-width:72rem){.layout{grid-template-columns:15rem minmax(0,1fr)}.layout.no-sidebar{grid-template-columns:minmax(0,1fr)}.outline{display:none}}
@media (max-width:48rem){
.layout,.layout.no-outline,.layout.no-sidebar{grid-template-columns:minmax(0,1fr)}
.sidebar{position:static;max-height:none;order:2;border-top:1px solid var(--border);padding-top:1rem}
.menu-link{display:inline-block}
.menu-enhanced .sidebar{display:none}
.menu-enhanced.nav-open .sidebar{display:block;position:fixed;top:0;bottom:0;left:0;z-index:30;align-self:stretch;width:min(20rem,85vw);height:100vh;height:100dvh;max-height:none;margin:0;padding:3rem 1rem 1rem;overflow-y:auto;overscroll-behavior:contain;background:var(--bg);border:0;border-right:1px solid var(--border);box-shadow:0 0 0 100vmax rgb(0 0 0/.35)}
.menu-close{position:absolute;top:.5rem;right:.5rem;line-height:1}
.search-form{width:100%}.search-form input{flex:1;width:auto}
.page-header h1{font-size:1.75rem}
}
@media print{.site-header,.sidebar,.outline,.pagination,.site-footer,.skip-link,.announcement,.code-copy{display:none}.layout{display:block}.tablist{display:none}.tabpanel[hidden]{display:block}}
`;

/** `site.css?v=…`, the stylesheet's name under `~assets/` with a digest of its text: a new quire's pages never get an old stylesheet from a cache. */
export const SITE_CSS_ASSET = `site.css?v=${createHash('sha256').update(SITE_CSS).digest('base64url').slice(0, 12)}`;
