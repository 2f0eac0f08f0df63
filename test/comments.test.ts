/**
 * Every comment path of the public document through the SDK (`space-comments`, `space-comment`,
 * `change-request-comments`), each answer validated against the document: posting, reading in
 * both formats, listing with filters, order and pages, resolving and reopening, reactions, replies,
 * deleting (205, then 204), who commented, and the counters of spaces and change requests.
 */
import { describe, expect, it } from 'vitest';
import { http, sdk, sdkError } from './helpers/clients.js';
import { expectDocumented } from './helpers/documented.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

type Api = ReturnType<typeof sdk>;

const SPACE = '/spaces/{spaceId}';
const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';

/** A space with a page linking to another (merged), a change request left open, and a commenter. */
async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  const seed = (await api.spaces.createChangeRequest(space.id, { subject: 'Seed' })).data;
  const written = (
    await api.spaces.updateChangeRequestContent(
      space.id,
      seed.id,
      {
        changes: [
          { operation: 'insert_page', ref: 'a', title: 'Install', document: { markdown: 'Run it.\n' } },
          { operation: 'insert_page', ref: 'b', title: 'Guide', document: { markdown: 'Read it.\n' } },
        ],
      } as never,
      { compat: false },
    )
  ).data as any;
  await api.spaces.mergeChangeRequest(space.id, seed.id);
  const [install, guide] = written.changes.map((c: { page: { id: string } }) => c.page.id) as [string, string];
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Draft' })).data;
  const commenter = await createActor(server.db, { org: org.id, role: 'comment', name: 'Commenter' });
  return { org, owner, api, space, install, guide, cr, commenter, as: sdk(server.url, commenter.token) };
}

const openComments = async (api: Api, spaceId: string) => (await api.spaces.getSpaceById(spaceId)).data.comments;
const openInRequest = async (api: Api, spaceId: string, crId: string) => (await api.spaces.getChangeRequestById(spaceId, crId)).data.comments;

describe('space comments through the SDK', () => {
  it('posts, reads in both formats, resolves and reopens, reacts and deletes, each answer as documented', async () => {
    const { owner, api, space, install, guide, commenter, as } = await setup();
    const posted = (await as.spaces.postCommentInSpace(space.id, { page: install, body: { markdown: `See [the guide](/pages/${guide}).` } } as never)).data;
    expectDocumented('POST', `${SPACE}/comments`, '200', posted);
    expect(posted).toMatchObject({
      object: 'comment',
      id: expect.stringMatching(/^cmt_/),
      postedBy: { id: commenter.id },
      replies: 0,
      repliers: [],
      reactions: [],
      status: 'open',
      target: { space: space.id, page: { id: install } },
      body: { document: { object: 'document' } },
      permissions: { view: true, edit: true, reply: true, delete: true },
      outdated: false,
    });
    expect(posted.target.changeRequest).toBeUndefined();
    expect(await openComments(api, space.id)).toBe(1);

    const asMarkdown = (await api.spaces.getCommentInSpace(space.id, posted.id, { format: 'markdown' })).data;
    expectDocumented('GET', `${SPACE}/comments/{commentId}`, '200', asMarkdown);
    // The link was resolved when posted, and is written from where the comment is (the first page: README.md), not as a raw ID.
    expect(asMarkdown.body).toEqual({ markdown: 'See [the guide](guide.md).\n' });
    expect(asMarkdown.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });

    const resolved = (await api.spaces.updateCommentInSpace(space.id, posted.id, { resolved: true })).data;
    expectDocumented('PUT', `${SPACE}/comments/{commentId}`, '200', resolved);
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: owner.id }, resolvedAt: expect.any(String) });
    expect(await openComments(api, space.id)).toBe(0);
    const reopened = (await as.spaces.updateCommentInSpace(space.id, posted.id, { resolved: false, addedReactions: ['👍'] })).data;
    expectDocumented('PUT', `${SPACE}/comments/{commentId}`, '200', reopened);
    expect(reopened).toMatchObject({ status: 'open', reactions: [{ emoji: '👍', count: 1, users: [{ user: { id: commenter.id } }] }] });
    expect((reopened as { resolvedAt?: string }).resolvedAt).toBeUndefined();
    expect(await openComments(api, space.id)).toBe(1);

    const edited = (await as.spaces.updateCommentInSpace(space.id, posted.id, { body: { markdown: 'Fixed.' } } as never)).data;
    expect(edited.editedAt).toEqual(expect.any(String));
    expect((await sdkError(api.spaces.updateCommentInSpace(space.id, posted.id, { body: { markdown: 'Not mine' } } as never))).status).toBe(403);

    const deleted = await http(server.url, owner.token, 'DELETE', `/spaces/${space.id}/comments/${posted.id}`);
    expect(deleted.status).toBe(205);
    expect((await http(server.url, owner.token, 'DELETE', `/spaces/${space.id}/comments/${posted.id}`)).status).toBe(204);
    expect((await sdkError(api.spaces.getCommentInSpace(space.id, posted.id))).status).toBe(404);
    expect(await openComments(api, space.id)).toBe(0);
  });

  it('lists with status, targetPage, authors (repeated or comma-separated), order and pages', async () => {
    const { owner, api, space, install, guide, commenter, as } = await setup();
    const ids: string[] = [];
    for (const [client, page] of [
      [api, install],
      [as, guide],
      [api, guide],
      [as, null],
    ] as const) {
      ids.push((await client.spaces.postCommentInSpace(space.id, { body: { markdown: 'x' }, ...(page ? { page } : {}) } as never)).data.id);
    }
    await api.spaces.updateCommentInSpace(space.id, ids[2], { resolved: true });
    const list = async (query: string) => {
      const answer = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/comments${query}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expectDocumented('GET', `${SPACE}/comments`, '200', answer.body);
      return answer.body as { items: { id: string }[]; count: number; next?: { page: string } };
    };
    expect((await list('')).items.map((c) => c.id)).toEqual([...ids].reverse());
    expect((await list('?order=asc')).items.map((c) => c.id)).toEqual(ids);
    expect((await list('?status=resolved')).items.map((c) => c.id)).toEqual([ids[2]]);
    expect((await list(`?status=open&targetPage=${guide}`)).items.map((c) => c.id)).toEqual([ids[1]]);
    expect((await list(`?order=asc&authors=${commenter.id}`)).items.map((c) => c.id)).toEqual([ids[1], ids[3]]);
    expect((await list(`?order=asc&authors=${commenter.id},${owner.id}`)).count).toBe(4);
    expect((await list(`?order=asc&authors=${commenter.id}&authors=nobody`)).count).toBe(2);
    const markdown = await list('?format=markdown&limit=1');
    expect(markdown.items[0]).toMatchObject({ body: { markdown: 'x\n' } });
    const first = await list('?order=asc&limit=3');
    expect(first).toMatchObject({ count: 4, next: { page: expect.any(String) } });
    const second = await list(`?order=asc&limit=3&page=${encodeURIComponent(first.next!.page)}`);
    expect(second.items.map((c) => c.id)).toEqual([ids[3]]);
    expect(second.next).toBeUndefined();
    // Through the SDK too.
    expect((await api.spaces.listCommentsInSpace(space.id, { status: 'open', order: 'asc' })).data.items.map((c) => c.id)).toEqual([ids[0], ids[1], ids[3]]);
    for (const [query, field] of [
      ['?status=closed', 'status'],
      ['?order=up', 'order'],
      ['?format=html', 'format'],
      ['?limit=5000', 'limit'],
    ]) {
      const refused = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/comments${query}`);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(field);
    }
  });

  it('holds replies: post, list, read, edit, react, delete; lists commenters', async () => {
    const { owner, api, space, commenter, as } = await setup();
    const comment = (await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Question?' } } as never)).data;
    const reply = (await as.spaces.postCommentReplyInSpace(space.id, comment.id, { body: { markdown: 'Answer.' } } as never)).data;
    expectDocumented('POST', `${SPACE}/comments/{commentId}/replies`, '200', reply);
    expect(reply).toMatchObject({ object: 'comment-reply', id: expect.stringMatching(/^cmtr_/), postedBy: { id: commenter.id }, body: { document: { object: 'document' } } });
    const second = (await api.spaces.postCommentReplyInSpace(space.id, comment.id, { body: {} } as never)).data;

    const replies = (await api.spaces.listCommentRepliesInSpace(space.id, comment.id, { limit: 1 })).data;
    expectDocumented('GET', `${SPACE}/comments/{commentId}/replies`, '200', replies);
    expect(replies).toMatchObject({ count: 2, items: [{ id: reply.id }], next: { page: expect.any(String) } });
    const got = (await api.spaces.getCommentReplyInSpace(space.id, comment.id, reply.id, { format: 'markdown' })).data;
    expectDocumented('GET', `${SPACE}/comments/{commentId}/replies/{commentReplyId}`, '200', got);
    expect(got.body).toEqual({ markdown: 'Answer.\n' });
    const updated = (await as.spaces.updateCommentReplyInSpace(space.id, comment.id, reply.id, { body: { markdown: 'Better answer.' }, addedReactions: ['🎉'] } as never)).data;
    expectDocumented('PUT', `${SPACE}/comments/{commentId}/replies/{commentReplyId}`, '200', updated);
    expect(updated).toMatchObject({ editedAt: expect.any(String), reactions: [{ emoji: '🎉', count: 1 }] });

    const thread = (await api.spaces.getCommentInSpace(space.id, comment.id)).data;
    expect(thread).toMatchObject({ replies: 2, repliers: [{ user: { id: owner.id }, count: 1 }, { user: { id: commenter.id }, count: 1 }] });

    const commenters = (await api.spaces.listCommentersInSpace(space.id)).data;
    expectDocumented('GET', `${SPACE}/commenters`, '200', commenters);
    expect(commenters.count).toBe(2);
    expect(commenters.items.map((m) => m.user.id).sort()).toEqual([owner.id, commenter.id].sort());
    // By name, a page at a time ('Commenter' before 'Owner').
    const firstPage = (await api.spaces.listCommentersInSpace(space.id, { limit: 1 })).data;
    expect(firstPage).toMatchObject({ count: 2, items: [{ user: { id: commenter.id } }], next: { page: expect.any(String) } });
    const secondPage = (await api.spaces.listCommentersInSpace(space.id, { limit: 1, page: firstPage.next!.page })).data;
    expect(secondPage.items.map((m) => m.user.id)).toEqual([owner.id]);
    expect(secondPage.next).toBeUndefined();

    expect((await sdkError(as.spaces.deleteCommentReplyInSpace(space.id, comment.id, second.id))).status).toBe(403);
    expect((await http(server.url, commenter.token, 'DELETE', `/spaces/${space.id}/comments/${comment.id}/replies/${reply.id}`)).status).toBe(205);
    expect((await http(server.url, commenter.token, 'DELETE', `/spaces/${space.id}/comments/${comment.id}/replies/${reply.id}`)).status).toBe(204);
    expect((await api.spaces.getCommentInSpace(space.id, comment.id)).data.replies).toBe(1);
    const missing = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/comments/cmt_nope/replies`, { body: {} });
    expect(missing.status).toBe(404);
    const noBody = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/comments`, {});
    expect(noBody).toMatchObject({ status: 400 });
    expect(JSON.stringify(noBody.body)).toContain('body');
  });
});

describe('change-request comments through the SDK', () => {
  it('posts on the request and its pages (by ID or number), lists them apart from the space, and counts them', async () => {
    const { owner, api, space, guide, cr, commenter, as } = await setup();
    const onPage = (await as.spaces.postCommentInChangeRequest(space.id, cr.id, { page: guide, body: { markdown: 'Here?' } } as never)).data;
    expectDocumented('POST', `${CR}/comments`, '200', onPage);
    expect(onPage.target).toMatchObject({ space: space.id, changeRequest: cr.id, page: { id: guide } });
    const onRequest = (await api.spaces.postCommentInChangeRequest(space.id, String(cr.number), { body: { markdown: 'Overall fine.' } } as never)).data;
    expect(onRequest.target.changeRequest).toBe(cr.id);
    expect(onRequest.urls.location).toContain(`/spaces/${space.id}/change-requests/${cr.id}/comments/${onRequest.id}`);

    expect(await openInRequest(api, space.id, cr.id)).toBe(2);
    expect(await openComments(api, space.id)).toBe(0);
    expect((await api.spaces.listCommentsInSpace(space.id)).data.count).toBe(0);
    const listed = (await api.spaces.listCommentsInChangeRequest(space.id, cr.id, { order: 'asc' })).data;
    expectDocumented('GET', `${CR}/comments`, '200', listed);
    expect(listed.items.map((c) => c.id)).toEqual([onPage.id, onRequest.id]);
    // A comment of the request is not one of the space's, nor of another request.
    expect((await sdkError(api.spaces.getCommentInSpace(space.id, onPage.id))).status).toBe(404);
    const other = (await api.spaces.createChangeRequest(space.id, { subject: 'Other' })).data;
    expect((await sdkError(api.spaces.getCommentInChangeRequest(space.id, other.id, onPage.id))).status).toBe(404);

    const got = (await api.spaces.getCommentInChangeRequest(space.id, cr.id, onPage.id)).data;
    expectDocumented('GET', `${CR}/comments/{commentId}`, '200', got);
    const resolved = (await api.spaces.updateCommentInChangeRequest(space.id, cr.id, onPage.id, { resolved: true })).data;
    expectDocumented('PUT', `${CR}/comments/{commentId}`, '200', resolved);
    expect(await openInRequest(api, space.id, cr.id)).toBe(1);

    const reply = (await api.spaces.postCommentReplyInChangeRequest(space.id, cr.id, onPage.id, { body: { markdown: 'Yes.' } } as never)).data;
    expectDocumented('POST', `${CR}/comments/{commentId}/replies`, '200', reply);
    const replies = (await api.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, onPage.id)).data;
    expectDocumented('GET', `${CR}/comments/{commentId}/replies`, '200', replies);
    expect(replies.items.map((r) => r.id)).toEqual([reply.id]);
    const gotReply = (await api.spaces.getCommentReplyInChangeRequest(space.id, cr.id, onPage.id, reply.id)).data;
    expectDocumented('GET', `${CR}/comments/{commentId}/replies/{commentReplyId}`, '200', gotReply);
    const updatedReply = (await api.spaces.updateCommentReplyInChangeRequest(space.id, cr.id, onPage.id, reply.id, { addedReactions: ['✅'] } as never)).data;
    expectDocumented('PUT', `${CR}/comments/{commentId}/replies/{commentReplyId}`, '200', updatedReply);

    const commenters = (await api.spaces.listCommentersInChangeRequest(space.id, cr.id)).data;
    expectDocumented('GET', `${CR}/commenters`, '200', commenters);
    expect(commenters.count).toBe(2);

    const base = `/spaces/${space.id}/change-requests/${cr.id}/comments/${onPage.id}`;
    expect((await http(server.url, commenter.token, 'DELETE', `${base}/replies/${reply.id}`)).status).toBe(403);
    expect((await api.spaces.deleteCommentReplyInChangeRequest(space.id, cr.id, onPage.id, reply.id)).status).toBe(205);
    expect((await api.spaces.deleteCommentInChangeRequest(space.id, cr.id, onRequest.id)).status).toBe(205);
    expect((await api.spaces.deleteCommentInChangeRequest(space.id, cr.id, onRequest.id)).status).toBe(204);
    expect(await openInRequest(api, space.id, cr.id)).toBe(0);
    // An unknown request stays 404, even for a delete.
    expect((await http(server.url, owner.token, 'DELETE', `/spaces/${space.id}/change-requests/999/comments/${onPage.id}`)).status).toBe(404);
  });
});
