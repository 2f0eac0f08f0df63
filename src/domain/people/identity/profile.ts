/**
 * A user's own profile (`PATCH /users/{userId}`, GraphQL `updateViewer`): display name and photo.
 * Only the user themself changes them. A user is global — their name shows in every organization
 * they belong to — so a credential confined to one organization (reach.ts) may change it only
 * while the account exists for that organization alone (unclaimed): otherwise one organization's
 * admin, holding a SAML token of a shared member, could rename that member everywhere.
 */
import { z } from 'zod';
import type { User } from '../../../generated/prisma/client.js';
import { forbidden, notFound } from '../../../lib/errors.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import type { Access } from '../../access/access.js';
import type { Db } from '../../../db/client.js';
import { transactionFrom } from '../../kernel/request-origin.js';

const profileSchema = lazySchema(() => z
  .object({
    displayName: z.string().trim().min(1).max(64).optional(),
    photoURL: z
      .string()
      .max(2048)
      .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http or https URL')
      .nullish(),
  })
  .strict()
  .refine((input) => Object.keys(input).length > 0, 'give displayName or photoURL'));

export async function updateProfile(db: Db, access: Access, userId: string, input: Record<string, unknown>): Promise<User> {
  if (userId !== access.userId) {
    // Someone else: as unknown as `GET /users/{userId}` would say when not visible, else refused.
    const visible = (await access.loaders.userVisible.load(userId)) && (await access.loaders.user.load(userId));
    if (!visible) throw notFound('User');
    throw forbidden('Only the user themself may change their profile');
  }
  const data = parseInput(profileSchema, input);
  return transactionFrom(db, access.from, async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { claimedAt: true } });
    if (!user) throw notFound('User');
    if (access.origin.confinedTo && user.claimedAt) {
      throw forbidden('This token was issued by one organization: change your profile with a token of your own account');
    }
    return tx.user.update({ where: { id: userId }, data: { displayName: data.displayName, photoURL: data.photoURL } });
  });
}
