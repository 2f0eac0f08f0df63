/**
 * A git export: the space's current content as one commit on top of the branch tip, pushed
 * without force. No churn: an entity whose fingerprint is the one its blob was written or read
 * with keeps that blob byte for byte (moved, when its path had to change); only changed ones are
 * written again, at the path recorded for them; deleted ones remove only the files quire wrote
 * for them; SUMMARY.md is written only when the tree it describes changed; everything else of
 * the branch (outside the content root, or files quire never wrote) is untouched.
 *
 * The branch moved since the last sync: its commit is imported first, merged three ways like any
 * import (a conflict parks it and ends the export), then the export goes on from the merged
 * content. A push refused because the branch moved meanwhile does the same, a bounded number of
 * times; `force` pushes over it instead.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { JSONDocument } from '../../lib/documents/types.js';
import { readGitLayout, summaryMarkdown, type GitPageNode } from '../../lib/git-layout/index.js';
import { syncError } from './sync-error.js';
import { GitError } from '../../lib/git/errors.js';
import { documentToMarkdown, markdownRefOptions, type ContentLayout } from '../../lib/markdown/index.js';
import { linkUrl, plannedLayout } from './layout.js';
import { buildTree, type PageNode } from '../versions/revisions/tree.js';
import { loadDocuments } from '../versions/revisions/documents.js';
import { revisionScope } from '../versions/revisions/load.js';
import type { Entry, PageEntry } from '../versions/revisions/entries.js';
import { fingerprintOf } from './fingerprint.js';
import { endStillConflicting, importCommit, layoutText } from './import.js';
import { loadMapping, saveMapping, type BlobRecord } from './mapping.js';
import { commitUrlOf, endOperation, lockSync, type GitOperation } from './operation.js';
import { snapshotOf, versionOfEntry, type Snapshot } from './snapshot.js';
import type { Person } from '../../lib/git/repository.js';

export type ExportOutcome = { kind: 'exported' | 'up-to-date' | 'conflicts'; commit: string | null };

const encoder = new TextEncoder();

/** Attributes a page's front matter holds (its description is written by the markdown writer). */
function frontMatterOf(entry: Entry): Record<string, unknown> {
  const data = entry.data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ['icon', 'hidden', 'layout'] as const) if (data[key] !== undefined) out[key] = data[key];
  if (data.frontMatter && typeof data.frontMatter === 'object') Object.assign(out, data.frontMatter);
  return out;
}

/** `GITBOOK-{n}: {subject}` and friends: `{n}` the merged change request's number, `{subject}` its subject. */
async function commitMessage(op: GitOperation, headId: string): Promise<string> {
  const template = op.input.commitMessage ?? '';
  if (!/\{n\}|\{subject\}/.test(template)) return template;
  const [merged] = await op.db.$queryRaw<{ number: number; subject: string }[]>`
    SELECT c."number", c."subject" FROM "Revision" r JOIN "ChangeRequest" c ON c."id" = r."mergedFromId" WHERE r."id" = ${headId}`;
  const subject = merged?.subject || 'Update';
  return template.replace(/\{n\}/g, merged ? String(merged.number) : '0').replace(/\{subject\}/g, subject);
}

/** The person whose change it was: the head revision's author, else who asked for the export, else the bot. */
async function authorOf(op: GitOperation, headId: string): Promise<Person> {
  const [row] = await op.db.$queryRaw<{ displayName: string; email: string }[]>`
    SELECT u."displayName", u."email" FROM "Revision" r JOIN "User" u ON u."id" = COALESCE(r."createdById", ${op.actorId}) WHERE r."id" = ${headId}`;
  return row ? { name: row.displayName || row.email, email: row.email } : op.committer;
}

async function readAll(stream: NodeJS.ReadableStream | null): Promise<Uint8Array> {
  if (!stream) throw new GitError('GIT_PROTOCOL', 'A file of the space has no stored bytes');
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The tree SUMMARY.md describes, as comparable lines (depth, kind, path or title). */
function treeLines(nodes: GitPageNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [`${depth}|${n.type}|${n.path ?? n.href ?? ''}|${n.title ?? ''}`, ...treeLines(n.children, depth + 1)]);
}

/** The same lines for the space's tree with the paths planned for it. */
function plannedLines(nodes: PageNode[], paths: Map<string, string>, depth = 0): string[] {
  return nodes.flatMap(({ entry: p, children }) => {
    const target = p.type === 'link' ? linkUrl(p) : p.type === 'group' ? '' : (paths.get(p.entityId) ?? '');
    return [`${depth}|${p.type}|${target}|${p.title}`, ...plannedLines(children, paths, depth + 1)];
  });
}

export async function exportSpace(op: GitOperation): Promise<ExportOutcome> {
  const input = op.input;
  op.progress(0, null, 'Fetching the branch');
  let tip = await op.repo.fetchBranch(input.ref);
  for (let attempt = 1; ; attempt++) {
    const sync = await op.db.gitSync.findUnique({ where: { spaceId: op.spaceId } });
    if (tip && sync?.commitOid && tip !== sync.commitOid && !input.force) {
      // The branch moved since the last sync: its changes are merged into the space first.
      const merged = await importCommit(op, tip, { force: false, asPartOfExport: true });
      if (merged.kind === 'conflicts') return { kind: 'conflicts', commit: tip };
      if (merged.kind === 'still-conflicting') {
        await endStillConflicting(op, 'export', merged);
        return { kind: 'conflicts', commit: tip };
      }
    }
    const result = await writeAndPush(op, tip);
    if (result !== 'rejected') return result;
    if (attempt >= 3) throw syncError('GIT_BUSY', 'The branch kept moving while the export pushed to it: try again');
    tip = await op.repo.fetchBranch(input.ref);
  }
}

async function writeAndPush(op: GitOperation, tip: string | null): Promise<ExportOutcome | 'rejected'> {
  const input = op.input;
  const space = await op.db.space.findUniqueOrThrow({ where: { id: op.spaceId }, select: { revisionId: true } });
  const headScope = await revisionScope(op.db, space.revisionId);
  const head: Snapshot = await snapshotOf(op.db, headScope);
  const mapping = await loadMapping(op.db, op.spaceId);
  const entries = tip ? await op.repo.listTree(tip) : [];
  const tipLayout = await readGitLayout(entries, layoutText(op));
  const { root, readme, summary } = tipLayout.config;
  const owned = new Set([...mapping.byEntity.values()].map((r) => r.path));
  const taken = new Set(entries.filter((e) => e.path.startsWith(root)).map((e) => e.path.slice(root.length)).filter((p) => !owned.has(p)));
  taken.add(summary);

  const all = [...head.values()];
  const pages = all.filter((e): e is PageEntry => e.kind === 'page');
  const { layout, paths, nodes } = plannedLayout(all, mapping.byEntity, { taken, readme });

  // Entities whose file moves: bodies that link to them are written again, whatever else.
  const moved = all.filter((e) => mapping.byEntity.get(e.entityId)?.path !== paths.get(e.entityId)).map((e) => e.entityId);
  const candidates = all.filter((e) => e.documentId && mapping.byEntity.get(e.entityId)?.fingerprint === fingerprintOf(e.kind, versionOfEntry(e))).map((e) => e.documentId!);
  const relink = new Set(
    moved.length && candidates.length
      ? (await op.db.$queryRaw<{ documentId: string }[]>`SELECT DISTINCT "documentId" FROM "DocumentLink" WHERE "documentId" = ANY(${candidates}::text[]) AND "target" = ANY(${moved}::text[])`).map((r) => r.documentId)
      : [],
  );

  const changes = new Map<string, { oid: string } | null>();
  const records = new Map<string, BlobRecord>();
  const toRender = all.filter((e) => {
    if (e.kind === 'page' && e.type !== 'document') return false;
    const record = mapping.byEntity.get(e.entityId);
    return !(record && record.fingerprint === fingerprintOf(e.kind, versionOfEntry(e)) && !(e.documentId && relink.has(e.documentId)));
  });
  const bodies = await loadDocuments(op.db, [...new Set(toRender.flatMap((e) => (e.documentId ? [e.documentId] : [])))]);
  let done = 0;
  for (const entity of all) {
    op.signal.throwIfAborted();
    if (entity.kind === 'page' && entity.type !== 'document') continue;
    const path = paths.get(entity.entityId);
    if (!path || path.endsWith('/')) continue;
    const fingerprint = fingerprintOf(entity.kind, versionOfEntry(entity));
    const record = mapping.byEntity.get(entity.entityId);
    let oid: string;
    if (!toRender.includes(entity)) oid = record!.oid;
    else {
      op.progress(++done, toRender.length, 'Writing changed files');
      oid = await op.repo.writeBlob(await render(op, entity, bodies, layout));
    }
    if (!record || record.path !== path || record.oid !== oid) changes.set(root + path, { oid });
    if (record && record.path !== path && !changes.has(root + record.path)) changes.set(root + record.path, null);
    records.set(entity.entityId, { kind: entity.kind, entityId: entity.entityId, path, oid, fingerprint, parentId: entity.kind === 'page' ? entity.parentId : null });
  }
  // Files quire wrote for entities that are gone (a path another entity now takes is kept).
  const written = new Set([...records.values()].map((r) => r.path));
  for (const record of mapping.byEntity.values()) if (!head.has(record.entityId) && !written.has(record.path)) changes.set(root + record.path, null);
  for (const [path, change] of changes) if (change === null && written.has(path.slice(root.length))) changes.delete(path);

  // SUMMARY.md only when the tree it describes changed (or there was none).
  const summaryEntry = entries.find((e) => e.path === root + summary);
  if (!summaryEntry || treeLines(tipLayout.pages).join('\n') !== plannedLines(buildTree(pages), paths).join('\n')) {
    const text = summaryMarkdown(nodes, paths, summary);
    const oid = await op.repo.writeBlob(encoder.encode(text));
    if (oid !== summaryEntry?.oid) changes.set(root + summary, { oid });
  }

  if (!changes.size && tip) {
    await op.db.$transaction(async (tx) => {
      await lockSync(tx, op.spaceId);
      await saveMapping(tx, op.spaceId, mapping, records);
      await tx.gitSync.update({ where: { spaceId: op.spaceId }, data: { commitOid: tip, revisionId: headScope.id, ...(input.timestamp ? { lastTimestamp: new Date(input.timestamp) } : {}) } });
      await endOperation(tx, op, 'export', { state: 'success', commitId: tip });
      await op.complete(tx, { commit: tip, changed: 0 });
    });
    return { kind: 'up-to-date', commit: tip };
  }

  const message = await commitMessage(op, headScope.id);
  const now = Math.floor(Date.now() / 1000);
  const commit = await op.repo.writeCommit({
    parent: tip,
    changes,
    message,
    author: { ...(await authorOf(op, headScope.id)), timestamp: now },
    committer: { ...op.committer, timestamp: now },
  });
  op.progress(done, toRender.length, 'Pushing');
  if ((await op.repo.push(input.ref, commit, { force: input.force })) === 'rejected') return 'rejected';

  await op.db.$transaction(
    async (tx: Prisma.TransactionClient) => {
      await lockSync(tx, op.spaceId);
      await saveMapping(tx, op.spaceId, mapping, records);
      await tx.gitSync.update({ where: { spaceId: op.spaceId }, data: { commitOid: commit, revisionId: headScope.id, conflictChangeRequestId: null, ...(input.timestamp ? { lastTimestamp: new Date(input.timestamp) } : {}) } });
      const url = commitUrlOf(input, commit);
      await tx.$executeRaw`UPDATE "Revision" SET "git" = ${JSON.stringify({ oid: commit, message, createdByGitBook: true, ...(url ? { url } : {}), ref: input.ref })}::jsonb WHERE "id" = ${headScope.id} AND "git" IS NULL`;
      await endOperation(tx, op, 'export', { state: 'success', commitId: commit, revisionId: headScope.id });
      await op.complete(tx, { commit, changed: changes.size });
    },
    { timeout: 120_000 },
  );
  return { kind: 'exported', commit };
}

/** An entity's file as quire writes it. */
async function render(op: GitOperation, entity: Entry, bodies: Map<string, JSONDocument>, layout: ContentLayout): Promise<Uint8Array> {
  if (entity.kind === 'file') {
    const key = String((entity.data as Record<string, unknown>).storageKey ?? '');
    return readAll(await op.store.open(key));
  }
  const document = entity.documentId ? bodies.get(entity.documentId) : undefined;
  const body: JSONDocument = document ?? { object: 'document', data: {}, nodes: [] };
  const refs = markdownRefOptions('relative', layout, entity.entityId);
  if (entity.kind === 'reusable-content') return encoder.encode(documentToMarkdown(body, { frontMatter: { title: entity.title }, ...refs }));
  const data = entity.data as Record<string, unknown>;
  return encoder.encode(
    documentToMarkdown(body, {
      title: entity.title,
      ...(typeof data.description === 'string' && data.description ? { description: data.description } : {}),
      frontMatter: frontMatterOf(entity),
      ...refs,
    }),
  );
}
