/**
 * Sorting a site's structure (the public document's `PATCH …/structure/sort`): one item — a site
 * space, a section, a section group or an external link — placed before or after a sibling of the same level, or at
 * the end. Siblings are what the published site shows side by side: the site spaces of one
 * section (or of the root), the sections of one group (or those in none), the section groups. A
 * pointer to an item of another kind or level is a 400 naming it; an unknown item a 404. Moving an
 * item to another parent is its update's business, not sorting's.
 */
import { z } from 'zod';
import type { Prisma, Site, SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace } from '../../../../generated/prisma/client.js';
import type { Db } from '../../../../db/client.js';
import type { Access } from '../../../access/access.js';
import { badRequest } from '../../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../../lib/validation.js';
import type { Position } from '../../../kernel/position.js';
import { placeExternalLink } from './external-links.js';
import { placeSectionGroup } from './section-groups.js';
import { placeSection } from './sections.js';
import { placeSiteSpace } from './site-spaces.js';
import { siteStructureWrite } from '../write.js';

export const STRUCTURE_ITEM_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;
export type StructureItemType = (typeof STRUCTURE_ITEM_TYPES)[number];

const pointer = lazySchema(() => z.object({ type: z.enum(STRUCTURE_ITEM_TYPES), id: z.string().min(1).max(100) }).strict());
const sortSchema = lazySchema(() => z
  .object({
    item: pointer,
    position: z.object({ before: pointer.nullish(), after: pointer.nullish() }).strict().nullish(),
  })
  .strict());

export type SortedItem =
  | { type: 'site-space'; item: SiteSpace }
  | { type: 'site-section'; item: SiteSection }
  | { type: 'site-section-group'; item: SiteSectionGroup }
  | { type: 'site-external-link'; item: SiteExternalLink };

type Tx = Prisma.TransactionClient;
type Placer = (tx: Tx, access: Access, site: Site, id: string, position: Position | null) => Promise<SortedItem>;

/** How each kind of item is placed among its siblings. */
const PLACERS: Record<StructureItemType, Placer> = {
  'site-space': async (tx, access, site, id, position) => ({ type: 'site-space', item: await placeSiteSpace(tx, access, site, id, position) }),
  'site-section': async (tx, access, site, id, position) => ({
    type: 'site-section',
    // Sections of the same group (or of none) only.
    item: await placeSection(tx, access, site, id, position, (self, sections) => sections.filter((s) => s.sectionGroupId === self.sectionGroupId)),
  }),
  'site-section-group': async (tx, access, site, id, position) => ({ type: 'site-section-group', item: await placeSectionGroup(tx, access, site, id, position) }),
  // The links of the same section group (or those at the root).
  'site-external-link': async (tx, access, site, id, position) => ({ type: 'site-external-link', item: await placeExternalLink(tx, access, site, id, position) }),
};

export function sortSiteStructure(db: Db, access: Access, siteId: string, raw: unknown): Promise<SortedItem> {
  const input = parseInput(sortSchema, raw);
  const { item, position } = input;
  if (position?.before && position?.after) throw badRequest('Give either "position.before" or "position.after", not both', 'position');
  const side = position?.before ? 'before' : position?.after ? 'after' : null;
  const anchor = side ? position![side]! : null;
  return siteStructureWrite(db, access, siteId, async (tx, site) => {
    const place = PLACERS[item.type];
    if (anchor && anchor.type !== item.type) throw badRequest(`Invalid value for "position.${side}": a ${item.type} can only be placed next to another ${item.type}`, `position.${side}`);
    return place(tx, access, site, item.id, anchor && side ? { [side]: anchor.id } : null);
  });
}
