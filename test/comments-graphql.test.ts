/**
 * Comments and replies through GraphQL: posting (markdown, documents, empty bodies; on a page and a
 * block of it), the space's threads with their filters, order and pages, resolving and reopening,
 * reactions, editing (its author only), deleting (replies go too), the counters the triggers keep,
 * the events in the outbox, `node(id)`, and what `permissions` says.
 */
import { describe, expect, it } from 'vitest';
import { gql, gqlOk, sdk } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { postSubscription, sseResults } from './helpers/sse.js';

const server = useServer();

const COMMENT = `id spaceId changeRequestId pageId nodeKey tableCell revisionId status resolvedAt resolvedBy { id } outdated body markdown
  postedBy { id } postedAt editedAt replyCount repliers { user { id } count updatedAt } reactions { emoji count users { user { id } reactedAt } }
  permissions { view edit reply delete } urls { location }`;
const REPLY = `id commentId spaceId changeRequestId body markdown postedBy { id } postedAt editedAt reactions { emoji count users { user { id } } } permissions { view edit reply delete } urls { location }`;

/** An organization with a space holding one page (its key-bearing paragraphs), and people of each role. */
async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Seed' })).data;
  const written = (
    await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'First.\n\nSecond.\n' } }] as never }, { compat: false })
  ).data as any;
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  const pageId: string = written.changes[0].page.id;
  const [writer, reader, commenter] = await Promise.all([
    createActor(server.db, { org: org.id, role: 'edit', name: 'Writer' }),
    createActor(server.db, { org: org.id, role: 'read', name: 'Reader' }),
    createActor(server.db, { org: org.id, role: 'comment', name: 'Commenter' }),
  ]);
  const doc = await gqlOk(server.url, owner.token, `query($s: ID!, $p: ID!) { space(id: $s) { revision { page(id: $p) { document } } } }`, { s: space.id, p: pageId });
  const keys: string[] = doc.space.revision.page.document.nodes.map((n: { key: string }) => n.key);
  return { org, owner, api, space, pageId, keys, writer, reader, commenter };
}

const post = (actor: Actor, variables: Record<string, unknown>) =>
  gqlOk(
    server.url,
    actor.token,
    `mutation($s: ID!, $c: ID, $page: ID, $node: String, $cell: JSON, $body: JSON!) {
      comment: postComment(spaceId: $s, changeRequestId: $c, page: $page, node: $node, tableCell: $cell, body: $body) { ${COMMENT} } }`,
    variables,
  ).then((d) => d.comment);

const update = (actor: Actor, variables: Record<string, unknown>) =>
  gql(
    server.url,
    actor.token,
    `mutation($s: ID!, $id: ID!, $body: JSON, $resolved: Boolean, $add: [String!], $remove: [String!]) {
      comment: updateComment(spaceId: $s, id: $id, body: $body, resolved: $resolved, addedReactions: $add, removedReactions: $remove) { ${COMMENT} } }`,
    variables,
  );

const threads = (actor: Actor, spaceId: string, args = '') =>
  gqlOk(server.url, actor.token, `query($s: ID!) { space(id: $s) { comments commentThreads${args} { totalCount pageInfo { hasNextPage endCursor } edges { node { id status } } } } }`, { s: spaceId }).then(
    (d) => d.space,
  );

const eventsOf = (subjectId: string) => server.db.outboxEvent.findMany({ where: { subjectId }, orderBy: { seq: 'asc' } });

describe('comments through GraphQL', () => {
  it('posts comments on the content, a page and a block of it, from markdown, documents or nothing', async () => {
    const { owner, space, pageId, keys, commenter } = await setup();
    const onBlock = await post(commenter, { s: space.id, page: pageId, node: keys[1], body: { markdown: '# Why\n\nIs this **right**?' } });
    expect(onBlock).toMatchObject({
      spaceId: space.id,
      changeRequestId: null,
      pageId,
      nodeKey: keys[1],
      revisionId: expect.stringMatching(/^rev_/),
      status: 'open',
      resolvedAt: null,
      outdated: false,
      postedBy: { id: commenter.id },
      editedAt: null,
      replyCount: 0,
      repliers: [],
      reactions: [],
      permissions: { view: true, edit: true, reply: true, delete: true },
      urls: { location: expect.stringContaining(`/v1/spaces/${space.id}/comments/${onBlock.id}`) },
    });
    // A leading heading stays in the body: a comment has no title.
    expect(onBlock.body.nodes.map((n: { type: string }) => n.type)).toEqual(['heading-1', 'paragraph']);
    // The dialect writes a body's heading-1 as `##` (`#` is a page's title) and reads it back the same.
    expect(onBlock.markdown).toBe('## Why\n\nIs this **right**?\n');

    const document = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Plain.', marks: [] }] }] }] };
    const fromDocument = await post(owner, { s: space.id, body: { document }, cell: { record: 'r1', definition: 'd1' }, page: pageId });
    expect(fromDocument.body.nodes[0]).toMatchObject({ type: 'paragraph', key: expect.any(String) });
    expect(fromDocument.tableCell).toEqual({ record: 'r1', definition: 'd1' });
    expect(fromDocument.markdown).toBe('Plain.\n');
    const empty = await post(owner, { s: space.id, body: {} });
    expect(empty).toMatchObject({ pageId: null, nodeKey: null, body: { object: 'document', nodes: [] } });

    const space2 = await threads(owner, space.id);
    expect(space2.comments).toBe(3);
    expect(space2.commentThreads.totalCount).toBe(3);
    expect(space2.commentThreads.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([empty.id, fromDocument.id, onBlock.id]);

    const [created] = await eventsOf(onBlock.id);
    expect(created).toMatchObject({ kind: 'commentCreated', spaceId: space.id, actorId: commenter.id, data: { pageId, mentions: [] } });
  });

  it('refuses what is not a comment: unknown pages and nodes, a node without its page, bodies too long or malformed', async () => {
    const { owner, space, pageId } = await setup();
    const refusal = async (variables: Record<string, unknown>, field: string) => {
      const result = await gql(server.url, owner.token, `mutation($s: ID!, $page: ID, $node: String, $cell: JSON, $body: JSON!) { postComment(spaceId: $s, page: $page, node: $node, tableCell: $cell, body: $body) { id } }`, {
        s: space.id,
        ...variables,
      });
      expect(result.errors?.[0], JSON.stringify(result)).toMatchObject({ message: expect.stringContaining(`"${field}`), extensions: { code: 'BAD_REQUEST' } });
    };
    await refusal({ page: 'page_nope', body: {} }, 'page');
    await refusal({ page: pageId, node: 'no-such-key', body: {} }, 'node');
    await refusal({ node: 'k', body: {} }, 'node');
    await refusal({ body: { markdown: 'x'.repeat(20_001) } }, 'body.markdown');
    await refusal({ body: { html: '<p>' } }, 'body');
    await refusal({ body: { document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', data: { big: 'x'.repeat(110_000) }, nodes: [] }] } } }, 'body');
    await refusal({ body: {}, cell: { record: 'r' } }, 'tableCell.definition');
    expect((await threads(owner, space.id)).commentThreads.totalCount).toBe(0);
  });

  it('resolves and reopens, reacts, edits (its author only) and keeps the counters true', async () => {
    const { owner, space, commenter, reader } = await setup();
    const comment = await post(commenter, { s: space.id, body: { markdown: 'Typo here.' } });
    expect((await threads(owner, space.id)).comments).toBe(1);

    const resolved = (await update(owner, { s: space.id, id: comment.id, resolved: true })).data!.comment;
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: owner.id }, resolvedAt: expect.any(String) });
    expect((await threads(owner, space.id)).comments).toBe(0);
    expect((await threads(owner, space.id, '(status: open)')).commentThreads.totalCount).toBe(0);
    expect((await threads(owner, space.id, '(status: resolved)')).commentThreads.totalCount).toBe(1);
    const reopened = (await update(commenter, { s: space.id, id: comment.id, resolved: false })).data!.comment;
    expect(reopened).toMatchObject({ status: 'open', resolvedBy: null, resolvedAt: null });
    expect((await threads(owner, space.id)).comments).toBe(1);

    await update(owner, { s: space.id, id: comment.id, add: ['👍', '🎉'] });
    const reacted = (await update(commenter, { s: space.id, id: comment.id, add: ['👍', '👍'] })).data!.comment;
    expect(reacted.reactions).toMatchObject([
      { emoji: '👍', count: 2, users: [{ user: { id: owner.id } }, { user: { id: commenter.id } }] },
      { emoji: '🎉', count: 1 },
    ]);
    const unreacted = (await update(owner, { s: space.id, id: comment.id, remove: ['👍', '🚀'] })).data!.comment;
    // Emojis in the order of their oldest reaction.
    expect(unreacted.reactions).toMatchObject([{ emoji: '🎉', count: 1 }, { emoji: '👍', count: 1, users: [{ user: { id: commenter.id } }] }]);
    const tooMany = await update(owner, { s: space.id, id: comment.id, add: Array.from({ length: 21 }, (_, i) => `e${i}`) });
    expect(tooMany.errors?.[0].message).toContain('"addedReactions"');
    const tooLong = await update(owner, { s: space.id, id: comment.id, add: ['x'.repeat(33)] });
    expect(tooLong.errors?.[0].message).toContain('"addedReactions.0"');

    // Someone else's body: refused, even to an admin; a reader may do nothing.
    expect((await update(owner, { s: space.id, id: comment.id, body: { markdown: 'Mine now' } })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await update(reader, { s: space.id, id: comment.id, resolved: true })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const edited = (await update(commenter, { s: space.id, id: comment.id, body: { markdown: 'Typo fixed?' } })).data!.comment;
    expect(edited).toMatchObject({ markdown: 'Typo fixed?\n', editedAt: expect.any(String) });

    const kinds = (await eventsOf(comment.id)).map((e) => [e.kind, (e.data as { fields?: string[] }).fields]);
    expect(kinds).toEqual([
      ['commentCreated', undefined],
      ['commentUpdated', ['status']],
      ['commentUpdated', ['status']],
      ['commentUpdated', ['reactions']],
      ['commentUpdated', ['reactions']],
      ['commentUpdated', ['reactions']],
      ['commentUpdated', ['body']],
    ]);
    const missing = await update(owner, { s: space.id, id: 'cmt_nope', resolved: true });
    expect(missing.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('lists threads by status, page and authors, in either order, a page at a time', async () => {
    const { owner, space, pageId, commenter, writer } = await setup();
    const made: string[] = [];
    for (const [actor, page] of [
      [owner, null],
      [commenter, pageId],
      [writer, pageId],
      [commenter, null],
      [owner, pageId],
    ] as const) {
      made.push((await post(actor, { s: space.id, body: { markdown: 'x' }, ...(page ? { page } : {}) })).id);
    }
    await update(owner, { s: space.id, id: made[1], resolved: true });
    const ids = (space: { commentThreads: { edges: { node: { id: string } }[] } }) => space.commentThreads.edges.map((e) => e.node.id);
    expect(ids(await threads(owner, space.id))).toEqual([...made].reverse());
    expect(ids(await threads(owner, space.id, '(order: asc)'))).toEqual(made);
    expect(ids(await threads(owner, space.id, `(pageId: "${pageId}", order: asc)`))).toEqual([made[1], made[2], made[4]]);
    expect(ids(await threads(owner, space.id, `(authors: ["${commenter.id}", "${writer.id}"], order: asc)`))).toEqual([made[1], made[2], made[3]]);
    expect(ids(await threads(owner, space.id, `(status: open, pageId: "${pageId}", order: asc)`))).toEqual([made[2], made[4]]);
    const first = await threads(owner, space.id, '(first: 2, order: asc)');
    expect(ids(first)).toEqual(made.slice(0, 2));
    expect(first.commentThreads).toMatchObject({ totalCount: 5, pageInfo: { hasNextPage: true } });
    const second = await threads(owner, space.id, `(first: 2, order: asc, after: "${first.commentThreads.pageInfo.endCursor}")`);
    expect(ids(second)).toEqual(made.slice(2, 4));
    // A cursor of another list is refused.
    const wrong = await gql(server.url, owner.token, `query($s: ID!) { space(id: $s) { commentThreads(first: 2, order: desc, after: "${first.commentThreads.pageInfo.endCursor}") { totalCount } } }`, { s: space.id });
    expect(wrong.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });

  it('holds threads of replies: posted, listed, edited by their author, reacted to; deleting the comment deletes them', async () => {
    const { owner, space, commenter, writer, reader } = await setup();
    const comment = await post(commenter, { s: space.id, body: { markdown: 'Thoughts?' } });
    const reply = (actor: Actor, text: string) =>
      gqlOk(server.url, actor.token, `mutation($s: ID!, $c: ID!, $b: JSON!) { reply: postCommentReply(spaceId: $s, commentId: $c, body: $b) { ${REPLY} } }`, { s: space.id, c: comment.id, b: { markdown: text } }).then(
        (d) => d.reply,
      );
    const r1 = await reply(writer, 'Yes.');
    const r2 = await reply(owner, 'No.');
    const r3 = await reply(writer, 'Maybe.');
    expect(r1).toMatchObject({ commentId: comment.id, spaceId: space.id, markdown: 'Yes.\n', postedBy: { id: writer.id }, permissions: { edit: true, delete: true } });
    expect(r1.urls.location).toContain(`/spaces/${space.id}/comments/${comment.id}/replies/${r1.id}`);
    const read = await gqlOk(server.url, reader.token, `query($s: ID!, $c: ID!, $r: ID!) { space(id: $s) { comment(id: $c) { replyCount repliers { user { id } count } permissions { view edit reply delete }
      replies(first: 2) { totalCount pageInfo { hasNextPage } edges { node { id permissions { edit delete } } } } reply(id: $r) { id } } } }`, { s: space.id, c: comment.id, r: r2.id });
    expect(read.space.comment).toMatchObject({
      replyCount: 3,
      repliers: [
        { user: { id: writer.id }, count: 2 },
        { user: { id: owner.id }, count: 1 },
      ],
      permissions: { view: true, edit: false, reply: false, delete: false },
      replies: { totalCount: 3, pageInfo: { hasNextPage: true }, edges: [{ node: { id: r1.id, permissions: { edit: false, delete: false } } }, { node: { id: r2.id } }] },
      reply: { id: r2.id },
    });

    const updateReply = (actor: Actor, id: string, args: Record<string, unknown>) =>
      gql(server.url, actor.token, `mutation($s: ID!, $c: ID!, $id: ID!, $b: JSON, $add: [String!]) { reply: updateCommentReply(spaceId: $s, commentId: $c, id: $id, body: $b, addedReactions: $add) { ${REPLY} } }`, {
        s: space.id,
        c: comment.id,
        id,
        ...args,
      });
    expect((await updateReply(owner, r1.id, { b: { markdown: 'Hijack' } })).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const edited = (await updateReply(writer, r1.id, { b: { markdown: 'Yes, surely.' }, add: ['👀'] })).data!.reply;
    expect(edited).toMatchObject({ markdown: 'Yes, surely.\n', editedAt: expect.any(String), reactions: [{ emoji: '👀', count: 1 }] });

    const deleteReply = (actor: Actor, id: string) =>
      gql(server.url, actor.token, `mutation($s: ID!, $c: ID!, $id: ID!) { deleteCommentReply(spaceId: $s, commentId: $c, id: $id) }`, { s: space.id, c: comment.id, id });
    expect((await deleteReply(commenter, r3.id)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await deleteReply(writer, r3.id)).data).toEqual({ deleteCommentReply: true });
    expect((await deleteReply(writer, r3.id)).data).toEqual({ deleteCommentReply: false });
    expect((await eventsOf(r3.id)).map((e) => [e.kind, (e.data as { commentId?: string }).commentId])).toEqual([
      ['commentReplyCreated', comment.id],
      ['commentReplyDeleted', comment.id],
    ]);

    const deleteComment = (actor: Actor) => gql(server.url, actor.token, `mutation($s: ID!, $id: ID!) { deleteComment(spaceId: $s, id: $id) }`, { s: space.id, id: comment.id });
    expect((await deleteComment(writer)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    // An admin moderates.
    expect((await deleteComment(owner)).data).toEqual({ deleteComment: true });
    expect((await deleteComment(owner)).data).toEqual({ deleteComment: false });
    expect(await server.db.commentReply.count({ where: { commentId: comment.id } })).toBe(0);
    expect(await server.db.commentReaction.count({ where: { commentId: comment.id } })).toBe(0);
    expect((await threads(owner, space.id)).comments).toBe(0);
    expect((await eventsOf(comment.id)).map((e) => e.kind)).toEqual(['commentCreated', 'commentDeleted']);
  });

  it('finds comments and replies by node ID for who may read them, and lists who commented', async () => {
    const { org, owner, space, commenter, writer } = await setup();
    const comment = await post(commenter, { s: space.id, body: {} });
    const reply = await gqlOk(server.url, writer.token, `mutation($s: ID!, $c: ID!) { r: postCommentReply(spaceId: $s, commentId: $c, body: {}) { id } }`, { s: space.id, c: comment.id });
    const node = (actor: Actor, id: string) => gql(server.url, actor.token, `query($id: ID!) { node(id: $id) { __typename id } }`, { id });
    expect((await node(owner, comment.id)).data?.node).toEqual({ __typename: 'Comment', id: comment.id });
    expect((await node(owner, reply.r.id)).data?.node).toEqual({ __typename: 'CommentReply', id: reply.r.id });
    const stranger = (await createOrg(server.db, 'Elsewhere')).owner;
    expect((await node(stranger, comment.id)).errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const commenters = await gqlOk(server.url, owner.token, `query($s: ID!) { space(id: $s) { commenters(first: 10) { totalCount edges { node { id organizationId user { id } } } } } }`, { s: space.id });
    expect(commenters.space.commenters.totalCount).toBe(2);
    expect(commenters.space.commenters.edges.map((e: { node: { id: string } }) => e.node.id).sort()).toEqual([commenter.id, writer.id].sort());
    expect(commenters.space.commenters.edges[0].node.organizationId).toBe(org.id);
  });

  it("reaches organizationEvents: a reader of the space hears of comments and replies as they are written", async () => {
    const { org, space, commenter, reader } = await setup();
    const abort = new AbortController();
    try {
      const response = await postSubscription(server.url, reader.token, `subscription($id: ID!) { organizationEvents(organizationId: $id) { kind subjectId spaceId actorId } }`, { id: org.id }, abort.signal);
      const results = sseResults(response);
      // Subscribed once the stream answers: a write after this is heard.
      const comment = await post(commenter, { s: space.id, body: { markdown: 'Heard?' } });
      const reply = await gqlOk(server.url, commenter.token, `mutation($s: ID!, $c: ID!) { r: postCommentReply(spaceId: $s, commentId: $c, body: {}) { id } }`, { s: space.id, c: comment.id });
      // The setup's own writes (members joining) committed before the subscription began: not heard,
      // even when the outbox delivers them after it.
      const heard: { kind: string }[] = [];
      for await (const result of results) {
        heard.push(result.data?.organizationEvents);
        if (heard.length === 2) break;
      }
      expect(heard).toEqual([
        { kind: 'commentCreated', subjectId: comment.id, spaceId: space.id, actorId: commenter.id },
        { kind: 'commentReplyCreated', subjectId: reply.r.id, spaceId: space.id, actorId: commenter.id },
      ]);
    } finally {
      abort.abort();
    }
  });
});
