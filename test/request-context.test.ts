/**
 * One way to tell who a request speaks for (src/http/request-context.ts): a request without a
 * valid token — none, malformed, unknown, expired, revoked — gets the same refusal from REST,
 * from yoga's GraphQL handler and from the GraphQL fast path: 401, in the same words, each in its
 * transport's shape. A valid token gets its answer from all three.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { digestToken, issueToken } from '../src/domain/people/identity/tokens.js';
import { createActor } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

// Tokens are not remembered: a revoked token is refused on its next request.
const server = useServer({ env: () => ({ QUIRE_TOKEN_CACHE_SECONDS: '0' }) });

const REFUSAL = 'A valid API token is required (Authorization: Bearer <token>)';

type Answer = { status: number; body: any };

async function rest(authorization?: string): Promise<Answer> {
  const response = await fetch(`${server.url}/v1/user`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, body: await response.json() };
}

/** `viaYoga`: with an `extensions` member, which the fast path leaves to yoga's own handler. */
async function graphql(authorization: string | undefined, viaYoga: boolean): Promise<Answer> {
  const body = { query: '{ viewer { id } }', ...(viaYoga ? { extensions: {} } : {}) };
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function everyTransport(authorization?: string) {
  return { rest: await rest(authorization), yoga: await graphql(authorization, true), fast: await graphql(authorization, false) };
}

function expectRefusedEverywhere(answers: Awaited<ReturnType<typeof everyTransport>>) {
  expect(answers.rest).toEqual({ status: 401, body: { error: { code: 401, message: REFUSAL } } });
  expect(answers.yoga).toEqual({ status: 401, body: { errors: [{ message: REFUSAL, extensions: { code: 'UNAUTHENTICATED' } }] } });
  expect(answers.fast).toEqual(answers.yoga);
}

let actor: Awaited<ReturnType<typeof createActor>>;

beforeAll(async () => {
  actor = await createActor(server.db);
});

describe('a request without a valid token', () => {
  it('is refused alike with no Authorization header', async () => expectRefusedEverywhere(await everyTransport()));

  it('is refused alike with a header that is not a bearer token', async () => expectRefusedEverywhere(await everyTransport(`Token ${actor.token}`)));

  it('is refused alike with an unknown token', async () => expectRefusedEverywhere(await everyTransport('Bearer quire_unknown')));

  it('is refused alike with an expired token', async () => {
    const expired = await issueToken(server.db, actor.id, { expiresAt: new Date(Date.now() - 1000) });
    expectRefusedEverywhere(await everyTransport(`Bearer ${expired}`));
  });

  it('is refused alike once its token is revoked, having been served', async () => {
    const token = await issueToken(server.db, actor.id);
    const served = await everyTransport(`Bearer ${token}`);
    expect(served.rest).toMatchObject({ status: 200, body: { id: actor.id } });
    expect(served.yoga).toEqual({ status: 200, body: { data: { viewer: { id: actor.id } } } });
    expect(served.fast).toEqual(served.yoga);

    await server.db.apiToken.deleteMany({ where: { digest: digestToken(token) } });
    expectRefusedEverywhere(await everyTransport(`Bearer ${token}`));
  });
});

describe('a request with a valid token', () => {
  it('is answered as its holder by every transport, however the scheme is spelled', async () => {
    const answers = await everyTransport(`bearer   ${actor.token}`);
    expect(answers.rest).toMatchObject({ status: 200, body: { object: 'user', id: actor.id } });
    expect(answers.yoga).toEqual({ status: 200, body: { data: { viewer: { id: actor.id } } } });
    expect(answers.fast).toEqual(answers.yoga);
  });
});
