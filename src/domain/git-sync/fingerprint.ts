/**
 * What an entity was when its blob was written or read: everything its file is made of (kind,
 * type, title, body, attributes), not where it sits. An export compares it with the entity's
 * fingerprint now: equal, the blob is reused byte for byte (no churn); different, the file is
 * written again.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import type { EntityVersion } from '../versions/revisions/commit.js';

export function fingerprintOf(kind: string, version: Pick<EntityVersion, 'type' | 'title' | 'documentId' | 'data'>): string {
  const text = stringify([kind, version.type, version.title, version.documentId, version.data]) ?? '';
  return createHash('sha256').update(text).digest('base64url');
}
