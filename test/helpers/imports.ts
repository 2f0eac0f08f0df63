/** Helpers of the import tests: a reader's refusal, and the references of an imported page. */
import { expect } from 'vitest';
import { ImportError } from '../../src/lib/import-readers/import-error.js';

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
