/**
 * What an endpoint is made of, as callers give it: `url` (http or https, no credentials in it),
 * `events` (kinds of the outbox; empty: every kind), `description`, `active`. Each refusal is a
 * 400 naming its field.
 */
import { z } from 'zod';
import { EVENT_KINDS } from '../kernel/event-kinds.js';
import { lazySchema, parseInput } from '../../lib/validation.js';

const url = lazySchema(() => z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .superRefine((value, ctx) => {
    const parsed = URL.canParse(value) ? new URL(value) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol)) ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' });
    else if (parsed.username || parsed.password) ctx.addIssue({ code: 'custom', message: 'must not contain credentials (the signature authenticates quire)' });
  })
  .transform((value) => new URL(value).href));

const kinds = Object.keys(EVENT_KINDS);
const events = lazySchema(() => z
  .array(
    z.string().superRefine((kind, ctx) => {
      if (!kinds.includes(kind)) ctx.addIssue({ code: 'custom', message: `unknown event kind "${kind.slice(0, 100)}"` });
    }),
  )
  .max(kinds.length)
  .transform((list) => [...new Set(list)].sort()));

const createSchema = lazySchema(() => z
  .object({
    url,
    events: events.optional(),
    description: z.string().trim().max(500).optional(),
    active: z.boolean().optional(),
  })
  .strict());
const updateSchema = lazySchema(() => createSchema.partial());

export type EndpointInput = z.output<typeof updateSchema>;

export const parseCreate = (raw: unknown) => parseInput(createSchema, raw);
export const parseUpdate = (raw: unknown) => parseInput(updateSchema, raw);
