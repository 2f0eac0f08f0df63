/**
 * The repository's side of a sync: a commit's tree, laid out (lib/git-layout), as the entities
 * the space would hold — with the IDs they already have. An entity is recognized by the path its
 * blob was at in the last synced commit; a file that moved keeps its ID when its blob did not
 * change (a rename, e.g. a page that gained children); on the first sync, by where the space's
 * own pages would be written (lib/markdown/layout.ts). Only blobs that changed since the last
 * sync are read and converted (with the previous body's block keys kept, so a three-way merge
 * compares block by block); every other entity is its base version, moved where the tree says.
 */
import { decodeText } from '../../lib/import-readers/zip/pages.js';
import { generateNKeysBetween } from 'fractional-indexing';
import YAML from 'yaml';
import type { PreparedDocument } from '../../lib/documents/document-id.js';
import type { JSONDocument } from '../../lib/documents/types.js';
import { slugOf } from '../../lib/documents/slug.js';
import { poolSettings } from '../../lib/threads/pool.js';
import { convertInWindow } from '../../lib/threads/windowed.js';
import type { GitLayout, GitPageNode } from '../../lib/git-layout/index.js';
import { ImportError } from '../../lib/import-readers/import-error.js';
import { syncError } from './sync-error.js';
import { convertMarkdownStored, MarkdownLimitError, type ContentLayout, type ContentRef } from '../../lib/markdown/index.js';
import { folderOf, joinRelative } from '../../lib/markdown/layout.js';
import { newId } from '../kernel/ids.js';
import type { EntityVersion } from '../versions/revisions/commit.js';
import type { EntityKind } from '../versions/revisions/entries.js';
import type { BlobStore } from '../versions/files/blob-store.js';
import { acceptFile, type IncomingFile } from '../versions/files/file-input.js';
import { fileVersion, storeFiles } from '../versions/files/store-files.js';
import { fingerprintOf } from './fingerprint.js';
import { linkCandidates } from './link-candidates.js';
import type { BlobRecord, Mapping } from './mapping.js';
import { matchSimilar, MAX_CANDIDATES, plainTextOf } from './renames.js';
import { versionOfEntry, type Snapshot } from './snapshot.js';

export type TheirEntity = {
  kind: EntityKind;
  entityId: string;
  version: EntityVersion;
  /** Where its blob is in the commit (link pages and groups have none). */
  record?: BlobRecord;
};

export type Theirs = { entities: Map<string, TheirEntity>; warnings: string[] };

export type TheirsInput = {
  layout: GitLayout;
  readBlob(oid: string): Promise<Uint8Array>;
  /** The revision of the last synced commit (empty before the first sync). */
  base: Snapshot;
  mapping: Mapping;
  /** First sync only: where the space's current pages would be written, to keep their IDs. */
  current?: { layout: ContentLayout; snapshot: Snapshot };
  /** A stored body (moved pages are recognized by their text). */
  loadDocument(id: string): Promise<JSONDocument | undefined>;
  /** A stored body as JSON text, for the block keys a changed file's new body keeps (parsed in the pool). */
  loadDocumentText(id: string): Promise<string | null>;
  store: BlobStore;
  /**
   * Stores bodies read from the commit (their IDs are already in the versions), BODY_BATCH at a
   * time as they are converted — in the import's transaction, so a failure stores none and the
   * import never holds every converted body at once.
   */
  storeBodies(bodies: PreparedDocument[]): Promise<void>;
  signal: AbortSignal;
  progress(done: number, total: number): void;
};

/** Page attributes a file's front matter sets (the rest is kept under `frontMatter`, written back on export). */
const FRONT_MATTER_FIELDS = ['icon', 'hidden', 'layout'] as const;
/** Changed files are stored in batches of this many files or bytes, whichever comes first (the bytes of a batch are in memory together). */
const STORE_BATCH_FILES = 100;
const STORE_BATCH_BYTES = 32 * 1024 * 1024;
/** Converted bodies handed to `storeBodies` at once (as imports/write-tree.ts IMPORT_BATCH_PAGES). */
export const BODY_BATCH = 200;
/** Files converting at a time: two per conversion thread, so that none waits for the event loop (as imports/write-tree.ts). */
const CONVERSIONS_UNDER_WAY = () => 2 * poolSettings().threads;

/** A front matter block that does not parse is the repository's fault: named by file and line. */
function checkFrontMatter(path: string, markdown: string): void {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!match) return;
  const document = YAML.parseDocument(match[1]!, { logLevel: 'silent', maxAliasCount: 100 } as YAML.DocumentOptions);
  const error = document.errors[0];
  if (error) {
    const line = (error.linePos?.[0]?.line ?? 1) + 1;
    throw syncError('GIT_INVALID_REPOSITORY', `${path}:${line}: invalid front matter: ${error.message.split('\n')[0]}`);
  }
}

function pageData(description: string | undefined, frontMatter: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (description) data.description = description;
  const rest: Record<string, unknown> = { ...frontMatter };
  for (const field of FRONT_MATTER_FIELDS) {
    if (!(field in rest)) continue;
    const value = rest[field];
    const fits = field === 'hidden' ? typeof value === 'boolean' : field === 'icon' ? typeof value === 'string' : typeof value === 'object' && value !== null && !Array.isArray(value);
    if (fits) {
      data[field] = value;
      delete rest[field];
    }
  }
  delete rest.title;
  if (Object.keys(rest).length) data.frontMatter = rest;
  return data;
}

/** Fractional positions for siblings in order: base positions kept where they still ascend, new keys between. */
export function siblingPositions(ids: string[], previous: (id: string) => string | undefined): string[] {
  const kept: (string | undefined)[] = [];
  let last: string | undefined;
  for (const id of ids) {
    const position = previous(id);
    const keep = position !== undefined && position !== '' && (last === undefined || position > last);
    kept.push(keep ? position : undefined);
    if (keep) last = position;
  }
  const out = [...kept];
  for (let i = 0; i < out.length; ) {
    if (out[i] !== undefined) {
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && out[j] === undefined) j++;
    const keys = generateNKeysBetween(i > 0 ? out[i - 1]! : null, j < out.length ? out[j]! : null, j - i);
    for (let k = i; k < j; k++) out[k] = keys[k - i];
    i = j;
  }
  return out as string[];
}

/** `base`, `base-2`, … unused among the siblings. */
function uniqueSlug(wanted: string, used: Set<string>): string {
  const base = (wanted || 'page').slice(0, 90);
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
  used.add(slug);
  return slug;
}

type Planned = { node: GitPageNode; id: string; parentId: string | null };

/**
 * New page files that are vanished pages moved and edited (renames.ts): they take the vanished
 * page's ID, and their children follow.
 */
async function recognizeMovedPages(planned: Planned[], fresh: Set<string>, claimed: Set<string>, input: TheirsInput, texts: Map<string, string>): Promise<void> {
  const inTree = new Set(planned.flatMap((p) => (p.node.path ? [p.node.path] : [])));
  const vanished = [...input.mapping.byEntity.values()].filter((r) => r.kind === 'page' && !claimed.has(r.entityId) && !inTree.has(r.path) && input.base.get(r.entityId)?.documentId);
  const added = planned.filter((p) => fresh.has(p.id) && p.node.type === 'document' && p.node.oid);
  if (!vanished.length || !added.length || vanished.length > MAX_CANDIDATES || added.length > MAX_CANDIDATES) return;
  const addedTexts = new Map<string, string>();
  for (const p of added) {
    const body = decodeText(await input.readBlob(p.node.oid!));
    texts.set(p.node.oid!, body);
    addedTexts.set(p.id, body);
  }
  const removedTexts = new Map<string, string>();
  for (const record of vanished) {
    const document = await input.loadDocument(input.base.get(record.entityId)!.documentId!);
    removedTexts.set(record.entityId, `${input.base.get(record.entityId)!.title} ${plainTextOf(document)}`);
  }
  const moved = matchSimilar(addedTexts, removedTexts);
  if (!moved.size) return;
  for (const p of planned) {
    const id = moved.get(p.id);
    if (id) (p.id = id, claimed.add(id));
    if (p.parentId && moved.has(p.parentId)) p.parentId = moved.get(p.parentId)!;
  }
}

export async function readTheirs(input: TheirsInput): Promise<Theirs> {
  /** Blob texts read while recognizing moved pages, reused by the conversion. */
  const texts = new Map<string, string>();
  const { layout, base, mapping } = input;
  const warnings = layout.problems.filter((p) => p.severity === 'warning').map((p) => `${p.path}${p.line ? `:${p.line}` : ''}: ${p.message}`);
  const claimed = new Set<string>();
  const treePaths = new Set<string>([...layout.pagesByPath.keys(), ...layout.files.map((f) => f.path), ...layout.includes.map((i) => i.path)]);

  /** The entity a blob at `path` belongs to: same path, else the same blob moved, else (first sync) the current content's. */
  const identify = (kind: EntityKind, path: string, oid: string | null, current?: () => string | undefined): string => {
    const byPath = mapping.byPath.get(path);
    if (byPath && byPath.kind === kind && !claimed.has(byPath.entityId)) return claim(byPath.entityId);
    if (oid) {
      for (const record of mapping.byEntity.values()) {
        if (record.kind === kind && record.oid === oid && !treePaths.has(record.path) && !claimed.has(record.entityId)) return claim(record.entityId);
      }
    }
    const existing = current?.();
    if (existing && !claimed.has(existing)) return claim(existing);
    const id = newId(kind === 'page' ? 'RevisionPage' : kind === 'file' ? 'File' : 'ReusableContent');
    fresh.add(id);
    return claim(id);
  };
  const fresh = new Set<string>();
  const claim = (id: string) => (claimed.add(id), id);
  const now = input.current;

  // Pages: IDs first (links between pages need every ID), parents before children.
  const planned: Planned[] = [];
  const groupsByTitle = new Map<string, string[]>();
  for (const entry of base.values()) {
    if (entry.kind === 'page' && entry.type !== 'document') groupsByTitle.set(`${entry.type}:${entry.title.toLowerCase()}`, [...(groupsByTitle.get(`${entry.type}:${entry.title.toLowerCase()}`) ?? []), entry.entityId]);
  }
  const pathless = (node: GitPageNode): string => {
    const candidates = groupsByTitle.get(`${node.type}:${(node.title ?? node.fallbackTitle).toLowerCase()}`) ?? [];
    const found = candidates.find((id) => !claimed.has(id));
    return claim(found ?? newId('RevisionPage'));
  };
  const walk = (nodes: GitPageNode[], parentId: string | null) => {
    for (const node of nodes) {
      const id = node.path ? identify('page', node.path, node.oid, now && (() => now.layout.pageAt(node.path!))) : pathless(node);
      planned.push({ node, id, parentId });
      walk(node.children, id);
    }
  };
  walk(layout.pages, null);
  await recognizeMovedPages(planned, fresh, claimed, input, texts);
  const pageIdByPath = new Map(planned.flatMap((p) => (p.node.path ? [[p.node.path, p.id] as const] : [])));
  const fileIds = new Map(layout.files.map((f) => [f.path, identify('file', f.path, f.oid, now && (() => now.layout.fileAtAsset(f.path)))]));
  const includeIds = new Map(layout.includes.map((i) => [i.path, identify('reusable-content', i.path, i.oid, now && (() => now.layout.reusableContentAt(i.path)))]));

  /** A relative link of the file at `from` as a reference to what the commit holds. */
  const resolver = (from: string) => (url: string): ContentRef | undefined => {
    const hash = url.indexOf('#');
    let path: string;
    try {
      path = decodeURIComponent(hash < 0 ? url : url.slice(0, hash));
    } catch {
      return undefined;
    }
    const anchor = hash < 0 ? '' : url.slice(hash + 1);
    const joined = path ? joinRelative(folderOf(from), path) : undefined;
    if (joined === undefined) return undefined;
    const file = fileIds.get(joined);
    if (file) return { kind: 'file', file };
    const include = includeIds.get(joined);
    if (include) return { kind: 'reusable-content', reusableContent: include };
    const trimmed = joined.replace(/\/+$/, '');
    const page = pageIdByPath.get(trimmed) ?? pageIdByPath.get(`${trimmed}/README.md`) ?? pageIdByPath.get(`${trimmed}.md`) ?? (trimmed === '' ? pageIdByPath.get(layout.config.readme) : undefined);
    if (!page) return undefined;
    return anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page };
  };

  const unchanged = (id: string, oid: string | null) => {
    const record = mapping.byEntity.get(id);
    return !!oid && record?.oid === oid && base.has(id);
  };
  const toRead = planned.filter((p) => p.node.type === 'document' && p.node.oid && !unchanged(p.id, p.node.oid)).length
    + layout.files.filter((f) => !unchanged(fileIds.get(f.path)!, f.oid)).length
    + layout.includes.filter((i) => !unchanged(includeIds.get(i.path)!, i.oid)).length;
  let done = 0;
  const step = () => input.progress(++done, toRead);

  /**
   * A changed markdown blob, converted with its previous body's keys, links resolved — in the
   * pool, which answers the stored form: the event loop never holds the document (its structured
   * clone, a copy for the links, canonical JSON and hash were most of what an import left for the
   * garbage collector). The links are resolved from the text first (link-candidates.ts); a
   * target the conversion left that resolves was missed there, and the file is converted again.
   */
  const convert = async (path: string, oid: string, previousId: string | null | undefined) => {
    const markdown = texts.get(oid) ?? decodeText(await input.readBlob(oid));
    checkFrontMatter(path, markdown);
    const previousJson = previousId ? await input.loadDocumentText(previousId) : null;
    const resolve = resolver(path);
    const links: Record<string, ContentRef> = {};
    const add = (url: string) => {
      const ref = resolve(url);
      if (ref) links[url] = ref;
      return ref !== undefined;
    };
    for (const url of linkCandidates(markdown)) add(url);
    const once = () => convertMarkdownStored(markdown, { ...(previousJson ? { previousJson } : {}), links, signal: input.signal });
    try {
      let page = await once();
      if (page.targets.filter((url) => !Object.hasOwn(links, url) && add(url)).length) page = await once();
      step();
      return { page, body: page.stored };
    } catch (error) {
      if (error instanceof MarkdownLimitError) throw new ImportError('TOO_LARGE', `${path}: ${error.message}`);
      throw error;
    }
  };

  /** Reusable contents' bodies converted and not yet stored: at most BODY_BATCH at a time (pages': convertInWindow below). */
  let bodies: PreparedDocument[] = [];
  const storeBodies = async (atLeast: number) => {
    if (bodies.length < atLeast || !bodies.length) return;
    const batch = bodies;
    bodies = [];
    await input.storeBodies(batch);
  };

  const entities = new Map<string, TheirEntity>();
  const record = (kind: EntityKind, entityId: string, path: string, oid: string, version: EntityVersion): BlobRecord => ({ kind, entityId, path, oid, fingerprint: fingerprintOf(kind, version), parentId: kind === 'page' ? version.parentId : null });

  // Page bodies and titles.
  const heads = new Map<string, { version: Omit<EntityVersion, 'parentId' | 'position' | 'slug'>; slugHint: string }>();
  const toConvert: Planned[] = [];
  for (const { node, id } of planned) {
    const previous = base.get(id);
    const createdAt = previous?.createdAt ?? new Date();
    if (node.type === 'group') {
      heads.set(id, { version: { type: 'group', title: (node.title ?? node.fallbackTitle).slice(0, 255), documentId: null, data: {}, createdAt }, slugHint: node.slug });
    } else if (node.type === 'link') {
      heads.set(id, { version: { type: 'link', title: (node.title ?? node.fallbackTitle).slice(0, 255), documentId: null, data: { target: { kind: 'url', url: node.href ?? '' } }, createdAt }, slugHint: node.slug });
    } else if (!node.oid) {
      // A page for a folder without README: a page with no body of its own.
      const version = previous && !previous.documentId ? versionOfEntry(previous) : null;
      heads.set(id, { version: version ?? { type: 'document', title: (node.title ?? node.fallbackTitle).slice(0, 255), documentId: null, data: {}, createdAt }, slugHint: node.slug });
    } else if (unchanged(id, node.oid)) {
      heads.set(id, { version: versionOfEntry(previous!), slugHint: node.slug });
    } else {
      toConvert.push({ node, id, parentId: null });
    }
  }
  // Changed files converted CONVERSIONS_UNDER_WAY at a time, each started as one ends, and stored
  // BODY_BATCH at a time while the next ones convert (threads/windowed.ts). Two threads converting
  // two files at a time, every pair awaited and each batch stored in between, were idle about half
  // of a 10,000-page import.
  const convertPage = async ({ node, id }: Planned): Promise<PreparedDocument> => {
    input.signal.throwIfAborted();
    const previous = base.get(id);
    const { page, body } = await convert(node.path!, node.oid!, previous?.documentId);
    const title = (page.title?.trim() || node.title || node.fallbackTitle || 'Untitled').slice(0, 255);
    heads.set(id, { version: { type: 'document', title, documentId: body.id, data: pageData(page.description, page.frontMatter), createdAt: previous?.createdAt ?? new Date() }, slugHint: node.slug });
    return body;
  };
  await convertInWindow(toConvert, { window: CONVERSIONS_UNDER_WAY(), group: BODY_BATCH }, convertPage, (done) => input.storeBodies(done.map((d) => d.result)));

  // The tree: parents, positions among siblings, slugs unique among siblings.
  const siblings = new Map<string | null, Planned[]>();
  for (const p of planned) siblings.set(p.parentId, [...(siblings.get(p.parentId) ?? []), p]);
  for (const [parentId, list] of siblings) {
    const positions = siblingPositions(list.map((p) => p.id), (id) => (base.get(id)?.parentId === parentId ? base.get(id)?.position : undefined));
    const used = new Set<string>();
    list.forEach((p, i) => {
      const head = heads.get(p.id)!;
      const previous = base.get(p.id);
      const hint = head.slugHint && head.slugHint !== 'readme' ? head.slugHint : slugOf(head.version.title);
      // A page that stays under the same parent keeps its slug while the file name agrees with it.
      const wanted = previous?.parentId === parentId && previous.slug && (previous.slug === hint || !p.node.path) ? previous.slug : hint;
      const version: EntityVersion = { ...head.version, parentId, position: positions[i]!, slug: uniqueSlug(slugOf(wanted) || wanted || 'page', used) };
      entities.set(p.id, {
        kind: 'page',
        entityId: p.id,
        version,
        ...(p.node.path && p.node.oid ? { record: record('page', p.id, p.node.path, p.node.oid, version) } : {}),
      });
    });
  }

  // Files: changed blobs stored (by content: stored once) in batches, their keys recorded in one
  // statement per batch; the others as they were. Each entity keeps its place in `entities`.
  let pending: { id: string; asset: (typeof layout.files)[number]; createdAt: Date; file: IncomingFile }[] = [];
  let pendingBytes = 0;
  const storePending = async () => {
    const stored = await storeFiles(input.store, pending.map((p) => p.file));
    pending.forEach(({ id, asset, createdAt }, i) => {
      const version = { ...fileVersion(stored[i]!), createdAt };
      entities.set(id, { kind: 'file', entityId: id, version, record: record('file', id, asset.path, asset.oid, version) });
      step();
    });
    pending = [];
    pendingBytes = 0;
  };
  for (const asset of layout.files) {
    input.signal.throwIfAborted();
    const id = fileIds.get(asset.path)!;
    const previous = base.get(id);
    if (unchanged(id, asset.oid)) {
      const version = versionOfEntry(previous!);
      entities.set(id, { kind: 'file', entityId: id, version, record: record('file', id, asset.path, asset.oid, version) });
      continue;
    }
    let file;
    try {
      file = acceptFile({ name: asset.name, contentType: asset.contentType, bytes: await input.readBlob(asset.oid) }, 'file');
    } catch {
      warnings.push(`${asset.path}: not imported (a file name or size this server does not accept)`);
      step();
      continue;
    }
    entities.set(id, undefined as never); // its place, filled when its batch is stored
    pending.push({ id, asset, createdAt: previous?.createdAt ?? new Date(), file });
    pendingBytes += file.bytes.byteLength;
    if (pending.length >= STORE_BATCH_FILES || pendingBytes >= STORE_BATCH_BYTES) await storePending();
  }
  if (pending.length) await storePending();

  // Reusable contents: `.gitbook/includes/<name>.md`, titled by their front matter.
  for (const include of layout.includes) {
    input.signal.throwIfAborted();
    const id = includeIds.get(include.path)!;
    const previous = base.get(id);
    let version: EntityVersion;
    if (unchanged(id, include.oid)) version = versionOfEntry(previous!);
    else {
      const converted = await convert(include.path, include.oid, previous?.documentId);
      const body = converted.body;
      bodies.push(body);
      await storeBodies(BODY_BATCH);
      const fromFrontMatter = typeof converted.page.frontMatter.title === 'string' ? converted.page.frontMatter.title.trim() : '';
      const name = include.path.slice(include.path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
      const title = (fromFrontMatter || converted.page.title?.trim() || name).slice(0, 255);
      version = { parentId: null, position: '', type: '', title, slug: '', documentId: body.id, data: {}, createdAt: previous?.createdAt ?? new Date() };
    }
    entities.set(id, { kind: 'reusable-content', entityId: id, version, record: record('reusable-content', id, include.path, include.oid, version) });
  }
  await storeBodies(1);
  // A repository may warn about thousands of files: the job's result keeps the first hundred.
  return { entities, warnings: warnings.length > 100 ? [...warnings.slice(0, 100), `… and ${warnings.length - 100} more`] : warnings };
}
