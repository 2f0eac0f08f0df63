/**
 * Driving git sync as a client does, for the git sync suites: a space (and a bare repository of
 * the same name) per test, an operation asked over REST and waited for through `git/info`, the
 * space's pages flat in tree order, and edits merged through a change request.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { http, sdk } from '../helpers/clients.js';
import { createOrg } from '../helpers/factories.js';
import { useServer, type TestServer } from '../helpers/server.js';
import { startGitServer, type GitServer } from './git-server.js';

/**
 * What every git sync suite starts with: quire with a job runner (`server`), a git server of its
 * own whose user `bot` has `password` (`git`: it stands for the server once beforeAll started it),
 * and the client below driving both.
 */
export function useGitSync({ password }: { password: string }) {
  const server = useServer({ worker: true });
  let started: GitServer | undefined;
  beforeAll(async () => void (started = await startGitServer({ user: 'bot', password })));
  afterAll(() => started?.close());
  const current = () => started ?? raise('the git server starts in beforeAll: use it in a test or a hook');
  const git = new Proxy({} as GitServer, { get: (_, key) => Reflect.get(current(), key), set: (_, key, value) => Reflect.set(current(), key, value) });
  return { server, git, ...gitSyncClient(server, current) };
}

const raise = (message: string): never => {
  throw new Error(message);
};

export function gitSyncClient(server: TestServer, git: () => GitServer) {
  /** An organization, its owner, a space and an empty repository, all named `name`. */
  async function setup(name: string) {
    const { org, owner } = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const space = (await api.orgs.createSpace(org.id, { title: name })).data;
    await git().createRepo(name);
    return { org, owner, space, api };
  }

  /** Waits until the space's git operation ends; answers git/info. */
  async function settled(token: string, spaceId: string): Promise<any> {
    for (let i = 0; i < 300; i++) {
      const info = await http(server.url, token, 'GET', `/spaces/${spaceId}/git/info`);
      if (info.status === 200 && info.body.operation?.state !== 'running') return info.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the git operation did not end');
  }

  /** Queues an import or export (204) and answers git/info once it ended. */
  async function sync(token: string, spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>) {
    const answer = await http(server.url, token, 'POST', `/spaces/${spaceId}/git/${direction}`, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(204);
    return settled(token, spaceId);
  }

  /** The space's current pages, flat in tree order. */
  async function pages(token: string, spaceId: string): Promise<any[]> {
    const content = await http(server.url, token, 'GET', `/spaces/${spaceId}/content`);
    const out: any[] = [];
    const walk = (list: any[]) => list.forEach((p) => (out.push(p), walk(p.pages ?? [])));
    walk(content.body.pages);
    return out;
  }

  /** A batch of changes through a change request, merged. */
  async function edit(api: ReturnType<typeof sdk>, spaceId: string, changes: unknown[]) {
    const cr = (await api.spaces.createChangeRequest(spaceId, { subject: 'Edit' })).data;
    await api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: changes as never }, { compat: false } as never);
    await api.spaces.mergeChangeRequest(spaceId, cr.id);
  }

  return { setup, settled, sync, pages, edit };
}
