/**
 * Reviews, requested reviewers and merge rules of change requests, through the public SDK (and
 * plain HTTP where the SDK cannot say it): submitting and listing reviews, when a review is
 * outdated, who may review and ask for reviews, each merge rule passing and failing (409 naming
 * it) and its bypass, `mergeRules` on organizations and spaces (validation, inheritance), and the
 * answers against the public OpenAPI document.
 */
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { gqlOk, http, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg, type Actor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

type Api = ReturnType<typeof sdk>;

const openapi = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json');
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
// Formats the document names but does not define: not what these tests check.
for (const format of ['icon', 'emoji']) ajv.addFormat(format, true);
ajv.addSchema(openapi, 'openapi');

/** Checks `body` against the documented answer of `method path` with `status`. */
function expectDocumented(method: string, path: string, status: string, body: unknown) {
  const pointer = `openapi#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/responses/${status}/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  validate(body);
  expect(validate.errors ?? [], JSON.stringify(body).slice(0, 400)).toEqual([]);
}

const CR_PATH = '/spaces/{spaceId}/change-requests/{changeRequestId}';

/**
 * An organization with a space, and its people: the owner (admin), two reviewers, a writer
 * (edit: opens requests, cannot merge), a reader and a guest without access.
 */
async function setup() {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  const [alice, bob, writer, reader, guest] = await Promise.all([
    createActor(server.db, { org: org.id, role: 'review', name: 'Alice' }),
    createActor(server.db, { org: org.id, role: 'review', name: 'Bob' }),
    createActor(server.db, { org: org.id, role: 'edit', name: 'Writer' }),
    createActor(server.db, { org: org.id, role: 'read', name: 'Reader' }),
    createActor(server.db, { org: org.id, role: 'guest', name: 'Guest' }),
  ]);
  const as = (actor: Actor) => sdk(server.url, actor.token);
  return { org, owner, api, space, alice, bob, writer, reader, guest, as };
}

async function open(api: Api, spaceId: string, subject = 'Edit'): Promise<{ id: string; number: number }> {
  const cr = (await api.spaces.createChangeRequest(spaceId, { subject })).data;
  return { id: cr.id, number: cr.number };
}

async function edit(api: Api, spaceId: string, crId: string, title: string) {
  await api.spaces.updateChangeRequestContent(spaceId, crId, { changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n\nText.\n` } }] as never });
}

const approve = (api: Api, spaceId: string, crId: string, comment?: string) =>
  api.spaces.submitChangeRequestReview(spaceId, crId, { status: 'approved', ...(comment ? { comment: { markdown: comment } } : {}) } as never).then((r) => r.data);
const requestChanges = (api: Api, spaceId: string, crId: string) =>
  api.spaces.submitChangeRequestReview(spaceId, crId, { status: 'changes-requested' } as never).then((r) => r.data);

async function setSpaceRules(api: Api, spaceId: string, rules: unknown[] | 'none' | 'inherit') {
  const mergeRules = typeof rules === 'string' ? { type: rules } : { type: 'rules', rules };
  return (await api.spaces.updateSpaceById(spaceId, { mergeRules } as never)).data;
}

/** A merge that must be refused by the rule `rule`; the request stays unmerged. */
async function expectRuleFails(api: Api, spaceId: string, crId: string, rule: string) {
  const error = await sdkError(api.spaces.mergeChangeRequest(spaceId, crId));
  expect(error).toMatchObject({ status: 409, message: expect.stringContaining(`Merge rule "${rule}" is not met`) });
  expect((await api.spaces.getChangeRequestById(spaceId, crId)).data.status).not.toBe('merged');
}

async function expectMerges(api: Api, spaceId: string, crId: string) {
  expect((await api.spaces.mergeChangeRequest(spaceId, crId)).data.result).toBe('merge');
}

async function mergeable(token: string, spaceId: string, crId: string) {
  const data = await gqlOk(server.url, token, `query($s: ID!, $c: ID!) { space(id: $s) { changeRequest(id: $c) { mergeable { allowed failingRule } } } }`, { s: spaceId, c: crId });
  return data.space.changeRequest.mergeable;
}

describe('reviews', () => {
  it('submits reviews of the current revision, lists them newest first in pages, and reads one', async () => {
    const { api, space, alice, bob, writer, as } = await setup();
    const cr = await open(as(writer), space.id);
    const current = (await api.spaces.getChangeRequestById(space.id, cr.id)).data.revision;
    const first = await approve(as(alice), space.id, cr.id, 'Looks **good**.');
    expect(first).toMatchObject({
      object: 'change-request-review',
      id: expect.stringMatching(/^crr_/),
      revision: current,
      reviewer: { id: alice.id },
      status: 'approved',
      outdated: false,
      comment: { object: 'comment', id: first.id, body: { document: { object: 'document' } }, postedBy: { id: alice.id } },
    });
    expect(first.requestedBy).toBeUndefined();
    expectDocumented('post', `${CR_PATH}/reviews`, '201', first);
    const second = await requestChanges(as(bob), space.id, String(cr.number));
    const third = await approve(as(alice), space.id, cr.id);
    expect(third.comment).toBeUndefined();

    const page1 = (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { limit: 2 })).data;
    expectDocumented('get', `${CR_PATH}/reviews`, '200', page1);
    expect(page1.count).toBe(3);
    expect(page1.items.map((r) => r.id)).toEqual([third.id, second.id]);
    const page2 = (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { limit: 2, page: page1.next!.page })).data;
    expect(page2.items.map((r) => r.id)).toEqual([first.id]);
    expect(page2.next).toBeUndefined();
    // Alice reviewed again: her first review no longer counts.
    expect(page2.items[0].outdated).toBe(true);
    const outdated = (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: true } as never)).data;
    expect(outdated).toMatchObject({ count: 1, items: [{ id: first.id }] });
    const currentOnes = (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false } as never)).data;
    expect(currentOnes.items.map((r) => r.id)).toEqual([third.id, second.id]);
    expect(currentOnes.items.map((r) => r.status)).toEqual(['approved', 'changes-requested']);

    const one = (await api.spaces.getChangeRequestReviewById(space.id, cr.id, first.id, { format: 'markdown' } as never)).data;
    expect(one.comment).toMatchObject({ body: { markdown: 'Looks **good**.' } });
    expectDocumented('get', `${CR_PATH}/reviews/{reviewId}`, '200', one);
    expect((await sdkError(api.spaces.getChangeRequestReviewById(space.id, cr.id, 'crr_nope'))).status).toBe(404);
    const badCursor = await http(server.url, writer.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}/reviews?page=garbage`);
    expect(badCursor).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('page') } } });

    // New content: every review was of an older revision.
    await edit(as(writer), space.id, cr.id, 'Fresh');
    const after = (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id)).data;
    expect(after.items.every((r) => r.outdated)).toBe(true);
  });

  it('validates a review: status and comment', async () => {
    const { space, alice, writer, as } = await setup();
    const cr = await open(as(writer), space.id);
    const path = `/spaces/${space.id}/change-requests/${cr.id}/reviews`;
    for (const body of [{}, { status: 'maybe' }, { status: 'approved', comment: 'plain' }, { status: 'approved', comment: { markdown: 'x'.repeat(20_001) } }]) {
      const reply = await http(server.url, alice.token, 'POST', path, body);
      const field = 'comment' in body ? 'comment' : 'status';
      expect(reply, JSON.stringify(body).slice(0, 80)).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining(`"${field}"`) } } });
    }
    const withDocument = await http(server.url, alice.token, 'POST', path, {
      status: 'changes-requested',
      comment: { document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Fix the intro', marks: [] }] }] }] } },
    });
    expect(withDocument).toMatchObject({ status: 201, body: { status: 'changes-requested', comment: { body: { document: { object: 'document' } } } } });
    const asMarkdown = await http(server.url, alice.token, 'GET', `${path}/${withDocument.body.id}?format=markdown`);
    expect(asMarkdown.body.comment.body.markdown).toContain('Fix the intro');
  });

  it('lets only reviewers other than the author review, refuses merged requests, and hides everything from other organizations', async () => {
    const { api, space, alice, writer, reader, as } = await setup();
    const cr = await open(as(alice), space.id);
    // The author cannot review their own request (403: a rule about who may, like a role).
    expect(await sdkError(approve(as(alice), space.id, cr.id))).toMatchObject({ status: 403, message: expect.stringContaining('author') });
    expect((await sdkError(approve(as(reader), space.id, cr.id))).status).toBe(403);
    expect((await sdkError(approve(as(writer), space.id, cr.id))).status).toBe(403);
    // A reader can read the reviews.
    expect((await as(reader).spaces.getReviewsByChangeRequestId(space.id, cr.id)).data.count).toBe(0);

    const review = await approve(api, space.id, cr.id);
    const stranger = await createOrg(server.db, 'Elsewhere');
    const theirs = sdk(server.url, stranger.owner.token);
    expect((await sdkError(approve(theirs, space.id, cr.id))).status).toBe(404);
    expect((await sdkError(theirs.spaces.getReviewsByChangeRequestId(space.id, cr.id))).status).toBe(404);
    expect((await sdkError(theirs.spaces.getChangeRequestReviewById(space.id, cr.id, review.id))).status).toBe(404);
    expect((await sdkError(theirs.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id))).status).toBe(404);
    expect((await sdkError(theirs.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [stranger.owner.id] }))).status).toBe(404);
    expect((await sdkError(theirs.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, alice.id))).status).toBe(404);
    // A review ID is only found under its own request.
    const other = await open(api, space.id);
    expect((await sdkError(api.spaces.getChangeRequestReviewById(space.id, other.id, review.id))).status).toBe(404);
    expect(await server.db.changeRequestReview.count({ where: { changeRequestId: cr.id } })).toBe(1);
    expect(await server.db.changeRequestReviewer.count({ where: { changeRequestId: cr.id } })).toBe(0);

    await expectMerges(as(alice), space.id, cr.id);
    expect((await sdkError(approve(api, space.id, cr.id))).status).toBe(409);
    expect((await sdkError(api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [writer.id] }))).status).toBe(409);
  });
});

describe('requested reviewers', () => {
  it('asks members who can read the space, idempotently, and withdraws requests', async () => {
    const { api, owner, space, alice, bob, writer, reader, guest, as } = await setup();
    const cr = await open(as(writer), space.id);
    const sent = (await as(writer).spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [alice.id, bob.id, alice.id] })).data;
    expectDocumented('post', `${CR_PATH}/requested-reviewers`, '200', sent);
    expect(sent.users).toHaveLength(2);
    expect(sent.users![0]).toMatchObject({ object: 'change-request-requested-reviewer', kind: 'user', requestedBy: { id: writer.id } });
    const listed = (await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data;
    expectDocumented('get', `${CR_PATH}/requested-reviewers`, '200', listed);
    expect(listed.count).toBe(2);
    const crNow = (await api.spaces.getChangeRequestById(space.id, cr.id)).data;
    expect(listed.items.every((q: any) => q.revision === crNow.revision)).toBe(true);

    // Asking again changes nothing: the first request stands.
    const again = (await api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [alice.id, reader.id], subject: 'Please review' })).data;
    const aliceBefore = listed.items.find((q: any) => q.user.id === alice.id) as any;
    expect(again.users!.find((q: any) => q.user.id === alice.id)).toMatchObject({ createdAt: aliceBefore.createdAt, requestedBy: { id: writer.id } });
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.subject).toBe('Please review');
    const users = await gqlOk(server.url, owner.token, `query($s: ID!, $c: ID!) { space(id: $s) { changeRequest(id: $c) { requestedReviewers { id } } } }`, { s: space.id, c: cr.id });
    expect(users.space.changeRequest.requestedReviewers.map((u: { id: string }) => u.id).sort()).toEqual([alice.id, bob.id, reader.id].sort());

    // Who can be asked: members who can read the space, other than the author.
    const stranger = await createOrg(server.db, 'Elsewhere');
    const outsider = await createActor(server.db);
    for (const users of [[stranger.owner.id], [outsider.id], [guest.id], [writer.id], [], ['usr_nope']]) {
      const error = await sdkError(api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users }));
      expect(error, JSON.stringify(users)).toMatchObject({ status: 400, message: expect.stringContaining('"users"') });
    }
    // A guest granted the space can be asked.
    await http(server.url, owner.token, 'POST', `/spaces/${space.id}/permissions`, { role: 'read', users: [guest.id] });
    expect((await api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [guest.id] })).data.users).toHaveLength(1);
    const badBodies = [{ users: 'x' }, { users: [1] }, { users: [alice.id], description: { object: 'document', data: {}, nodes: [] } }];
    for (const body of badBodies) {
      const reply = await http(server.url, owner.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    // A reader may not ask (asking belongs to writing the request).
    expect((await sdkError(as(reader).spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [bob.id] }))).status).toBe(403);

    const removed = await http(server.url, owner.token, 'DELETE', `/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers/${bob.id}`);
    expect(removed.status).toBe(205);
    const absent = await http(server.url, owner.token, 'DELETE', `/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers/${bob.id}`);
    expect(absent.status).toBe(204);
    await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reader.id);
    expect((await sdkError(as(reader).spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, alice.id))).status).toBe(403);
    const left = (await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id, { limit: 1 })).data;
    expect(left.count).toBe(2);
    expect(left.items).toHaveLength(1);
    expect(left.next).toBeDefined();
  });

  it('a review fulfils the request; asking again makes the review outdated', async () => {
    const { api, space, alice, writer, as } = await setup();
    const cr = await open(as(writer), space.id);
    await as(writer).spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [alice.id] });
    const review = await requestChanges(as(alice), space.id, cr.id);
    expect(review).toMatchObject({ requestedBy: { id: writer.id }, outdated: false });
    expect((await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data.count).toBe(0);
    await as(writer).spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [alice.id] });
    expect((await api.spaces.getChangeRequestReviewById(space.id, cr.id, review.id)).data.outdated).toBe(true);
    const next = await approve(as(alice), space.id, cr.id);
    expect(next).toMatchObject({ requestedBy: { id: writer.id }, outdated: false });
  });
});

describe('merge rules', () => {
  it('require_at_least_one_review and require_at_least_one_approved_review', async () => {
    const { api, owner, space, alice, bob, writer, as } = await setup();
    await setSpaceRules(api, space.id, [{ rule: 'require_at_least_one_review' }, { rule: 'require_at_least_one_approved_review' }]);
    const cr = await open(as(writer), space.id);
    await expectRuleFails(api, space.id, cr.id, 'require_at_least_one_review');
    expect(await mergeable(owner.token, space.id, cr.id)).toEqual({ allowed: false, failingRule: 'require_at_least_one_review' });
    await requestChanges(as(bob), space.id, cr.id);
    await expectRuleFails(api, space.id, cr.id, 'require_at_least_one_approved_review');
    await approve(as(alice), space.id, cr.id);
    expect(await mergeable(owner.token, space.id, cr.id)).toEqual({ allowed: true, failingRule: null });
    // Reviews of an older revision do not count.
    await edit(as(writer), space.id, cr.id, 'More');
    await expectRuleFails(api, space.id, cr.id, 'require_at_least_one_review');
    await approve(as(alice), space.id, cr.id);
    await expectMerges(api, space.id, cr.id);
  });

  it('require_all_reviews_approved reads the latest current review of each reviewer', async () => {
    const { api, space, alice, bob, writer, as } = await setup();
    await setSpaceRules(api, space.id, [{ rule: 'require_all_reviews_approved' }]);
    const cr = await open(as(writer), space.id);
    await approve(as(alice), space.id, cr.id);
    await requestChanges(as(bob), space.id, cr.id);
    await expectRuleFails(api, space.id, cr.id, 'require_all_reviews_approved');
    await approve(as(bob), space.id, cr.id);
    await expectMerges(api, space.id, cr.id);
  });

  it('require_up_to_date_change_request', async () => {
    const { api, space, writer, as } = await setup();
    await setSpaceRules(api, space.id, [{ rule: 'require_up_to_date_change_request' }]);
    const first = await open(as(writer), space.id);
    const second = await open(as(writer), space.id);
    await edit(as(writer), space.id, first.id, 'One');
    await edit(as(writer), space.id, second.id, 'Two');
    await expectMerges(api, space.id, first.id);
    await expectRuleFails(api, space.id, second.id, 'require_up_to_date_change_request');
    expect((await api.spaces.updateChangeRequest(space.id, second.id)).data.result).toBe('update');
    await expectMerges(api, space.id, second.id);
  });

  it('require_change_request_subject', async () => {
    const { api, space, writer, as } = await setup();
    await setSpaceRules(api, space.id, [{ rule: 'require_change_request_subject' }]);
    const cr = (await as(writer).spaces.createChangeRequest(space.id, {})).data;
    await expectRuleFails(api, space.id, cr.id, 'require_change_request_subject');
    await as(writer).spaces.updateChangeRequestById(space.id, cr.id, { subject: 'Fix typos' });
    await expectMerges(api, space.id, cr.id);
  });

  it('require_author_to_merge', async () => {
    const { api, space, alice, as } = await setup();
    await setSpaceRules(api, space.id, [{ rule: 'require_author_to_merge' }]);
    const cr = await open(as(alice), space.id);
    await expectRuleFails(api, space.id, cr.id, 'require_author_to_merge');
    await expectMerges(as(alice), space.id, cr.id);
  });

  it('require_specific_reviewers and require_one_of_specific_reviewers (the author excepted)', async () => {
    const { api, owner, space, alice, bob, writer, as } = await setup();
    await setSpaceRules(api, space.id, [{ rule: 'require_specific_reviewers', users: [alice.id, bob.id, writer.id] }]);
    const cr = await open(as(writer), space.id);
    await approve(as(alice), space.id, cr.id);
    await expectRuleFails(api, space.id, cr.id, 'require_specific_reviewers');
    expect((await sdkError(api.spaces.mergeChangeRequest(space.id, cr.id))).message).toContain(bob.id);
    // An approval by someone else does not stand in for Bob's.
    await approve(api, space.id, cr.id);
    await expectRuleFails(api, space.id, cr.id, 'require_specific_reviewers');
    await approve(as(bob), space.id, cr.id);
    await expectMerges(api, space.id, cr.id);

    await setSpaceRules(api, space.id, [{ rule: 'require_one_of_specific_reviewers', users: [alice.id, bob.id] }]);
    const next = await open(as(writer), space.id);
    await approve(api, space.id, next.id);
    await requestChanges(as(alice), space.id, next.id);
    await expectRuleFails(api, space.id, next.id, 'require_one_of_specific_reviewers');
    await approve(as(bob), space.id, next.id);
    await expectMerges(api, space.id, next.id);

    await setSpaceRules(api, space.id, [{ rule: 'require_one_of_specific_reviewers', users: [owner.id] }]);
    const own = await open(api, space.id);
    await expectRuleFails(api, space.id, own.id, 'require_one_of_specific_reviewers');
  });

  it('checks the rules in order, naming the first that fails; allow_bypass lets its users merge anyway', async () => {
    const { api, owner, space, alice, writer, as } = await setup();
    await setSpaceRules(api, space.id, [
      { rule: 'require_change_request_subject' },
      { rule: 'require_at_least_one_approved_review' },
      { rule: 'allow_bypass', users: [owner.id] },
    ]);
    const cr = (await as(writer).spaces.createChangeRequest(space.id, {})).data;
    await expectRuleFails(as(alice), space.id, cr.id, 'require_change_request_subject');
    await as(writer).spaces.updateChangeRequestById(space.id, cr.id, { subject: 'Now with a subject' });
    await expectRuleFails(as(alice), space.id, cr.id, 'require_at_least_one_approved_review');
    expect(await mergeable(alice.token, space.id, cr.id)).toEqual({ allowed: false, failingRule: 'require_at_least_one_approved_review' });
    expect(await mergeable(owner.token, space.id, cr.id)).toEqual({ allowed: true, failingRule: null });
    // The writer may not merge at all: a capability, not a rule.
    expect(await mergeable(writer.token, space.id, cr.id)).toEqual({ allowed: false, failingRule: null });
    expect((await sdkError(as(writer).spaces.mergeChangeRequest(space.id, cr.id))).status).toBe(403);
    // The space's permissions stay role-based.
    expect((await as(alice).spaces.getSpaceById(space.id)).data.permissions.merge).toBe(true);
    await expectMerges(api, space.id, cr.id);
  });
});

describe('mergeRules of organizations and spaces', () => {
  it('inherits the organization rules unless the space sets its own', async () => {
    const { org, api, space, alice, writer, as } = await setup();
    expect((await api.orgs.getOrganizationById(org.id)).data.mergeRules).toEqual({ type: 'none' });
    expect((await api.spaces.getSpaceById(space.id)).data.mergeRules).toEqual({ type: 'inherit' });
    const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: [] }] };
    const updated = (await api.orgs.updateOrganizationById(org.id, { mergeRules: rules } as never)).data;
    expect(updated.mergeRules).toEqual(rules);
    expectDocumented('get', '/orgs/{organizationId}', '200', (await http(server.url, writer.token, 'GET', `/orgs/${org.id}`)).body);
    const cr = await open(as(writer), space.id);
    await expectRuleFails(api, space.id, cr.id, 'require_at_least_one_approved_review');
    // The space's own rules replace the organization's.
    const own = await setSpaceRules(api, space.id, 'none');
    expect(own.mergeRules).toEqual({ type: 'none' });
    expectDocumented('get', '/spaces/{spaceId}', '200', (await http(server.url, writer.token, 'GET', `/spaces/${space.id}`)).body);
    await expectMerges(api, space.id, cr.id);
    await setSpaceRules(api, space.id, 'inherit');
    const next = await open(as(writer), space.id);
    await expectRuleFails(api, space.id, next.id, 'require_at_least_one_approved_review');
    await approve(as(alice), space.id, next.id);
    await expectMerges(api, space.id, next.id);
    // Lists read the column too.
    const listed = (await api.orgs.listSpacesInOrganizationById(org.id)).data;
    expect(listed.items.find((s) => s.id === space.id)?.mergeRules).toEqual({ type: 'inherit' });
  });

  it('validates merge rules, naming the field, and needs admin rights', async () => {
    const { org, owner, api, space, alice, as } = await setup();
    const stranger = await createOrg(server.db, 'Elsewhere');
    const invalid: [unknown, string][] = [
      [{ type: 'bogus' }, 'mergeRules'],
      [{ type: 'rules' }, 'mergeRules.rules'],
      [{ type: 'rules', rules: [{ rule: 'nope' }] }, 'mergeRules.rules.0.rule'],
      [{ type: 'rules', rules: [{ rule: 'require_author_to_merge' }, { rule: 'custom', expression: 'true' }] }, 'mergeRules.rules.1.rule'],
      [{ type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [] }] }, 'mergeRules.rules.0.users'],
      [{ type: 'rules', rules: [{ rule: 'require_one_of_specific_reviewers' }] }, 'mergeRules.rules.0.users'],
      [{ type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [alice.id, stranger.owner.id] }] }, 'mergeRules.rules.0.users'],
      [{ type: 'rules', rules: [{ rule: 'require_author_to_merge', users: [alice.id] }] }, 'mergeRules.rules.0'],
      [{ type: 'none', extra: true }, 'mergeRules'],
      ['none', 'mergeRules'],
    ];
    for (const [mergeRules, field] of invalid) {
      const onSpace = await http(server.url, owner.token, 'PATCH', `/spaces/${space.id}`, { mergeRules });
      expect(onSpace, JSON.stringify(mergeRules)).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining(`"${field}`) } } });
      const onOrg = await http(server.url, owner.token, 'PATCH', `/orgs/${org.id}`, { mergeRules });
      expect(onOrg, JSON.stringify(mergeRules)).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining(`"${field}`) } } });
    }
    const unsupported = await http(server.url, owner.token, 'PATCH', `/spaces/${space.id}`, { mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] } });
    expect(unsupported.body.error.message).toContain('not supported');
    // Organizations have no one to inherit from.
    expect(await sdkError(api.orgs.updateOrganizationById(org.id, { mergeRules: { type: 'inherit' } } as never))).toMatchObject({ status: 400, message: expect.stringContaining('mergeRules') });
    expect((await api.spaces.getSpaceById(space.id)).data.mergeRules).toEqual({ type: 'inherit' });
    expect((await api.orgs.getOrganizationById(org.id)).data.mergeRules).toEqual({ type: 'none' });

    // Space rules need space admin; organization rules organization admin; strangers see nothing.
    const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] };
    expect((await sdkError(as(alice).spaces.updateSpaceById(space.id, { mergeRules: rules } as never))).status).toBe(403);
    expect((await sdkError(as(alice).orgs.updateOrganizationById(org.id, { mergeRules: rules } as never))).status).toBe(403);
    const theirs = sdk(server.url, stranger.owner.token);
    expect((await sdkError(theirs.spaces.updateSpaceById(space.id, { mergeRules: rules } as never))).status).toBe(404);
    expect((await sdkError(theirs.orgs.updateOrganizationById(org.id, { mergeRules: rules } as never))).status).toBe(404);
    expect((await api.spaces.getSpaceById(space.id)).data.mergeRules).toEqual({ type: 'inherit' });
    expect((await api.orgs.getOrganizationById(org.id)).data.mergeRules).toEqual({ type: 'none' });

    // Duplicated users are kept once.
    const set = await setSpaceRules(api, space.id, [{ rule: 'require_specific_reviewers', users: [alice.id, alice.id] }]);
    expect(set.mergeRules).toEqual({ type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [alice.id] }] });
  });
});
