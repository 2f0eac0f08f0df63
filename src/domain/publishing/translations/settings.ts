/**
 * Translation settings (4.15): a title (1-100) and the languages an organization's content is
 * translated into, validated against the public document's `TranslationLanguage` enumeration.
 * Members with a role read them; admins create, replace and delete them.
 */
import { z } from 'zod';
import { Prisma, type TranslationSettings } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { organizationWrite } from '../../access/guarded-write.js';
import { notFound } from '../../../lib/errors.js';
import { newId } from '../../kernel/ids.js';
import { recordEvents } from '../../kernel/outbox.js';
import { byTimeThenId, readPage, type PageArgs } from '../../kernel/pagination/keyset.js';
import { counted, type CountedPage } from '../../kernel/pagination/counted.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';

const { sql } = Prisma;

/** The public document's `TranslationLanguage`. */
export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;

const settingsSchema = lazySchema(() => z
  .object({
    title: z.string().trim().min(1).max(100),
    languages: z
      .array(z.enum(TRANSLATION_LANGUAGES))
      .max(TRANSLATION_LANGUAGES.length)
      .refine((list) => new Set(list).size === list.length, 'each language at most once')
      .optional(),
  })
  .strict());

export async function findTranslation(db: Db, access: Access, organizationId: string, id: string): Promise<TranslationSettings> {
  await access.requireOrganization(organizationId, 'viewTranslations');
  const found = await db.translationSettings.findFirst({ where: { id, organizationId } });
  if (!found) throw notFound('Translation settings');
  return found;
}

export async function translationsPage(db: Db, access: Access, organizationId: string, args: PageArgs): Promise<CountedPage<TranslationSettings>> {
  await access.requireOrganization(organizationId, 'viewTranslations');
  const key = byTimeThenId<TranslationSettings>(`translations:${organizationId}`, 't."createdAt"', 't."id"', (t) => [t.createdAt, t.id]);
  const page = await readPage<TranslationSettings>(db, sql`SELECT t.* FROM "TranslationSettings" t`, [sql`t."organizationId" = ${organizationId}`], key, args);
  return counted(page, () => db.translationSettings.count({ where: { organizationId } }));
}

export function createTranslation(db: Db, access: Access, organizationId: string, raw: unknown): Promise<TranslationSettings> {
  const input = parseInput(settingsSchema, raw);
  return organizationWrite(db, access, organizationId, 'manageTranslations', async (tx) => {
    const created = await tx.translationSettings.create({ data: { id: newId('TranslationSettings'), organizationId, title: input.title, languages: input.languages ?? [] } });
    await recordEvents(tx, { kind: 'translationCreated', organizationId, subjectId: created.id, actorId: access.userId });
    return created;
  });
}

/** `PUT`: the title (required) and, when given, the languages replace the stored ones. */
export function replaceTranslation(db: Db, access: Access, organizationId: string, id: string, raw: unknown): Promise<TranslationSettings> {
  const input = parseInput(settingsSchema, raw);
  return organizationWrite(db, access, organizationId, 'manageTranslations', async (tx) => {
    const { count } = await tx.translationSettings.updateMany({ where: { id, organizationId }, data: { title: input.title, ...(input.languages ? { languages: input.languages } : {}) } });
    if (!count) throw notFound('Translation settings');
    await recordEvents(tx, { kind: 'translationUpdated', organizationId, subjectId: id, actorId: access.userId });
    return tx.translationSettings.findUniqueOrThrow({ where: { id } });
  });
}

export function deleteTranslation(db: Db, access: Access, organizationId: string, id: string): Promise<void> {
  return organizationWrite(db, access, organizationId, 'manageTranslations', async (tx) => {
    const { count } = await tx.translationSettings.deleteMany({ where: { id, organizationId } });
    if (!count) throw notFound('Translation settings');
    await recordEvents(tx, { kind: 'translationDeleted', organizationId, subjectId: id, actorId: access.userId });
  });
}
