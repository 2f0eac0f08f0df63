/**
 * Mentions by e-mail (issue 25): who a comment or a reply mentions is recorded with the post
 * (`recordMentions`, in the post's transaction) and mailed once by the `send_mention_mail` task,
 * to members who can read the comment when the mail is sent, through a local SMTP server.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { recordMentions, type MentionedPost } from '../src/domain/comments/mentions.js';
import { newId } from '../src/domain/kernel/ids.js';
import type { JSONDocument } from '../src/lib/documents/types.js';
import { AppError } from '../src/lib/errors.js';
import { sdk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';
import { useSmtpServer } from './helpers/smtp.js';

const smtp = useSmtpServer();
const server = useServer({ worker: true, env: () => ({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }) });

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const mention = (user: string) => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref: { kind: 'user', user } }, nodes: [text('')] });
/** A comment body: a paragraph saying `words` and mentioning `users`. */
const body = (words: string, ...users: string[]) =>
  ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [text(words), ...users.map(mention), text('')] }] }) as unknown as JSONDocument;

async function setup() {
  const { org, owner } = await createOrg(server.db, `Mentions ${randomUUID().slice(0, 6)}`);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  return { org, owner, api, space };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** A comment row on the space (the comments API writes these; here the test does). */
async function comment(s: Setup, authorId: string, doc: JSONDocument) {
  const id = newId('Comment');
  await server.db.comment.create({ data: { id, spaceId: s.space.id, revisionId: s.space.revision ?? 'r', authorId, body: doc as never } });
  return id;
}

const post = (s: Setup, commentId: string, authorId: string, doc: JSONDocument, postId = commentId): MentionedPost => ({
  organizationId: s.org.id,
  spaceId: s.space.id,
  changeRequestId: null,
  pageId: null,
  commentId,
  postId,
  authorId,
  body: doc,
});

const record = (p: MentionedPost) => server.db.$transaction((tx) => recordMentions(tx, p));

const queued = async (postId: string) =>
  server.db.$queryRaw<{ key: string }[]>`SELECT key FROM graphile_worker._private_jobs WHERE key LIKE ${`mention:${postId}:%`}`;

describe('recordMentions', () => {
  it('records members mentioned (not the author, not outsiders), once per post and user', async () => {
    const s = await setup();
    const member = await createActor(server.db, { org: s.org.id, role: 'read' });
    const other = await createOrg(server.db);
    const doc = body('Hi ', member.id, s.owner.id, other.owner.id, member.id, 'nobody');
    const id = await comment(s, s.owner.id, doc);
    expect(await record(post(s, id, s.owner.id, doc))).toEqual([member.id]);
    const rows = await server.db.commentMention.findMany({ where: { postId: id } });
    expect(rows.map((r) => r.userId)).toEqual([member.id]);
    // Recording the same body again (an edit) inserts nothing more.
    expect(await record(post(s, id, s.owner.id, doc))).toEqual([member.id]);
    expect(await server.db.commentMention.count({ where: { postId: id } })).toBe(1);
  });

  it('more than 50 distinct users is a 400 naming body, and nothing is written', async () => {
    const s = await setup();
    const users = Array.from({ length: 51 }, (_, i) => `user-${i}`);
    const doc = body('Everyone', ...users);
    const id = await comment(s, s.owner.id, doc);
    const error = await record(post(s, id, s.owner.id, doc)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).field).toBe('body');
    expect(await server.db.commentMention.count({ where: { postId: id } })).toBe(0);
    expect(await queued(id)).toEqual([]);
  });
});
