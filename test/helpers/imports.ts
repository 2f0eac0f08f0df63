/** Helpers of the import tests: a reader's refusal, the references of an imported page, a target and the outline of what landed there. */
import { expect } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { ImportError } from '../../src/lib/import-readers/import-error.js';
import { sdk } from './clients.js';
import { createOrg } from './factories.js';

/** The ImportError `promise` rejects with (the test fails if it resolves, or rejects otherwise). */
export async function importFailure(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

/** Every `data.ref` of a document with its text (or an image's alt), in order. */
export function refsWithText(node: any, out: [string, Record<string, unknown>][] = []): [string, Record<string, unknown>][] {
  if (!node || typeof node !== 'object') return out;
  const textOf = (n: any): string => (n?.leaves ? n.leaves.map((l: any) => l.text).join('') : (n?.nodes ?? []).map(textOf).join(''));
  if (node.data?.ref) out.push([textOf(node) || node.data.alt || '', node.data.ref]);
  for (const child of [...(node.nodes ?? []), ...(node.fragments ?? [])]) refsWithText(child, out);
  return out;
}

/** A page of `GET …/content/pages`, with its children. */
export type PageItem = { id: string; title: string; slug: string; path: string; type: string; pages?: PageItem[] };

/** Titles and slugs of a page tree, nested as the tree is (what an import's outline is checked by). */
export const outline = (pages: PageItem[]): unknown[] => pages.map((p) => [p.title, p.slug, ...outline(p.pages ?? [])]);

/** A new organization's space titled `title` and an open change request to import into. */
export async function importTarget(db: Db, url: string, title: string) {
  const { org, owner } = await createOrg(db);
  const api = sdk(url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Import' })).data;
  return { owner, space, cr, base: `/spaces/${space.id}/change-requests/${cr.id}/content` };
}

/** What the `job` subscription (over SSE) reports of the import job `id`, each state until it ends. */
export async function importJobEvents(url: string, token: string, id: string): Promise<any[]> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: 'subscription($id: ID!) { job(id: $id) { state progress { done total } message importResult { importedResources totalResources } } }', variables: { id } }),
  });
  return [...(await response.text()).matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]).data?.job).filter(Boolean);
}
