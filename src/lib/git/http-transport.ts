/**
 * isomorphic-git's HTTP client, made of the safe request (src/lib/fetch): every request and
 * redirect of a clone, fetch or push is checked like an import's (addresses, schemes, idle time,
 * the job's signal), credential headers stay with the remote's origin, and the bytes received
 * count against the operation's cap as they stream.
 */
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import type { SafeRequest } from '../fetch/safe-request.js';
import type { GitBudget } from './budget.js';

/** Error bodies are read for nothing but a hint: this much at most. */
const MAX_ERROR_BODY = 64 * 1024;

/** The client, and `closeAll` ending the responses isomorphic-git left unread (their connections and timers). */
export function gitHttpClient(request: SafeRequest, budget: GitBudget): { client: HttpClient; closeAll(): void } {
  const open = new Set<() => void>();
  const client: HttpClient = {
    async request({ url, method = 'GET', headers = {}, body }: GitHttpRequest): Promise<GitHttpResponse> {
      const response = await request({ url, method, headers, ...(body ? { body: await collect(body) } : {}) });
      const answer = { url: response.url, method, statusCode: response.status, statusMessage: response.statusMessage, headers: response.headers };
      if (response.status !== 200) return { ...answer, body: once(await errorBody(response.body, response.close)) };
      open.add(response.close);
      return { ...answer, body: counted(response.body, budget, () => open.delete(response.close)) };
    },
  };
  return {
    client,
    closeAll() {
      for (const close of open) close();
      open.clear();
    },
  };
}

async function* counted(body: AsyncIterableIterator<Uint8Array>, budget: GitBudget, finished: () => void): AsyncIterableIterator<Uint8Array> {
  try {
    for await (const chunk of body) {
      budget.receive(chunk.byteLength);
      yield chunk;
    }
  } finally {
    finished();
  }
}

async function* once(bytes: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield bytes;
}

async function errorBody(body: AsyncIterableIterator<Uint8Array>, close: () => void): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= MAX_ERROR_BODY) break;
    }
  } catch {
    // The status says what went wrong; a broken error body adds nothing.
  } finally {
    close();
  }
  return Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY);
}

/** A request body (isomorphic-git hands over an array of chunks, or an async iterable) as one buffer, to send with its length. */
async function collect(body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
