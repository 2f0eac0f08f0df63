// The families of the public API document quire leaves out on purpose, each with its reason:
// read by public-paths.mjs (the router's 501 answers name the reason) and api-coverage.mjs (the
// README's figure). An operation is { key: 'GET /path', path, tags }.
/** The first rule an operation matches names its family. */
export const OUT_OF_SCOPE = [
  {
    area: 'Integrations',
    why: 'third-party apps that run on the real service\'s integration platform; quire offers the API and webhooks instead',
    match: (op) => op.tags.some((t) => t.includes('integration')) || /\/integrations?\b|\/installations\b|integration-/.test(op.path),
  },
  {
    area: 'Git providers\' apps',
    why: 'GitHub App and GitLab installations; quire syncs with any git server over HTTPS (docs/git-sync.md)',
    match: (op) => op.tags.includes('git'),
  },
  {
    area: 'AI',
    why: 'ask, agents and their channels, conversations and instructions, MCP servers, site context, findings and questions, AI translation runs and their glossary: quire runs no language model',
    match: (op) =>
      op.tags.some((t) => /-ask$|^organization-ask$|-ai$|agent|site-questions|site-channels|mcp|site-context|conversations|glossary/.test(t)) ||
      /\/agent[-/]|\/ask\b|\/translations\/\{translationId\}\/run$/.test(op.path),
  },
  { area: 'Insights', why: 'visitor analytics of published sites', match: (op) => op.tags.includes('site-insights') },
  { area: 'Ads', why: 'advertising on published sites', match: (op) => op.tags.includes('site-ads') },
  { area: 'Billing', why: 'the real service\'s plans and AI usage', match: (op) => op.tags.includes('billing') },
  { area: 'Style guides', why: 'AI-checked writing rules', match: (op) => /styleguide/.test(op.path) },
  {
    area: 'In-app notifications',
    why: 'a token for the real service\'s notification service; quire notifies by e-mail and webhooks',
    match: (op) => op.path === '/user/notifications/token',
  },
  {
    area: 'Computed content',
    why: 'documents computed by integrations\' content sources',
    match: (op) => /\/content\/computed\//.test(op.path),
  },
];

/** The family `op` belongs to, if quire leaves it out. */
export const outOfScope = (op) => OUT_OF_SCOPE.find((rule) => rule.match(op));
