/** GraphQL over WebSocket goes through the same pipeline as HTTP: token, limits, error codes. */
import { createClient, type Client } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

const server = useServer();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});

function connect(authorization?: string): Client {
  const client = createClient({
    url: `${server.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: authorization ? { authorization } : {},
    retryAttempts: 0,
  });
  clients.push(client);
  return client;
}

/** The one result of a query (refused operations: their errors), or the reason the socket closed. */
function run(client: Client, query: string, variables?: Record<string, unknown>) {
  return new Promise<{ result?: any; closed?: { code: number; reason: string } }>((resolve) => {
    let result: unknown;
    client.subscribe(
      { query, variables },
      {
        next: (value) => (result = value),
        error: (error) =>
          resolve(Array.isArray(error) ? { result: { errors: error } } : { closed: { code: (error as { code: number }).code, reason: (error as { reason: string }).reason } }),
        complete: () => resolve({ result }),
      },
    );
  });
}

describe('GraphQL over WebSocket', () => {
  it('answers queries with the connection token, with the same error codes as HTTP', async () => {
    const { org, owner } = await createOrg(server.db);
    const client = connect(`Bearer ${owner.token}`);
    const ok = await run(client, 'query($id: ID!) { organization(id: $id) { id title } }', { id: org.id });
    expect(ok.result.data.organization).toEqual({ id: org.id, title: org.title });
    const missing = await run(client, '{ space(id: "spc_missing") { id } }');
    expect(missing.result.errors[0].extensions.code).toBe('NOT_FOUND');
    const badVariable = await run(client, 'query($id: ID!) { organization(id: $id) { id } }', {});
    expect(badVariable.result.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('applies the depth limit of HTTP', async () => {
    const { org, owner } = await createOrg(server.db);
    let selection = 'id';
    for (let i = 0; i < 6; i++) selection = `organization { spaces(first: 1) { edges { node { ${selection} } } } }`;
    const deep = await run(connect(`Bearer ${owner.token}`), `query($id: ID!) { space(id: $id) { ${selection} } }`, { id: org.id });
    expect(deep.result?.data).toBeUndefined();
    expect(deep.result.errors[0].message).toMatch(/depth/i);
  });

  it('closes connections without a valid token with 4401', async () => {
    expect((await run(connect(), '{ __typename }')).closed?.code).toBe(4401);
    expect((await run(connect('Bearer quire_nope'), '{ __typename }')).closed?.code).toBe(4401);
  });
});
