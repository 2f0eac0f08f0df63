/** Validation of the page changes of a batch (REST `changes[]`, GraphQL page mutations). */
import { z } from 'zod';
import { lazySchema } from '../../../lib/validation.js';

const emojiOrIcon = lazySchema(() => z.string().max(50));
export const slugSchema = lazySchema(() => z
  .string()
  .max(100)
  .regex(/^[^/?#\s]*$/, 'must not contain "/", "?", "#" or spaces'));

/** A page body: markdown, a JSON document, or nothing (`{}`: an empty page). */
export const bodySchema = lazySchema(() => z.union([
  z.object({ markdown: z.string().max(2_000_000) }).strict(),
  z.object({ document: z.object({ object: z.literal('document'), data: z.record(z.string(), z.unknown()).optional(), nodes: z.array(z.unknown()) }).passthrough() }).strict(),
  z.object({}).strict(),
]));

const meta = {
  title: z.string().trim().min(1).max(255).optional(),
  slug: slugSchema.optional(),
  emoji: emojiOrIcon.optional(),
  icon: emojiOrIcon.optional(),
  description: z.string().max(1000).optional(),
  hidden: z.boolean().optional(),
};

const id = lazySchema(() => z.string().min(1).max(100));
/** A content reference of a link page (the public document's ContentRef): its `kind` and the fields that kind names, nothing else. */
const contentRef = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), url: z.string().min(1).max(2048) }).strict(),
  z.object({ kind: z.literal('page'), page: id, space: id.optional() }).strict(),
  z.object({ kind: z.literal('anchor'), anchor: z.string().min(1).max(255), page: id.optional(), space: id.optional() }).strict(),
  z.object({ kind: z.literal('file'), file: id, space: id.optional() }).strict(),
  z.object({ kind: z.literal('space'), space: id }).strict(),
  z.object({ kind: z.literal('collection'), collection: id }).strict(),
  z.object({ kind: z.literal('user'), user: id }).strict(),
  z.object({ kind: z.literal('reusable-content'), reusableContent: id, space: id.optional() }).strict(),
]));

export const insertPage = lazySchema(() => z
  .object({
    operation: z.literal('insert_page'),
    into: z.string().optional(),
    at: z.number().int().min(0).optional(),
    ref: z.string().max(100).optional(),
    /** Beyond the public document: groups (top level only) and links. */
    type: z.enum(['document', 'group', 'link']).optional(),
    target: contentRef.optional(),
    document: bodySchema.optional(),
    ...meta,
  })
  .strict());

export const updatePage = lazySchema(() => z
  .object({
    operation: z.literal('update_page'),
    page: z.string(),
    into: z.string().nullable().optional(),
    at: z.number().int().min(0).optional(),
    target: contentRef.optional(),
    document: bodySchema.optional(),
    ...meta,
  })
  .strict());

export const deletePage = lazySchema(() => z.object({ operation: z.literal('delete_page'), page: z.string() }).strict());

/** Files of a batch: inline bytes (`base64`); `url` sources arrive with the import fetcher. */
const fileSource = lazySchema(() => z
  .object({
    ref: z.string().max(100).optional(),
    name: z.string().min(1).max(256),
    contentType: z.string().max(255).optional(),
    base64: z.string().optional(),
    url: z.string().max(2048).optional(),
  })
  .strict());

export const insertFiles = lazySchema(() => z.object({ operation: z.literal('insert_files'), files: z.array(fileSource).min(1).max(20) }).strict());

export const pageChange = lazySchema(() => z.discriminatedUnion('operation', [insertPage, updatePage, deletePage, insertFiles]));
export const changesSchema = lazySchema(() => z.object({ changes: z.array(pageChange).min(1).max(50) }).strict());

export type PageChange = z.infer<typeof pageChange>;
export type InsertPage = z.infer<typeof insertPage>;
export type UpdatePage = z.infer<typeof updatePage>;
export type PageBody = z.infer<typeof bodySchema>;
export type InsertFiles = z.infer<typeof insertFiles>;
