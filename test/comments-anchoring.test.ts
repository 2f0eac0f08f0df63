/**
 * Comments anchored to a page and a block of it: a comment on a block survives edits of the page's
 * other blocks and their merge, and becomes outdated once its block, or its page, is gone; a
 * change request's comment is anchored to the request's own content; `Page.commentThreads` lists a
 * page's comments where the page was read from; and `outdated` costs the same statements for a few
 * comments as for many.
 */
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, sdk } from './helpers/clients.js';
import { createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

type Api = ReturnType<typeof sdk>;

/** Writes `changes` in a new change request and merges it; answers the batch's answer. */
async function merged(api: Api, spaceId: string, changes: unknown[]) {
  const cr = (await api.spaces.createChangeRequest(spaceId, { subject: 'Edit' })).data;
  const written = (await api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes } as never, { compat: false })).data as any;
  await api.spaces.mergeChangeRequest(spaceId, cr.id);
  return written;
}

async function keysOf(actor: Actor, spaceId: string, pageId: string): Promise<string[]> {
  const data = await gqlOk(server.url, actor.token, `query($s: ID!, $p: ID!) { space(id: $s) { revision { page(id: $p) { document } } } }`, { s: spaceId, p: pageId });
  return data.space.revision.page.document.nodes.map((n: { key: string }) => n.key);
}

const post = (actor: Actor, variables: Record<string, unknown>) =>
  gql(server.url, actor.token, `mutation($s: ID!, $c: ID, $page: ID, $node: String) { comment: postComment(spaceId: $s, changeRequestId: $c, page: $page, node: $node, body: {}) { id outdated } }`, variables);

const outdated = async (actor: Actor, spaceId: string, id: string): Promise<boolean> =>
  (await gqlOk(server.url, actor.token, `query($s: ID!, $id: ID!) { space(id: $s) { comment(id: $id) { outdated } } }`, { s: spaceId, id })).space.comment.outdated;

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  const written = await merged(api, space.id, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: 'Intro.\n\nThe step.\n\nOutro.\n' } },
    { operation: 'insert_page', title: 'Other', document: { markdown: 'Other page.\n' } },
  ]);
  const [guide, other] = written.changes.map((c: { page: { id: string } }) => c.page.id) as [string, string];
  return { owner, api, space, guide, other };
}

describe('comments anchored to pages and blocks', () => {
  it('stay on their block through edits of other blocks and merges, and are outdated once the block or the page is gone', async () => {
    const { owner, api, space, guide, other } = await setup();
    const [, step] = await keysOf(owner, space.id, guide);
    const onStep = (await post(owner, { s: space.id, page: guide, node: step })).data!.comment;
    const onPage = (await post(owner, { s: space.id, page: guide })).data!.comment;
    const onOther = (await post(owner, { s: space.id, page: other })).data!.comment;
    expect([onStep.outdated, onPage.outdated, onOther.outdated]).toEqual([false, false, false]);

    // Other blocks change: the step keeps its key, the comment stays current.
    await merged(api, space.id, [{ operation: 'update_page', page: guide, document: { markdown: 'A new intro.\n\nThe step.\n\nA new outro.\n\nMore.\n' } }]);
    expect((await keysOf(owner, space.id, guide))[1]).toBe(step);
    expect(await outdated(owner, space.id, onStep.id)).toBe(false);

    // The step's block goes: outdated; the page's own comment is not.
    await merged(api, space.id, [{ operation: 'update_page', page: guide, document: { markdown: 'A new intro.\n\nA new outro.\n' } }]);
    expect(await outdated(owner, space.id, onStep.id)).toBe(true);
    expect(await outdated(owner, space.id, onPage.id)).toBe(false);

    // The page goes: every comment on it is outdated, those elsewhere are not.
    await merged(api, space.id, [{ operation: 'delete_page', page: guide }]);
    expect(await outdated(owner, space.id, onPage.id)).toBe(true);
    expect(await outdated(owner, space.id, onOther.id)).toBe(false);
    // An outdated comment is still listed, and says so.
    const listed = await gqlOk(server.url, owner.token, `query($s: ID!) { space(id: $s) { commentThreads(order: asc) { edges { node { id outdated } } } } }`, { s: space.id });
    expect(listed.space.commentThreads.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { id: onStep.id, outdated: true },
      { id: onPage.id, outdated: true },
      { id: onOther.id, outdated: false },
    ]);
    // And a new comment cannot be posted on the deleted page.
    expect((await post(owner, { s: space.id, page: guide })).errors?.[0].message).toContain('"page"');
  });

  it("anchors a change request's comments to the request's content, and lists a page's comments where it was read", async () => {
    const { owner, api, space, guide } = await setup();
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'New page' })).data;
    const written = (await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Draft text.\n' } }] } as never, { compat: false }))
      .data as any;
    const draft: string = written.changes[0].page.id;
    const draftKeys = (await gqlOk(server.url, owner.token, `query($s: ID!, $c: ID!, $p: ID!) { space(id: $s) { changeRequest(id: $c) { revision { page(id: $p) { document } } } } }`, { s: space.id, c: cr.id, p: draft }))
      .space.changeRequest.revision.page.document.nodes.map((n: { key: string }) => n.key);

    // The draft page exists in the request only.
    const inRequest = await post(owner, { s: space.id, c: cr.id, page: draft, node: draftKeys[0] });
    expect(inRequest.errors).toBeUndefined();
    expect(inRequest.data!.comment.outdated).toBe(false);
    expect((await post(owner, { s: space.id, page: draft })).errors?.[0].message).toContain('"page"');
    const onGuideInRequest = (await post(owner, { s: space.id, c: cr.id, page: guide })).data!.comment;
    const onGuideInSpace = (await post(owner, { s: space.id, page: guide })).data!.comment;

    const pageThreads = `commentThreads(order: asc) { totalCount edges { node { id changeRequestId } } }`;
    const read = await gqlOk(
      server.url,
      owner.token,
      `query($s: ID!, $c: ID!, $g: ID!, $d: ID!) { space(id: $s) {
        revision { page(id: $g) { ${pageThreads} } }
        changeRequest(id: $c) { revision { guide: page(id: $g) { ${pageThreads} } draft: page(id: $d) { ${pageThreads} } } } } }`,
      { s: space.id, c: cr.id, g: guide, d: draft },
    );
    const ids = (threads: { edges: { node: { id: string } }[] }) => threads.edges.map((e) => e.node.id);
    expect(ids(read.space.revision.page.commentThreads)).toEqual([onGuideInSpace.id]);
    expect(ids(read.space.changeRequest.revision.guide.commentThreads)).toEqual([onGuideInRequest.id]);
    expect(ids(read.space.changeRequest.revision.draft.commentThreads)).toEqual([inRequest.data!.comment.id]);

    // Merged, the request's comment stays the request's: the space's threads do not take it.
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const after = await gqlOk(server.url, owner.token, `query($s: ID!) { space(id: $s) { comments commentThreads { totalCount } } }`, { s: space.id });
    expect(after.space).toEqual({ comments: 1, commentThreads: { totalCount: 1 } });
  });

  it('reads `outdated` for a page of comments in the same number of statements for 3 comments as for 12', async () => {
    const { owner, api, space } = await setup();
    const many = await merged(
      api,
      space.id,
      Array.from({ length: 12 }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `Text ${i}.\n` } })),
    );
    const pages: string[] = many.changes.map((c: { page: { id: string } }) => c.page.id);
    for (const page of pages) {
      const [key] = await keysOf(owner, space.id, page);
      expect((await post(owner, { s: space.id, page, node: key })).errors).toBeUndefined();
    }
    const statements = async (first: number) => {
      const query = `query($s: ID!) { space(id: $s) { commentThreads(first: ${first}) { edges { node { id outdated repliers { count } reactions { emoji } permissions { edit } } } } } }`;
      await gqlOk(server.url, owner.token, query, { s: space.id });
      const before = server.queries.length;
      const data = await gqlOk(server.url, owner.token, query, { s: space.id });
      expect(data.space.commentThreads.edges).toHaveLength(first);
      return server.queries.length - before;
    };
    expect(await statements(12)).toBe(await statements(3));
  });
});
