/**
 * Mentions by e-mail (issue 25): who a comment or a reply mentions is recorded with the post
 * (`recordMentions`, in the post's transaction) and mailed once by the `send_mention_mail` task,
 * to members who can read the comment when the mail is sent, through a local SMTP server.
 */
import { randomUUID } from 'node:crypto';
import { MemberRole } from '@gitbook/api';
import type { JobHelpers } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { recordMentions, type MentionedPost } from '../src/domain/comments/mentions.js';
import { mentionedUsers, postExcerpt } from '../src/lib/documents/mentions.js';
import { newId } from '../src/domain/kernel/ids.js';
import { createMailer, type Mailer, type MailMessage } from '../src/domain/people/mail/index.js';
import { MENTION_SKIPPED, sendMentionMail } from '../src/jobs/handlers/mention-mail.js';
import { createLogger } from '../src/observability/logger.js';
import type { JSONDocument } from '../src/lib/documents/types.js';
import { AppError } from '../src/lib/errors.js';
import { gql, gqlOk, http, sdk } from './helpers/clients.js';
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
async function comment(s: Setup, authorId: string, doc: JSONDocument, where: { changeRequestId?: string; pageId?: string; revisionId?: string } = {}) {
  const id = newId('Comment');
  const { revisionId = s.space.revision, ...rest } = where;
  await server.db.comment.create({ data: { id, spaceId: s.space.id, revisionId, authorId, body: doc as never, ...rest } });
  return id;
}

async function reply(commentId: string, authorId: string, doc: JSONDocument) {
  const id = newId('Comment'); // a reply's own prefix comes with the comments API
  await server.db.commentReply.create({ data: { id, commentId, authorId, body: doc as never } });
  return id;
}

const post = (s: Setup, commentId: string, authorId: string, doc: JSONDocument, postId = commentId, where: { changeRequestId?: string; pageId?: string } = {}): MentionedPost => ({
  organizationId: s.org.id,
  spaceId: s.space.id,
  changeRequestId: where.changeRequestId ?? null,
  pageId: where.pageId ?? null,
  commentId,
  postId,
  authorId,
  body: doc,
});

const record = (p: MentionedPost) => server.db.$transaction((tx) => recordMentions(tx, p));

const queued = async (postId: string) =>
  server.db.$queryRaw<{ key: string }[]>`SELECT key FROM graphile_worker._private_jobs WHERE key LIKE ${`mention:${postId}:%`}`;

describe('mentionedUsers and postExcerpt', () => {
  it('finds mentions in nested blocks and fragments, in order, once each, without recursion', () => {
    const cell = { object: 'fragment', fragment: 'c', nodes: [body('in a cell ', 'u3', 'u1')] };
    const doc = { object: 'document', nodes: [...body('a ', 'u1', 'u2').nodes, { object: 'block', type: 'table', isVoid: true, fragments: [cell] }] };
    expect(mentionedUsers(doc)).toEqual(['u1', 'u2', 'u3']);
    let deep: unknown = body('deep ', 'u9');
    for (let i = 0; i < 100_000; i++) deep = { object: 'block', type: 'blockquote', nodes: [deep] };
    expect(mentionedUsers(deep)).toEqual(['u9']);
    // Page mentions and malformed refs are not user mentions.
    expect(mentionedUsers({ object: 'inline', type: 'mention', data: { ref: { kind: 'page', page: 'p' } } })).toEqual([]);
    expect(mentionedUsers({ object: 'inline', type: 'mention', data: { ref: { kind: 'user', user: 7 } } })).toEqual([]);
  });

  it('an excerpt is plain text: names for mentions, blocks on lines, control characters out, cut near 500 on a word', () => {
    const doc = { object: 'document', nodes: [...body('Hi\u0007 <b>', 'u1').nodes, ...body('second   line ', 'u2').nodes] };
    expect(postExcerpt(doc, (id) => (id === 'u1' ? 'Ann' : undefined))).toBe('Hi <b>@Ann\nsecond line @someone');
    const long = postExcerpt(body('word '.repeat(300)), () => undefined);
    expect(long.length).toBeLessThanOrEqual(501);
    expect(long).toMatch(/word…$/);
  });
});

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

// ——— the mail, sent by the worker's send_mention_mail task ———

type Row = { notifiedAt: Date | null; skipped: string | null };

/** The mention row once the task has settled it (notified or skipped). */
async function settled(postId: string, userId: string, timeoutMs = 10_000): Promise<Row> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await server.db.commentMention.findUnique({ where: { postId_userId: { postId, userId } } });
    if (row && (row.notifiedAt || row.skipped)) return row;
    if (Date.now() > deadline) throw new Error(`mention ${postId}/${userId} not settled: ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the mention mail', () => {
  it('a mentioned member receives one mail: author, space, excerpt with names, link to the comment', async () => {
    const s = await setup();
    const ann = await createActor(server.db, { org: s.org.id, role: 'read', name: 'Ann Reader' });
    const doc = body('Could you check this, ', ann.id);
    const id = await comment(s, s.owner.id, doc);
    await record(post(s, id, s.owner.id, doc));
    const [mail] = await smtp.waitFor(ann.email);
    expect(mail.subject).toBe('Owner mentioned you in Handbook');
    expect(mail.text).toContain('Owner mentioned you in a comment:');
    expect(mail.text).toContain('> Could you check this, @Ann Reader\n');
    expect(mail.text).toContain('Space: Handbook');
    expect(mail.text).toContain(`${server.config.publicUrl}/v1/spaces/${s.space.id}/comments/${id}`);
    expect(mail.html).toContain('@Ann Reader');
    expect((await settled(id, ann.id)).notifiedAt).toBeInstanceOf(Date);
  });

  it('an edit keeping a mention sends nothing more; one adding a member mails that member only; a reply is a new post', async () => {
    const s = await setup();
    const ann = await createActor(server.db, { org: s.org.id, role: 'read' });
    const bob = await createActor(server.db, { org: s.org.id, role: 'comment' });
    const first = body('Hi ', ann.id);
    const id = await comment(s, s.owner.id, first);
    await record(post(s, id, s.owner.id, first));
    await settled(id, ann.id);
    const edited = body('Hi again ', ann.id, bob.id);
    await record(post(s, id, s.owner.id, edited));
    await settled(id, bob.id);
    expect(await smtp.waitFor(bob.email)).toHaveLength(1);
    // A reply by Bob mentioning Ann: one more mail to Ann, linking to the reply.
    const answer = body('Agreed, ', ann.id);
    const replyId = await reply(id, bob.id, answer);
    await record(post(s, id, bob.id, answer, replyId));
    await settled(replyId, ann.id);
    const mails = await smtp.waitFor(ann.email, 2);
    expect(mails).toHaveLength(2);
    expect(mails[1].text).toContain('mentioned you in a reply:');
    expect(mails[1].text).toContain(`/v1/spaces/${s.space.id}/comments/${id}/replies/${replyId}`);
    expect(smtp.to(bob.email)).toHaveLength(1);
  });

  it('nobody who cannot read the comment is mailed, and the row says why', async () => {
    const s = await setup();
    const guest = await createActor(server.db, { org: s.org.id, role: 'guest' });
    const removed = await createActor(server.db, { org: s.org.id, role: 'read' });
    const disabled = await createActor(server.db, { org: s.org.id, role: 'read' });
    const reader = await createActor(server.db, { org: s.org.id, role: 'read' });
    const outsider = (await createOrg(server.db)).owner;
    const doc = body('See ', guest.id, removed.id, disabled.id, outsider.id, s.owner.id, reader.id);
    const id = await comment(s, s.owner.id, doc);
    // Access changes after the post and before the mail: checked when it is sent.
    await server.db.$transaction(async (tx) => {
      expect(await recordMentions(tx, post(s, id, s.owner.id, doc))).toEqual([guest.id, removed.id, disabled.id, reader.id]);
      await tx.member.delete({ where: { organizationId_userId: { organizationId: s.org.id, userId: removed.id } } });
      await tx.member.update({ where: { organizationId_userId: { organizationId: s.org.id, userId: disabled.id } }, data: { disabled: true } });
    });
    for (const user of [guest, removed, disabled]) expect(await settled(id, user.id), user.email).toEqual(expect.objectContaining({ notifiedAt: null, skipped: MENTION_SKIPPED.noAccess }));
    expect((await settled(id, reader.id)).notifiedAt).toBeInstanceOf(Date);
    await smtp.waitFor(reader.email);
    // Neither the outsider nor the author has a row.
    expect(await server.db.commentMention.findMany({ where: { postId: id, userId: { in: [outsider.id, s.owner.id] } } })).toEqual([]);
    for (const user of [guest, removed, disabled, outsider, s.owner]) expect(smtp.to(user.email), user.email).toEqual([]);
  });

  it('a guest with a grant on the space is mailed; a comment in a change request names it, and its page', async () => {
    const s = await setup();
    const guest = await createActor(server.db, { org: s.org.id, role: 'guest', name: '<b>Gus</b>' });
    await s.api.spaces.inviteToSpace(s.space.id, { role: MemberRole.Read, users: [guest.id] });
    const cr = (await s.api.spaces.createChangeRequest(s.space.id, { subject: 'Install <guide>' })).data;
    const write = await s.api.spaces.updateChangeRequestContent(s.space.id, cr.id, { changes: [{ operation: 'insert_page', ref: 'p', title: 'Getting started', document: { markdown: 'Hi\n' } }] as never }, { compat: false });
    const pageId = (write.data as any).changes[0].page.id as string;
    const doc = body('<script>alert(1)</script> ', guest.id);
    const id = await comment(s, s.owner.id, doc, { changeRequestId: cr.id, pageId });
    await record(post(s, id, s.owner.id, doc, id, { changeRequestId: cr.id, pageId }));
    const [mail] = await smtp.waitFor(guest.email);
    expect(mail.text).toContain(`Change request: #${cr.number} Install <guide>`);
    expect(mail.text).toContain('Page: Getting started');
    expect(mail.text).toContain(`/v1/spaces/${s.space.id}/change-requests/${cr.id}/comments/${id}`);
    expect(mail.text).toContain('> <script>alert(1)</script> @<b>Gus</b>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Gus');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; @&lt;b&gt;Gus&lt;/b&gt;');
    expect(mail.html).toContain('Install &lt;guide&gt;');
  });
});

// ——— the task run by hand, with a mailer of the test's ———

/** A mention row without a queued job, so that only the test runs its task. */
async function unqueuedMention() {
  const s = await setup();
  const ann = await createActor(server.db, { org: s.org.id, role: 'read' });
  const doc = body('Hello ', ann.id);
  const id = await comment(s, s.owner.id, doc);
  await server.db.commentMention.create({ data: { postId: id, userId: ann.id, commentId: id } });
  return { postId: id, userId: ann.id, email: ann.email };
}

const logger = createLogger({ level: 'silent' });
const helpers = (attempts: number) => ({ job: { attempts, max_attempts: 5 }, logger: { error() {} } }) as unknown as JobHelpers;
const run = (mailer: Mailer, payload: unknown, attempts = 1) =>
  sendMentionMail({ db: server.db, events: server.events, logger, config: server.config, mailer })(payload as never, helpers(attempts));

function recordingMailer(fail = false) {
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    async send(message) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (fail) throw new Error('421 try later');
      sent.push(message);
      return { delivered: true };
    },
    async close() {},
  };
  return { sent, mailer };
}

describe('the mention task', () => {
  it('two runs at once send one mail; a later run sends nothing', async () => {
    const m = await unqueuedMention();
    const { sent, mailer } = recordingMailer();
    await Promise.all([run(mailer, m), run(mailer, m)]);
    await run(mailer, m);
    expect(sent.map((x) => x.to)).toEqual([m.email]);
  });

  it('a failed send is retried (the row released), and marked "mail failed" on the last attempt', async () => {
    const m = await unqueuedMention();
    const failing = recordingMailer(true).mailer;
    await expect(run(failing, m, 1)).rejects.toThrow('421');
    const key = { postId_userId: { postId: m.postId, userId: m.userId } };
    expect(await server.db.commentMention.findUnique({ where: key })).toEqual(expect.objectContaining({ notifiedAt: null, skipped: null }));
    await run(failing, m, 5);
    expect(await server.db.commentMention.findUnique({ where: key })).toEqual(expect.objectContaining({ notifiedAt: null, skipped: MENTION_SKIPPED.mailFailed }));
    const { sent, mailer } = recordingMailer();
    await run(mailer, m);
    expect(sent).toEqual([]);
  });

  it('without an SMTP server the mail is logged, not sent, and the row says so', async () => {
    const m = await unqueuedMention();
    const lines: string[] = [];
    const mailer = createMailer({ logger: createLogger({ destination: { write: (line: string) => void lines.push(line) } }) });
    await run(mailer, m);
    const row = await server.db.commentMention.findUnique({ where: { postId_userId: { postId: m.postId, userId: m.userId } } });
    expect(row).toEqual(expect.objectContaining({ notifiedAt: null, skipped: MENTION_SKIPPED.notSent }));
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.mail?.to === m.email);
    expect(logged.mail.subject).toBe('Owner mentioned you in Handbook');
    expect(logged.mail.text).toContain('> Hello @');
    expect(smtp.to(m.email)).toEqual([]);
  });

  it('a deleted reply is skipped; a payload without IDs is refused without a throw', async () => {
    const m = await unqueuedMention();
    const gone = { postId: `${m.postId}-reply`, userId: m.userId };
    await server.db.commentMention.create({ data: { ...gone, commentId: m.postId } });
    const { sent, mailer } = recordingMailer();
    await run(mailer, gone);
    expect((await settled(gone.postId, gone.userId)).skipped).toBe(MENTION_SKIPPED.postDeleted);
    await run(mailer, { postId: 1 });
    expect(sent).toEqual([]);
  });
});

// ——— end to end: comments and replies written through REST ———

describe('mentions in comments written through REST', () => {
  /** A document body for the REST API (`{document}`), mentioning `users`. */
  const docBody = (words: string, ...users: string[]) => ({ document: body(words, ...users) }) as never;

  it('a member is mailed once; an edit keeping the mention mails nobody; one adding a member mails them; a reply mentioning again is a new post', async () => {
    const s = await setup();
    const ann = await createActor(server.db, { org: s.org.id, role: 'read', name: 'Ann' });
    const cat = await createActor(server.db, { org: s.org.id, role: 'comment', name: 'Cat' });
    const posted = (await s.api.spaces.postCommentInSpace(s.space.id, { body: docBody('Please review, ', ann.id, s.owner.id) })).data;
    await settled(posted.id, ann.id);
    const [first] = await smtp.waitFor(ann.email);
    expect(first.subject).toBe('Owner mentioned you in Handbook');
    expect(first.text).toContain('> Please review, @Ann@Owner');
    expect(first.text).toContain(`/v1/spaces/${s.space.id}/comments/${posted.id}\n`);
    // The author mentioned themselves: no row, no mail.
    expect(await server.db.commentMention.count({ where: { postId: posted.id, userId: s.owner.id } })).toBe(0);

    await s.api.spaces.updateCommentInSpace(s.space.id, posted.id, { body: docBody('Please review again, ', ann.id) } as never);
    await s.api.spaces.updateCommentInSpace(s.space.id, posted.id, { body: docBody('And you, ', ann.id, cat.id) } as never);
    await settled(posted.id, cat.id);
    expect(await smtp.waitFor(cat.email)).toHaveLength(1);

    const answer = (await sdk(server.url, cat.token).spaces.postCommentReplyInSpace(s.space.id, posted.id, { body: docBody('Ann, see ', ann.id) })).data;
    await settled(answer.id, ann.id);
    const mails = await smtp.waitFor(ann.email, 2);
    expect(mails.map((m) => m.subject)).toEqual(['Owner mentioned you in Handbook', 'Cat mentioned you in Handbook']);
    expect(mails[1].text).toContain(`/comments/${posted.id}/replies/${answer.id}`);
    expect(smtp.to(s.owner.email)).toEqual([]);
  });

  it('a markdown body mentions with [@id](mention:id); a guest without a grant and an outsider get nothing', async () => {
    const s = await setup();
    const ann = await createActor(server.db, { org: s.org.id, role: 'review' });
    const guest = await createActor(server.db, { org: s.org.id, role: 'guest' });
    const outsider = (await createOrg(server.db)).owner;
    const markdown = `[@${ann.id}](mention:${ann.id}), [@${guest.id}](mention:${guest.id}) and [@x](mention:${outsider.id}): **ship it**?`;
    const posted = (await s.api.spaces.postCommentInSpace(s.space.id, { body: { markdown } } as never)).data;
    expect((await settled(posted.id, guest.id)).skipped).toBe(MENTION_SKIPPED.noAccess);
    const [mail] = await smtp.waitFor(ann.email);
    // The outsider's name is not told to the organization's members.
    expect(mail.text).toMatch(/> @user-\S+, @user-\S+ and @someone: ship it\?/);
    expect(await server.db.commentMention.count({ where: { postId: posted.id, userId: outsider.id } })).toBe(0);
    expect(smtp.to(guest.email)).toEqual([]);
    expect(smtp.to(outsider.email)).toEqual([]);
  });

  it('a comment on a page of a change request names both and links under the change request', async () => {
    const s = await setup();
    const ann = await createActor(server.db, { org: s.org.id, role: 'read' });
    const cr = (await s.api.spaces.createChangeRequest(s.space.id, { subject: 'New guide' })).data;
    const write = await s.api.spaces.updateChangeRequestContent(s.space.id, cr.id, { changes: [{ operation: 'insert_page', ref: 'g', title: 'Guide', document: { markdown: 'Text\n' } }] as never }, { compat: false });
    const page = (write.data as any).changes[0].page.id as string;
    const posted = (await s.api.spaces.postCommentInChangeRequest(s.space.id, cr.id, { page, body: docBody('Look, ', ann.id) } as never)).data;
    const [mail] = await smtp.waitFor(ann.email);
    expect(mail.text).toContain('Page: Guide');
    expect(mail.text).toContain(`Change request: #${cr.number} New guide`);
    expect(mail.text).toContain(`/v1/spaces/${s.space.id}/change-requests/${cr.id}/comments/${posted.id}\n`);
  });

  it('more than 50 distinct users is a 400 naming body, and no comment is written', async () => {
    const s = await setup();
    const users = Array.from({ length: 51 }, (_, i) => `usr_${i}`);
    const answer = await http(server.url, s.owner.token, 'POST', `/spaces/${s.space.id}/comments`, { body: { document: body('All', ...users) } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/body/);
    expect(await server.db.comment.count({ where: { spaceId: s.space.id } })).toBe(0);
  });
});

describe('mentions in comments written through GraphQL', () => {
  const POST = `mutation ($spaceId: ID!, $body: JSON!) { postComment(spaceId: $spaceId, body: $body) { id } }`;

  it('postComment mails the member it mentions; past 50 users it is a BAD_REQUEST', async () => {
    const s = await setup();
    const ann = await createActor(server.db, { org: s.org.id, role: 'read' });
    const posted = await gqlOk(server.url, s.owner.token, POST, { spaceId: s.space.id, body: { document: body('Over to you, ', ann.id) } });
    const [mail] = await smtp.waitFor(ann.email);
    expect(mail.text).toContain(`/comments/${posted.postComment.id}\n`);
    const refused = await gql(server.url, s.owner.token, POST, { spaceId: s.space.id, body: { document: body('All', ...Array.from({ length: 51 }, (_, i) => `usr_${i}`)) } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(refused.errors?.[0]?.message).toMatch(/body/);
  });
});
