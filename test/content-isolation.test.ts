/**
 * Every REST path of change requests and their content, tried with another organization's token:
 * each answers 404 (never 403, which would reveal that the resource exists) and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { gqlOk, http, sdk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();

describe('change requests and content across organizations', () => {
  it('answers 404 to every path for another organization, and writes nothing', async () => {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const reviewer = await createActor(server.db, { org: org.id, role: 'review' });
    const space = (await api.orgs.createSpace(org.id, { title: 'Private' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Secret' })).data;
    const written = (
      await api.spaces.updateChangeRequestContent(
        space.id,
        cr.id,
        {
          changes: [
            { operation: 'insert_page', ref: 'p', title: 'Secret page', document: { markdown: 'Classified.' } },
            { operation: 'insert_files', files: [{ name: 's.txt', contentType: 'text/plain', base64: Buffer.from('s').toString('base64') }] },
          ] as never,
        },
        { compat: false },
      )
    ).data as any;
    const pageId = written.changes[0].page.id;
    const fileId = written.insertedFiles[0].id;
    const content = await gqlOk(server.url, owner.token, `mutation($s: ID!, $c: ID!) { createReusableContent(spaceId: $s, id: $c, title: "RC") { id } }`, { s: space.id, c: cr.id });
    const review = await http(server.url, reviewer.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/reviews`, { status: 'approved' });
    expect(review.status).toBe(201);
    const before = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}`);

    const stranger = (await createOrg(server.db, 'Elsewhere')).owner;
    const base = `/spaces/${space.id}/change-requests/${cr.id}`;
    const calls: [string, string, unknown?][] = [
      ['GET', `/spaces/${space.id}/change-requests`],
      ['POST', `/spaces/${space.id}/change-requests`, { subject: 'Mine' }],
      ['GET', base],
      ['PATCH', base, { subject: 'Mine', status: 'archived' }],
      ['POST', `${base}/merge`],
      ['POST', `${base}/update`],
      ['GET', `${base}/pdf`],
      ['GET', `${base}/changes`],
      ['GET', `${base}/content`],
      ['POST', `${base}/content`, { changes: [{ operation: 'delete_page', page: pageId }] }],
      ['GET', `${base}/content/pages`],
      ['GET', `${base}/content/page/${pageId}`],
      ['GET', `${base}/content/path/secret-page`],
      ['GET', `${base}/content/files`],
      ['GET', `${base}/content/files/${fileId}`],
      ['GET', `${base}/content/reusable-contents/${content.createReusableContent.id}`],
      ['GET', `${base}/reviews`],
      ['POST', `${base}/reviews`, { status: 'approved' }],
      ['GET', `${base}/reviews/${review.body.id}`],
      ['GET', `${base}/requested-reviewers`],
      ['POST', `${base}/requested-reviewers`, { users: [stranger.id] }],
      ['DELETE', `${base}/requested-reviewers/${reviewer.id}`],
    ];
    for (const [method, path, body] of calls) {
      const answer = await http(server.url, stranger.token, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    const search = await http(server.url, stranger.token, 'GET', `/orgs/${org.id}/search?query=classified`);
    expect(search.status).toBe(404);

    const after = await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}`);
    expect(after.body).toEqual(before.body);
    expect((await http(server.url, owner.token, 'GET', `${base}/content/page/${pageId}`)).status).toBe(200);
    expect((await http(server.url, owner.token, 'GET', `/spaces/${space.id}/change-requests?status=draft`)).body.count).toBe(1);
  });
});
