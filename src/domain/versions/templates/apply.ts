/**
 * Content templates (the public document's `ApplySpaceTemplate`: `POST /spaces/{spaceId}/content/template`,
 * `POST /orgs/{organizationId}/sites/{siteId}/template`). quire offers one template, `default`
 * (src/lib/templates): its pages, converted by the markdown reader, are added after the last
 * top-level page of
 *
 * - a change request (`changeRequestId`): one revision of its line (change-requests/write-content.ts
 *   `editContent`: the space's `edit`, `changeRequestContentUpdated`);
 * - the space's content: one revision of the space's line (the space's `edit`; a locked space
 *   refuses it), `spaceTemplateApplied`;
 * - an empty site (no site spaces, no sections): a new space of the site's organization, titled
 *   after the site, holding the template, added to the site — all in the site's one write (site
 *   managers, who are organization admins and so may create spaces).
 *
 * The imports' tree writer (work/imports/write-tree.ts) places the pages: unique slugs among the
 * pages already there, positions after them.
 */
import { z } from 'zod';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { lockParents } from '../../content/content-tree/transaction.js';
import { spaceEvent } from '../../content/events.js';
import { insertSpace } from '../../content/spaces/create.js';
import { recordEvents } from '../../kernel/outbox.js';
import { conflict } from '../../../lib/errors.js';
import { isTemplateId, templatePages, TEMPLATE_IDS, type TemplateId } from '../../../lib/templates/index.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { attachSpace } from '../../publishing/sites/structure/site-spaces.js';
import { siteWrite } from '../../publishing/sites/write.js';
import { writeImportTree } from '../../work/imports/write-tree.js';
import { lockSpaceLine } from '../change-requests/line.js';
import { Workspace } from '../change-requests/workspace.js';
import { editContent } from '../change-requests/write-content.js';
import { commitRevision } from '../revisions/commit.js';
import { reindexPages } from '../search/index-pages.js';

type Tx = Prisma.TransactionClient;

const inputSchema = lazySchema(() => z
  .object({
    id: z.string().max(100).refine(isTemplateId, `this server offers only the template${TEMPLATE_IDS.length > 1 ? 's' : ''} ${TEMPLATE_IDS.map((t) => `"${t}"`).join(', ')}`),
    // `contentRefs` fill a template's placeholders; quire's templates have none.
    params: z.object({ contentRefs: z.record(z.string(), z.unknown()).refine((refs) => !Object.keys(refs).length, 'the template has no content references to fill').optional() }).strict().optional(),
    changeRequestId: z.string().min(1).max(100).optional(),
  })
  .strict());

/** Writes the template's pages into the workspace (after its last top-level page). */
function writeTemplate(tx: Tx, ws: Workspace, id: TemplateId) {
  const pages = templatePages(id).map((page) => ({ ...page, children: [] }));
  return writeImportTree(tx, ws, { pages, files: [], totalResources: pages.length }, [], { tree: false });
}

/** `work` on the space's own content, committed as one revision of its line (nothing changed: none); answers the revision's ID or null. */
async function editSpaceLine(tx: Tx, access: Access, spaceId: string, work: (ws: Workspace) => Promise<unknown>): Promise<string | null> {
  const head = await lockSpaceLine(tx, spaceId);
  const ws = new Workspace(tx, head);
  await work(ws);
  const writes = ws.writes();
  if (!writes.length) return null;
  const revision = await commitRevision(tx, { spaceId, lineId: spaceId, head, type: 'edits', parents: [head.id], createdById: access.userId, writes });
  await tx.space.update({ where: { id: spaceId }, data: { revisionId: revision.id } });
  await reindexPages(tx, spaceId, revision, writes.filter((w) => w.kind === 'page').map((w) => w.entityId));
  return revision.id;
}

export async function applyTemplateToSpace(db: Db, access: Access, spaceId: string, raw: unknown): Promise<void> {
  const input = parseInput(inputSchema, raw);
  const id = input.id as TemplateId;
  if (input.changeRequestId) {
    await editContent(db, access, spaceId, input.changeRequestId, (tx, ws) => writeTemplate(tx, ws, id));
    return;
  }
  const check = (a: Access) => a.requireSpace(spaceId, 'edit');
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { space }) => {
    const revisionId = await editSpaceLine(tx, access, spaceId, (ws) => writeTemplate(tx, ws, id));
    await recordEvents(tx, spaceEvent('spaceTemplateApplied', space, access, { templateId: id, revisionId }));
  });
}

/** Fills an empty site with a new space holding the default template; answers the new space's ID. */
export function applyTemplateToSite(db: Db, access: Access, siteId: string): Promise<string> {
  return siteWrite(db, access, siteId, async (tx, site) => {
    const [siteSpace, section] = await Promise.all([tx.siteSpace.findFirst({ where: { siteId }, select: { id: true } }), tx.siteSection.findFirst({ where: { siteId }, select: { id: true } })]);
    if (siteSpace || section) throw conflict('The site is not empty: the template fills only a site without spaces or sections');
    await lockParents(tx, [{ organizationId: site.organizationId, collectionId: null }]);
    const title = site.title.slice(0, 50);
    const spaceId = await insertSpace(tx, access, { organizationId: site.organizationId, title });
    const revisionId = await editSpaceLine(tx, access, spaceId, (ws) => writeTemplate(tx, ws, 'default'));
    await recordEvents(tx, spaceEvent('spaceTemplateApplied', { id: spaceId, organizationId: site.organizationId }, access, { templateId: 'default', revisionId }));
    await attachSpace(tx, access, site, { id: spaceId, title });
    return spaceId;
  });
}
