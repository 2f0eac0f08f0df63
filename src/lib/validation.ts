/** Input validation with zod: the first issue becomes a 400 that names the offending field. */
import { z } from 'zod';
import { badRequest } from './errors.js';

/** `prefix` places the input in a larger one (`emails.3.`: its fields are named `emails.3.role`…). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = prefix + issue.path.join('.');
  throw badRequest(field ? `Invalid value for "${field}": ${issue.message}` : issue.message, field || undefined);
}

/**
 * A schema built at its first use instead of at import. zod 4 gives every schema instance its own
 * methods and state (~15 KB of heap per object field): the ~100 input schemas the domain's modules
 * declared weighed megabytes in every process from its start, most never used by it
 * (docs/performance.md, Memory). The proxy stands for the schema (its properties, `instanceof`,
 * `in`), and it can be a part of another schema; the validation and its messages are the schema's.
 */
export function lazySchema<S extends z.ZodType>(build: () => S): S {
  let schema: S | undefined;
  const built = () => (schema ??= build());
  return new Proxy({} as S, {
    get: (_, key) => Reflect.get(built(), key),
    has: (_, key) => Reflect.has(built(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(built()),
  });
}

export const titleSchema = (max: number, min = 0) => z.string().trim().min(min).max(max);

/** An absolute http or https URL, at most 2,048 characters (the public document's `URL`). */
export const httpUrlSchema = lazySchema(() => z.string().max(2048).refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http or https URL'));
