/**
 * Who may read and write comments, role by role (capabilities.ts: reading needs `view`, posting,
 * resolving, reacting and replying `comment`, editing being the author, deleting being the author
 * or `moderateComments`): readers, commenters, editors, reviewers and admins of the organization; a
 * guest granted `comment` on the space and one with no grant; another organization's owner (404 on
 * everything). `permissions` says exactly what the API then allows, and a locked space still takes
 * comments.
 */
import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { http, sdk } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Draft' })).data;
  const people = Object.fromEntries(
    await Promise.all(
      (['read', 'comment', 'edit', 'review'] as const).map(async (role) => [role, await createActor(server.db, { org: org.id, role, name: role })] as const),
    ),
  ) as Record<'read' | 'comment' | 'edit' | 'review', Actor>;
  const [guest, ungranted] = await Promise.all([createActor(server.db, { org: org.id, role: 'guest' }), createActor(server.db, { org: org.id, role: 'guest' })]);
  await api.spaces.inviteToSpace(space.id, { role: MemberRole.Comment, users: [guest.id] });
  const stranger = (await createOrg(server.db, 'Elsewhere')).owner;
  return { owner, api, space, cr, people, guest, ungranted, stranger };
}

/** Every path a caller may try, against a space's comment `id` (and its reply `replyId`), in the space's own threads or a change request's. */
function paths(spaceId: string, crId: string | null, id: string, replyId: string) {
  const base = crId ? `/spaces/${spaceId}/change-requests/${crId}` : `/spaces/${spaceId}`;
  return {
    list: ['GET', `${base}/comments`],
    get: ['GET', `${base}/comments/${id}`],
    replies: ['GET', `${base}/comments/${id}/replies`],
    reply: ['GET', `${base}/comments/${id}/replies/${replyId}`],
    post: ['POST', `${base}/comments`, { body: { markdown: 'Hi' } }],
    resolve: ['PUT', `${base}/comments/${id}`, { resolved: true }],
    react: ['PUT', `${base}/comments/${id}`, { addedReactions: ['👍'] }],
    editOthers: ['PUT', `${base}/comments/${id}`, { body: { markdown: 'Changed' } }],
    postReply: ['POST', `${base}/comments/${id}/replies`, { body: { markdown: 'Reply' } }],
    reactReply: ['PUT', `${base}/comments/${id}/replies/${replyId}`, { addedReactions: ['🎉'] }],
    deleteOthersReply: ['DELETE', `${base}/comments/${id}/replies/${replyId}`],
    deleteOthers: ['DELETE', `${base}/comments/${id}`],
  } as const;
}

type Expected = Record<keyof ReturnType<typeof paths>, number>;

const READER: Expected = { list: 200, get: 200, replies: 200, reply: 200, post: 403, resolve: 403, react: 403, editOthers: 403, postReply: 403, reactReply: 403, deleteOthersReply: 403, deleteOthers: 403 };
const COMMENTER: Expected = { ...READER, post: 200, resolve: 200, react: 200, postReply: 200, reactReply: 200 };
const ADMIN: Expected = { ...COMMENTER, deleteOthersReply: 205, deleteOthers: 205 };
const NOBODY: Expected = { list: 404, get: 404, replies: 404, reply: 404, post: 404, resolve: 404, react: 404, editOthers: 404, postReply: 404, reactReply: 404, deleteOthersReply: 404, deleteOthers: 404 };

async function expectAccess(actor: Actor, spaceId: string, crId: string | null, id: string, replyId: string, expected: Expected, label: string) {
  for (const [name, [method, path, body]] of Object.entries(paths(spaceId, crId, id, replyId)) as [keyof Expected, readonly [string, string, unknown?]][]) {
    const answer = await http(server.url, actor.token, method, path, body);
    expect(answer.status, `${label} ${name} ${JSON.stringify(answer.body)}`).toBe(expected[name]);
  }
}

describe('comment access by role', () => {
  for (const place of ['space', 'change request'] as const) {
    it(`follows the capability table in a ${place}'s threads`, async () => {
      const { owner, space, cr, people, guest, ungranted, stranger } = await setup();
      const crId = place === 'space' ? null : cr.id;
      /** A fresh thread (a comment and a reply) of `author`'s, for each caller to try. */
      const thread = async (author: Actor) => {
        const base = crId ? `/spaces/${space.id}/change-requests/${crId}` : `/spaces/${space.id}`;
        const comment = (await http(server.url, author.token, 'POST', `${base}/comments`, { body: { markdown: 'Someone says' } })).body;
        const reply = (await http(server.url, author.token, 'POST', `${base}/comments/${comment.id}/replies`, { body: { markdown: 'And adds' } })).body;
        return { id: comment.id as string, replyId: reply.id as string };
      };
      const cases: [Actor, Expected, string][] = [
        [people.read, READER, 'read'],
        [people.comment, COMMENTER, 'comment'],
        [people.edit, COMMENTER, 'edit'],
        [people.review, COMMENTER, 'review'],
        [guest, COMMENTER, 'guest with comment'],
        [ungranted, NOBODY, 'guest without grant'],
        [stranger, NOBODY, 'another organization'],
        [owner, ADMIN, 'admin'],
      ];
      for (const [actor, expected, label] of cases) {
        // The admin tries another's thread (theirs would be their own).
        const { id, replyId } = await thread(actor === owner ? people.review : owner);
        await expectAccess(actor, space.id, crId, id, replyId, expected, label);
      }
    });
  }

  it("says in `permissions` what each may do, lets authors edit and delete their own, and hides commenters from guests", async () => {
    const { owner, api, space, people, guest } = await setup();
    const mine = (await sdk(server.url, people.comment.token).spaces.postCommentInSpace(space.id, { body: { markdown: 'Mine' } } as never)).data;
    const permissions = async (actor: Actor) => (await http(server.url, actor.token, 'GET', `/spaces/${space.id}/comments/${mine.id}`)).body.permissions;
    expect(await permissions(people.comment)).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(await permissions(people.read)).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect(await permissions(people.review)).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(await permissions(owner)).toEqual({ view: true, edit: false, reply: true, delete: true });
    const edited = await http(server.url, people.comment.token, 'PUT', `/spaces/${space.id}/comments/${mine.id}`, { body: { markdown: 'Mine, edited' } });
    expect(edited.status).toBe(200);

    // Commenters are members' memberships: for members with an organization role.
    expect((await http(server.url, people.read.token, 'GET', `/spaces/${space.id}/commenters`)).status).toBe(200);
    expect((await http(server.url, guest.token, 'GET', `/spaces/${space.id}/commenters`)).status).toBe(403);

    // A locked space takes no content writes, but still takes comments.
    await api.spaces.updateSpaceById(space.id, { editMode: 'locked' as never });
    const onLocked = await http(server.url, people.comment.token, 'POST', `/spaces/${space.id}/comments`, { body: { markdown: 'Still here' } });
    expect(onLocked.status).toBe(200);
    expect((await http(server.url, people.comment.token, 'DELETE', `/spaces/${space.id}/comments/${mine.id}`)).status).toBe(205);

    // The author who lost the right to comment may no longer edit or delete their own.
    await api.orgs.updateMemberInOrganizationById(space.organization, people.comment.id, { role: MemberRole.Read });
    const theirs = onLocked.body.id;
    expect((await http(server.url, people.comment.token, 'PUT', `/spaces/${space.id}/comments/${theirs}`, { body: { markdown: 'Edit' } })).status).toBe(403);
    expect((await http(server.url, people.comment.token, 'DELETE', `/spaces/${space.id}/comments/${theirs}`)).status).toBe(403);
    expect((await http(server.url, people.comment.token, 'GET', `/spaces/${space.id}/comments/${theirs}`)).body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
  });
});
