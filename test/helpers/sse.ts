/** Reading a GraphQL subscription answered over SSE (text/event-stream) as it streams. */

export type SseResult = { data?: any; errors?: readonly any[] };

/** The results of the stream's `next` events, each as soon as it has arrived. */
export async function* sseResults(response: Response): AsyncGenerator<SseResult> {
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = message.split('\n').find((line) => line.startsWith('data: '));
      if (message.startsWith('event: next') && data) yield JSON.parse(data.slice(6)) as SseResult;
    }
  }
}

/** Starts a GraphQL subscription over SSE (a POST asking for text/event-stream); its results with `sseResults`. */
export async function postSubscription(baseUrl: string, token: string, query: string, variables: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
    signal,
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream')) throw new Error(`not an event stream: ${response.status} ${await response.text()}`);
  return response;
}
