/**
 * Versions of an OpenAPI specification (the `openapi-versions` paths): every processed version is
 * kept — a new one each time processing finds the content changed —, with the text exactly as it
 * was received and the URL it came from. A version is read by ID or as the latest (`lastVersion`);
 * its content is served raw (`{text, format}`) or parsed. Who reads the specification reads its
 * versions (members with an organization role).
 */
import type { OpenAPISpec, OpenAPISpecVersion } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import { notFound } from '../../../lib/errors.js';
import { parseSpecText } from '../../../lib/openapi/parse-document.js';
import { runTask } from '../../../lib/threads/pool.js';
import type { Access } from '../../access/access.js';
import { findSpec } from './specs.js';

/** `latest`, or a version's ID. */
export const LATEST = 'latest';

/** The version of the organization's specification `slug` (404 when either is unknown). */
export async function findSpecVersion(db: Db, access: Access, organizationId: string, slug: string, versionId: string): Promise<{ spec: OpenAPISpec; version: OpenAPISpecVersion }> {
  const spec = await findSpec(db, access, organizationId, slug);
  return { spec, version: await versionOf(db, spec, versionId) };
}

/** A version of `spec` (already access-checked): by ID, or its latest. */
export async function versionOf(db: Db, spec: OpenAPISpec, versionId: string): Promise<OpenAPISpecVersion> {
  const id = versionId === LATEST ? spec.lastVersionId : versionId;
  const version = id ? await db.openAPISpecVersion.findUnique({ where: { id } }) : null;
  if (!version || version.specId !== spec.id) throw notFound('OpenAPI specification version');
  return version;
}

/**
 * The version's document, parsed. It was parsed and validated when processed, within the same
 * bounds (size, nesting, YAML aliases), so it parses again. YAML is parsed in the conversion pool
 * (lib/threads), off the event loop; JSON, which the engine parses quickly, here.
 */
export async function parsedContent(version: Pick<OpenAPISpecVersion, 'text' | 'format'>): Promise<unknown> {
  if (version.format === 'json') return parseSpecText(version.text).document;
  return runTask<{ text: string }, unknown>('openapiDocument', { text: version.text });
}

/**
 * The text of a public specification's version (its latest, or `versionId`) for anyone, without
 * a token: null when the specification is unknown or private, or has no such version.
 */
export async function publicSpecVersion(db: Db, specId: string, versionId?: string): Promise<Pick<OpenAPISpecVersion, 'id' | 'text' | 'format'> | null> {
  const spec = await db.openAPISpec.findUnique({ where: { id: specId }, select: { visibility: true, lastVersionId: true } });
  const id = versionId ?? spec?.lastVersionId;
  if (spec?.visibility !== 'public' || !id) return null;
  return db.openAPISpecVersion.findFirst({ where: { id, specId }, select: { id: true, text: true, format: true } });
}
