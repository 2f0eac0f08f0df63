/**
 * A space's own content through the public SDK (issue 23 §1): pages written in markdown and a
 * file in a change request, merged, then every read of the current revision and of a revision by
 * ID — pages, page by ID and path (document and markdown), meta-links, files, reusable contents,
 * bodies alone, documents by ID, what a revision changed, who contributed — each answer validated
 * against the public document's 200 schema. Plus the refusals: another organization's token and
 * another space's revision (404), unsupported or invalid parameters (400 naming them).
 */
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GitBookAPI } from '@gitbook/api';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();
const document = structuredClone(createRequire(import.meta.url)('@gitbook/api/spec/openapi.json'));
/*
 * Two unions of the SDK's TypeScript types that the document writes as `oneOf` although their
 * members overlap, so that no answer could match exactly one: read as the types mean them.
 * - `Document` (`MarkdownDocument | {document} | {}`), part of every page: its `{}` member, written
 *   with `additionalProperties: false`, means "neither `markdown` nor `document`" (pages in trees
 *   carry `documentId`, not their body).
 * - The attributes of `page_edited` (document, group or link attributes): every member accepts
 *   `{title}`; any one matching is what the type says.
 */
document.components.schemas.Document.oneOf[2] = { type: 'object', title: 'Empty', not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
const edited = document.components.schemas.RevisionSemanticChangePageEdited.properties.attributes;
edited.anyOf = edited.oneOf;
delete edited.oneOf;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(document, 'openapi');

/** Checks `body` against the documented 200 answer of `GET path` (path as documented). */
function conforms(path: string, body: unknown) {
  const pointer = `openapi#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  expect(validate(body), `${path}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
  return body as any;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let api: GitBookAPI;
let token: string;
let spaceId: string;
let crId: string;
let ids: { guide: string; install: string; file: string; content: string; merge: string; edits: string; cr2: string };

beforeAll(async () => {
  const { org, owner } = await createOrg(server.db);
  token = owner.token;
  api = sdk(server.url, token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  spaceId = space.id;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'First pages' })).data;
  crId = cr.id;
  const written = (
    await api.spaces.updateChangeRequestContent(
      space.id,
      cr.id,
      {
        changes: [
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide\n\nHello **world**.\n' } },
          { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG }] },
        ],
      } as never,
      { compat: false } as never,
    )
  ).data as any;
  const guide = written.changes.find((c: { ref?: string }) => c.ref === 'guide').page.id;
  const second = (
    await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Install', into: guide, document: { markdown: '# Install\n\nRun `npm install`.\n' } }] } as never, { compat: false } as never)
  ).data as any;
  const install = second.changes[0].page.id;
  const content = (await gqlOk(server.url, token, `mutation($s: ID!, $c: ID!) { createReusableContent(spaceId: $s, id: $c, title: "Warning", document: { markdown: "Do **not**." }) { id } }`, { s: space.id, c: cr.id })).createReusableContent;
  const merged = (await api.spaces.mergeChangeRequest(space.id, cr.id)).data;
  expect(merged.result).toBe('merge');
  // A second request edits the guide and removes the install page: its merge revision lists both.
  const cr2 = (await api.spaces.createChangeRequest(space.id, { subject: 'Edits' })).data;
  await api.spaces.updateChangeRequestContent(space.id, cr2.id, {
    changes: [
      { operation: 'update_page', page: guide, title: 'The guide', document: { markdown: '# The guide\n\nHello again.\n' } },
      { operation: 'delete_page', page: install },
      { operation: 'insert_page', title: 'FAQ', document: { markdown: `# FAQ\n\nNone yet: read [the guide](/pages/${guide}).\n` } },
    ],
  } as never);
  const edits = (await api.spaces.mergeChangeRequest(space.id, cr2.id)).data;
  ids = { guide, install, file: written.insertedFiles[0].id, content: content.id, merge: merged.revision!, edits: edits.revision!, cr2: cr2.id };
});

describe("a space's current content", () => {
  it('reads the revision, its pages, a page by ID and by path, files and reusable contents through the SDK', async () => {
    const revision = conforms('/spaces/{spaceId}/content', (await api.spaces.getCurrentRevision(spaceId)).data);
    expect(revision).toMatchObject({ object: 'revision', id: ids.edits, type: 'merge', parents: [ids.merge, expect.any(String)] });
    expect(revision.mergedFrom).toMatchObject({ object: 'change-request', subject: 'Edits' });
    expect(revision.pages.map((p: { title: string }) => p.title)).toEqual(['The guide', 'FAQ']);
    expect(revision.files.map((f: { id: string }) => f.id)).toEqual([ids.file]);

    const pages = conforms('/spaces/{spaceId}/content/pages', (await api.spaces.listPages(spaceId)).data);
    expect(pages.pages.map((p: { path: string }) => p.path)).toEqual(['guide', 'faq']);

    const byId = conforms('/spaces/{spaceId}/content/page/{pageId}', (await api.spaces.getPageById(spaceId, ids.guide)).data);
    expect(byId).toMatchObject({ id: ids.guide, title: 'The guide', path: 'guide', document: { object: 'document' } });
    const markdown = conforms('/spaces/{spaceId}/content/page/{pageId}', (await api.spaces.getPageById(spaceId, ids.guide, { format: 'markdown' })).data);
    expect(markdown.markdown).toContain('Hello again.');
    expect(markdown.document).toBeUndefined();

    const byPath = conforms('/spaces/{spaceId}/content/path/{pagePath}', (await api.spaces.getPageByPath(spaceId, 'faq', { format: 'markdown' })).data);
    expect(byPath).toMatchObject({ title: 'FAQ', path: 'faq' });
    expect(byPath.markdown).toContain('None yet: read');

    // Links to pages: relative paths (the default), or stable references on request.
    const relative = (await api.spaces.getPageByPath(spaceId, 'faq', { format: 'markdown', 'format.markdown.refs': 'relative' } as never)).data as any;
    // The guide is the first page: the root README.md of the git layout, beside faq.md.
    expect(relative.markdown).toContain('[the guide](README.md)');
    const stable = (await api.spaces.getPageByPath(spaceId, 'faq', { format: 'markdown', 'format.markdown.refs': 'stable' } as never)).data as any;
    expect(stable.markdown).toContain(`[the guide](/pages/${ids.guide})`);

    const meta = conforms('/spaces/{spaceId}/content/page/{pageId}/meta-links', (await api.spaces.listSpacePageMetaLinks(spaceId, ids.guide)).data);
    expect(meta).toEqual({ alternates: [] });

    const files = conforms('/spaces/{spaceId}/content/files', (await api.spaces.listFiles(spaceId)).data);
    expect(files).toMatchObject({ count: 1, items: [{ id: ids.file, name: 'logo.png', contentType: 'image/png', dimensions: { width: 1, height: 1 } }] });
    conforms('/spaces/{spaceId}/content/files/{fileId}', (await api.spaces.getFileById(spaceId, ids.file)).data);

    const content = conforms('/spaces/{spaceId}/content/reusable-contents/{reusableContentId}', (await api.spaces.getReusableContentById(spaceId, ids.content)).data);
    expect(content).toMatchObject({ id: ids.content, title: 'Warning', document: expect.stringMatching(/^doc_/) });
    const body = conforms('/spaces/{spaceId}/documents/{documentId}', (await api.spaces.getDocumentById(spaceId, content.document)).data);
    expect(JSON.stringify(body)).toContain('not');
    expect(byId.documentId).toBeDefined();
    conforms('/spaces/{spaceId}/documents/{documentId}', (await api.spaces.getDocumentById(spaceId, byId.documentId)).data);
  });

  it('answers 404 for what is not there, and for another organization', async () => {
    expect((await sdkError(api.spaces.getPageByPath(spaceId, 'nowhere'))).status).toBe(404);
    expect((await sdkError(api.spaces.getPageById(spaceId, ids.install))).status).toBe(404);
    expect((await sdkError(api.spaces.getFileById(spaceId, 'file_nothing'))).status).toBe(404);
    expect((await sdkError(api.spaces.getDocumentById(spaceId, 'doc_nothing'))).status).toBe(404);
    const stranger = sdk(server.url, (await createOrg(server.db)).owner.token);
    const calls = [
      () => stranger.spaces.getCurrentRevision(spaceId),
      () => stranger.spaces.listPages(spaceId),
      () => stranger.spaces.getPageByPath(spaceId, 'guide'),
      () => stranger.spaces.getRevisionById(spaceId, ids.merge),
      () => stranger.spaces.listFiles(spaceId),
      () => stranger.spaces.getDocumentById(spaceId, 'doc_x'),
      () => stranger.spaces.getContributorsByChangeRequestId(spaceId, crId),
    ];
    for (const call of calls) expect((await sdkError(call())).status).toBe(404);
  });

  it('refuses invalid and unsupported parameters with a 400 naming them', async () => {
    const cases: [string, string][] = [
      ['format=html', 'format'],
      ['format=markdown&format.markdown.refs=absolute', 'format.markdown.refs'],
      ['evaluated=true', 'evaluated'],
      ['dereferenced=reusable-contents', 'dereferenced'],
      ['metadata=maybe', 'metadata'],
      ['computed=1', 'computed'],
    ];
    for (const [query, name] of cases) {
      const answer = await http(server.url, token, 'GET', `/spaces/${spaceId}/content/page/${ids.guide}?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.message, query).toContain(`"${name}`);
    }
    const bad = await sdkError(api.spaces.getPageByPath(spaceId, 'guide', { format: 'pdf' as never }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('format');
    expect((await http(server.url, token, 'GET', `/spaces/${spaceId}/content/page/${ids.guide}?evaluated=false&dereferenced=false&metadata=false&computed=false`)).status).toBe(200);
    const schema = await http(server.url, token, 'GET', `/spaces/${spaceId}/documents/doc_x?schema=next`);
    expect([schema.status, schema.body.error.message]).toEqual([400, expect.stringContaining('schema')]);
  });
});

describe('revisions by ID', () => {
  it('reads an older revision as it was', async () => {
    const revision = conforms('/spaces/{spaceId}/revisions/{revisionId}', (await api.spaces.getRevisionById(spaceId, ids.merge)).data);
    expect(revision).toMatchObject({ id: ids.merge, type: 'merge', mergedFrom: { id: crId } });
    const pages = conforms('/spaces/{spaceId}/revisions/{revisionId}/pages', (await api.spaces.listPagesInRevisionById(spaceId, ids.merge)).data);
    expect(pages.pages).toMatchObject([{ title: 'Guide', pages: [{ title: 'Install', path: 'guide/install' }] }]);
    const page = conforms('/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}', (await api.spaces.getPageInRevisionById(spaceId, ids.merge, ids.install, { format: 'markdown' })).data);
    expect(page.markdown).toContain('npm install');
    const byPath = conforms('/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}', (await api.spaces.getPageInRevisionByPath(spaceId, ids.merge, 'guide/install')).data);
    expect(byPath.id).toBe(ids.install);
    const body = conforms('/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document', (await api.spaces.getPageDocumentInRevisionById(spaceId, ids.merge, ids.guide)).data);
    expect(JSON.stringify(body)).toContain('world');
    conforms('/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links', (await api.spaces.listRevisionPageMetaLinks(spaceId, ids.merge, ids.install)).data);
    conforms('/spaces/{spaceId}/revisions/{revisionId}/files', (await api.spaces.listFilesInRevisionById(spaceId, ids.merge, { limit: 1 })).data);
    conforms('/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}', (await api.spaces.getFileInRevisionById(spaceId, ids.merge, ids.file)).data);
    conforms('/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}', (await api.spaces.getReusableContentInRevisionById(spaceId, ids.merge, ids.content)).data);
    const content = conforms(
      '/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document',
      (await api.spaces.getReusableContentDocumentInRevisionById(spaceId, ids.merge, ids.content)).data,
    );
    expect(JSON.stringify(content)).toContain('not');
    // A change request's own revision is a revision of the space too.
    const cr = (await api.spaces.getChangeRequestById(spaceId, crId)).data;
    expect((await api.spaces.getRevisionById(spaceId, cr.revision)).data.id).toBe(cr.revision);
  });

  it('lists what a merge changed against its parent', async () => {
    const first = conforms('/spaces/{spaceId}/revisions/{revisionId}/changes', (await api.spaces.getRevisionSemanticChanges(spaceId, ids.merge)).data);
    expect(first.mergedFrom).toMatchObject({ id: crId });
    const kinds = (changes: { type: string; page?: { title: string } }[]) => changes.map((c) => `${c.type}:${c.page?.title ?? ''}`).sort();
    expect(kinds(first.changes)).toEqual(['file_created:', 'page_created:Guide', 'page_created:Install', 'reusable_content_created:']);
    const second = conforms('/spaces/{spaceId}/revisions/{revisionId}/changes', (await api.spaces.getRevisionSemanticChanges(spaceId, ids.edits)).data);
    expect(kinds(second.changes)).toEqual(['page_created:FAQ', 'page_deleted:Install', 'page_edited:The guide']);
    const edited = second.changes.find((c: { type: string }) => c.type === 'page_edited');
    expect(edited.attributes.title).toEqual({ before: 'Guide', after: 'The guide' });
    const limited = (await api.spaces.getRevisionSemanticChanges(spaceId, ids.edits, { limit: 1 })).data;
    expect([limited.changes.length, limited.more]).toEqual([1, 2]);
    // A change request's revision: what its batch changed against the request's revision before it.
    const head = (await api.spaces.getChangeRequestById(spaceId, ids.cr2)).data.revision;
    const own = conforms('/spaces/{spaceId}/revisions/{revisionId}/changes', (await api.spaces.getRevisionSemanticChanges(spaceId, head)).data);
    expect(kinds(own.changes)).toEqual(['page_created:FAQ', 'page_deleted:Install', 'page_edited:The guide']);
    expect(own.mergedFrom).toBeUndefined();
    const initial = (await api.spaces.getRevisionById(spaceId, head)).data.parents[0];
    expect((await api.spaces.getRevisionSemanticChanges(spaceId, initial)).data.changes).toEqual([]);
  });

  it("answers 404 for another space's revision and for one that does not exist", async () => {
    const other = (await api.orgs.createSpace((await api.spaces.getSpaceById(spaceId)).data.organization, { title: 'Other' })).data;
    expect((await sdkError(api.spaces.getRevisionById(other.id, ids.merge))).status).toBe(404);
    expect((await sdkError(api.spaces.listPagesInRevisionById(other.id, ids.merge))).status).toBe(404);
    expect((await sdkError(api.spaces.getRevisionSemanticChanges(other.id, ids.merge))).status).toBe(404);
    expect((await sdkError(api.spaces.getRevisionById(spaceId, 'rev_nothing'))).status).toBe(404);
    expect((await sdkError(api.spaces.getPageDocumentInRevisionById(spaceId, ids.edits, ids.install))).status).toBe(404);
  });
});

describe('contributors of a change request', () => {
  it('lists who wrote its revisions', async () => {
    const answer = conforms('/spaces/{spaceId}/change-requests/{changeRequestId}/contributors', (await api.spaces.getContributorsByChangeRequestId(spaceId, crId)).data);
    expect(answer.items).toHaveLength(1);
    expect(answer.items[0]).toMatchObject({ actionType: 'edit', user: { object: 'user' } });
    expect(answer.items[0].count).toBeGreaterThanOrEqual(3);
  });
});

describe("search and PDF of a space's current content", () => {
  it('finds the merged pages, a page of results at a time', async () => {
    const found = conforms('/spaces/{spaceId}/search', (await api.spaces.searchSpaceContent(spaceId, { query: 'again' })).data);
    expect(found).toMatchObject({ count: 1, items: [{ id: ids.guide, title: 'The guide', path: 'guide', rank: 1 }] });
    expect(found.items[0].sections[0].body).toContain('again');
    const first = conforms('/spaces/{spaceId}/search', (await api.spaces.searchSpaceContent(spaceId, { query: 'again or yet', limit: 1 })).data);
    expect([first.count, first.items.length]).toEqual([2, 1]);
    const second = (await api.spaces.searchSpaceContent(spaceId, { query: 'again or yet', limit: 1, page: first.next.page })).data;
    expect([...first.items, ...second.items].map((p: { title: string }) => p.title).sort()).toEqual(['FAQ', 'The guide']);
    expect(second.next).toBeUndefined();
    // Removed pages are not found; the query is required.
    expect((await api.spaces.searchSpaceContent(spaceId, { query: 'npm' })).data.items).toEqual([]);
    expect((await http(server.url, token, 'GET', `/spaces/${spaceId}/search`)).status).toBe(400);
  });

  it('answers a signed URL of a PDF of the current content', async () => {
    const { data } = await api.spaces.getSpacePdf(spaceId);
    conforms('/spaces/{spaceId}/pdf', data);
    const url = new URL(data.url);
    const response = await fetch(`${server.url}${url.pathname}${url.search}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="handbook.pdf"');
    expect((await sdkError(api.spaces.getSpacePdf(spaceId, { page: ids.install }))).status).toBe(404);
  });
});
