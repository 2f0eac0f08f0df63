/** The caller's API tokens: listed, issued (the clear text shown once) and revoked. */
import { createToken, listTokens, revokeToken } from '../../domain/people/identity/token-admin.js';
import { builder } from '../builder.js';

type TokenRecord = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; expiresAt: Date | null; organizationId: string | null };

const ApiTokenRef = builder.objectRef<TokenRecord>('ApiToken').implement({
  interfaces: [builder.nodeInterfaceRef()],
  description: 'An API token of the caller (never its secret, which is shown once, when issued).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its ID (the same as in the REST API).' }),
    name: t.exposeString('name', { description: 'Its label, as given when it was issued (empty when none was).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Updated at most once a minute.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'Null: it does not expire.' }),
    organizationId: t.exposeID('organizationId', {
      nullable: true,
      description: "The only organization the token reaches: an organization's SAML sign-in or invitation link issued it (or a token that does). Null: every organization of the user.",
    }),
  }),
});

const IssuedApiToken = builder.simpleObject('IssuedApiToken', {
  description: 'A newly created API token, with its secret: shown this once (only its SHA-256 is stored).',
  fields: (t) => ({
    token: t.string({ description: 'The secret: `Authorization: Bearer <token>`. Shown this once; only a digest is kept.' }),
    apiToken: t.field({ description: "The token's record, as `apiTokens` lists it.", type: ApiTokenRef }),
  }),
});

const CreateApiTokenInput = builder.inputType('CreateApiTokenInput', {
  description: 'A new API token: its name, and optionally when it expires.',
  fields: (t) => ({
    name: t.string({ description: 'A label, up to 100 characters.' }),
    expiresAt: t.field({ type: 'DateTime', description: 'When it stops working (in the future); omitted or null: never.' }),
  }),
});

builder.queryField('apiTokens', (t) =>
  t.field({
    type: [ApiTokenRef],
    description: "The caller's API tokens, oldest first (a token confined to an organization lists only the tokens confined there).",
    resolve: (_root, _args, ctx) => listTokens(ctx.db, ctx.viewer),
  }),
);

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: IssuedApiToken,
    description: 'Issues a new API token for the caller, confined to the organization the calling token is confined to (if any).',
    args: { input: t.arg({ description: 'Its name and expiry; left out, an unnamed token that never expires.', type: CreateApiTokenInput, required: false }) },
    resolve: async (_root, { input }, ctx) => {
      const { token, record } = await createToken(ctx.db, { ...ctx.viewer, from: ctx.access.from }, { name: input?.name ?? undefined, expiresAt: input?.expiresAt ?? undefined });
      return { token, apiToken: record };
    },
  }),
  revokeApiToken: t.boolean({
    description: "Revokes one of the caller's tokens (the one in use included). Other instances may accept it for up to QUIRE_TOKEN_CACHE_SECONDS more.",
    args: { id: t.arg.id({ description: "The token's ID.", required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await revokeToken(ctx.db, { ...ctx.viewer, from: ctx.access.from }, String(id));
      return true;
    },
  }),
}));
