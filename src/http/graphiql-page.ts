/**
 * The GraphiQL page yoga answers a browser at /graphql with: a few KB of HTML that links to the
 * cacheable assets (graphiql-assets.ts) instead of inlining 9 MB of them, opens on a welcome
 * that says what quire is with a query that works, and refetches the schema when the headers
 * editor changes (GraphiQL fetches it once, on load, with the headers of that moment: before a
 * token was set, the docs explorer stayed empty until one found the refetch button).
 */
import type { GraphiQLOptions } from 'graphql-yoga';
import { graphiqlAssets } from './graphiql-assets.js';

export const GRAPHIQL_WELCOME = `# quire: the management API of a self-hosted
# documentation platform. Organizations, spaces of pages,
# change requests and reviews, published sites, members,
# comments and webhooks: all that the REST API at /v1
# does is a query or a mutation here (see Docs, left).
#
# Put your API token in the Headers tab below:
#   {"Authorization": "Bearer quire_…"}
# (\`quire admin create-org\` prints the first one); the
# schema reloads as soon as the header changes.
#
# Run with Ctrl-Enter or the play button.

{
  viewer {
    email
    displayName
  }
  organizations(first: 10) {
    edges {
      node {
        id
        title
        spaces(first: 5) {
          edges {
            node {
              id
              title
            }
          }
        }
      }
    }
  }
}
`;

/** What the page starts with, unless the browser kept the user's own tabs and headers. */
export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: 'quire',
  defaultQuery: GRAPHIQL_WELCOME,
  headers: JSON.stringify({ Authorization: 'Bearer <token>' }, null, 2),
  // The headers editor (and so the token) is kept in this browser's storage across visits.
  shouldPersistHeaders: true,
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script> element: nothing in it may close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * Runs in the browser, after the GraphiQL script: workers from their own URLs (no blob copies),
 * and a schema refetch (GraphiQL's own button, the only handle the bundle exposes) once the
 * headers have stayed put for a moment and parse into something new.
 */
const BOOT = `
const assets = JSON.parse(document.getElementById('graphiql-assets').textContent);
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (moduleId, label) => assets.workers[label] };
const options = JSON.parse(document.getElementById('graphiql-options').textContent);
let introspectedWith = null;
let timer;
function refetchSchema() {
  const button = document.querySelector('button[aria-label^="Re-fetch GraphQL schema"]');
  if (!button || button.disabled) return void (timer = setTimeout(refetchSchema, 250));
  button.click();
}
options.onEditHeaders = (text) => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    let headers;
    try { headers = JSON.stringify(JSON.parse(text.trim() || '{}')); } catch { return; }
    if (headers === introspectedWith) return;
    introspectedWith = headers;
    refetchSchema();
  }, 400);
};
YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
`;

/** The page for yoga's `renderGraphiQL` (yoga passes the options of createYoga's `graphiql`). */
export async function renderGraphiQLPage(options: GraphiQLOptions): Promise<string> {
  const { script, style, favicon, editorWorker, jsonWorker, graphqlWorker } = await graphiqlAssets();
  const workers = { editorWorkerService: editorWorker.path, json: jsonWorker.path, graphql: graphqlWorker.path };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title ?? 'quire')}</title>
<link rel="icon" href="${favicon.path}">
<link rel="stylesheet" href="${style.path}">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript. Without it, POST queries to this URL (see the README).</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-assets">${scriptJson({ workers })}</script>
<script type="application/json" id="graphiql-options">${scriptJson(options)}</script>
<script src="${script.path}"></script>
<script>${BOOT}</script>
</body>
</html>
`;
}
