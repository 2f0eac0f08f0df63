/**
 * Garbage collection of stored documents (revisions/document-gc.ts): a body no entry names goes
 * once older than the grace period, with its links; a named or young one stays; a write that is
 * storing an existing unnamed body while the collection runs keeps it; one deleted just before a
 * write is stored again, links included.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { collectDocuments } from '../src/domain/versions/revisions/document-gc.js';
import { putDocuments } from '../src/domain/versions/revisions/documents.js';
import type { JSONDocument } from '../src/lib/documents/types.js';
import { createOrg } from './helpers/factories.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const HOUR = 3600_000;
let db: Db;
let spaceId: string;
beforeAll(async () => {
  db = createPrismaClient(testDatabaseUrl(), { poolMax: 4 });
  const { org } = await createOrg(db);
  spaceId = `space_gc_${randomUUID()}`;
  await db.space.create({ data: { id: spaceId, organizationId: org.id, title: 'GC', revisionId: `rev_${randomUUID()}` } });
});
afterAll(async () => {
  await db.$disconnect();
});

/** A document of its own text, with one link to a URL (so it has a DocumentLink row). */
function document(text: string): JSONDocument {
  const link = { object: 'inline' as const, type: 'link', data: { ref: { kind: 'url', url: `https://example.test/${encodeURIComponent(text)}` } }, nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text, marks: [] }] }] };
  return { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [link] }] };
}

const store = async (text: string) => (await putDocuments(db, [document(`${text} ${randomUUID()}`)]))[0];
const age = (id: string, hours: number) => db.$executeRaw`UPDATE "Document" SET "createdAt" = LOCALTIMESTAMP - make_interval(hours => ${hours}) WHERE "id" = ${id}`;
const exists = async (id: string) => (await db.document.count({ where: { id } })) === 1;
const links = (id: string) => db.documentLink.count({ where: { documentId: id } });
const name = (tx: Pick<Db, 'contentEntry'>, documentId: string) =>
  tx.contentEntry.create({ data: { spaceId, lineId: spaceId, fromSeq: 1, kind: 'page', entityId: `page_${randomUUID()}`, documentId, createdAt: new Date() } });

describe('document garbage collection', () => {
  it('deletes unnamed documents past the grace period with their links, and keeps named and young ones', async () => {
    const old = await store('old');
    const young = await store('young');
    const named = await store('named');
    await age(old, 2);
    await age(named, 2);
    await name(db, named);
    expect(await links(old)).toBe(1);

    const result = await collectDocuments(db, { graceMs: HOUR, pageSize: 2 });
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    expect(result.scanned).toBeGreaterThanOrEqual(3);
    expect(await exists(old)).toBe(false);
    expect(await links(old)).toBe(0);
    expect(await exists(young)).toBe(true);
    expect(await exists(named)).toBe(true);
  });

  it('keeps an unnamed document that a write in progress stores again, until the write names it', async () => {
    const text = `reused ${randomUUID()}`;
    const [id] = await putDocuments(db, [document(text)]);
    await age(id, 2);
    let stored!: () => void;
    const storedInWrite = new Promise<void>((resolve) => (stored = resolve));
    let collected!: () => void;
    const collection = new Promise<void>((resolve) => (collected = resolve));
    const write = db.$transaction(async (tx) => {
      expect(await putDocuments(tx, [document(text)])).toEqual([id]);
      stored();
      await collection;
      await name(tx, id);
    });
    await storedInWrite;
    await collectDocuments(db, { graceMs: HOUR });
    collected();
    await write;
    expect(await exists(id)).toBe(true);
    expect(await links(id)).toBe(1);
  });

  it('stores a document again, links included, when the collection deleted it first', async () => {
    const text = `collected ${randomUUID()}`;
    const [id] = await putDocuments(db, [document(text)]);
    await age(id, 2);
    await collectDocuments(db, { graceMs: HOUR });
    expect(await exists(id)).toBe(false);
    await db.$transaction(async (tx) => {
      await putDocuments(tx, [document(text)]);
      await name(tx, id);
    });
    expect(await exists(id)).toBe(true);
    expect(await links(id)).toBe(1);
  });
});
