/**
 * The bodies of `POST …/git/import` and `…/git/export` (ImportGitRepository,
 * ExportToGitRepository of the public document), validated: a 400 naming the field otherwise.
 * The remote comes out without its credentials (`auth` apart); the deprecated `repoCacheID` and
 * `gitInfo` are accepted and ignored (quire keeps no cache between operations, and the provider
 * is not needed to speak git).
 */
import { z } from 'zod';
import { badRequest } from '../../lib/errors.js';
import { parseBranchRef, parseGitRemote, parseProjectDirectory, type GitRemote } from '../../lib/git/remote.js';
import { parseInput } from '../../lib/validation.js';

export type GitDirection = 'import' | 'export';

export type GitOperationInput = {
  direction: GitDirection;
  remote: GitRemote;
  ref: string;
  projectDirectory: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  timestamp?: Date;
  force: boolean;
  standalone: boolean;
  /** Exports only. */
  commitMessage?: string;
};

const webUrl = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an http or https URL');

const common = {
  url: z.string().max(2048),
  ref: z.string().max(255),
  repoCacheID: z.string().max(255).optional(),
  repoTreeURL: webUrl.optional(),
  repoCommitURL: webUrl.optional(),
  repoProjectDirectory: z.string().max(1024).optional(),
  timestamp: z.string().datetime({ offset: true }).optional(),
  force: z.boolean().optional(),
  standalone: z.boolean().optional(),
  gitInfo: z.object({ provider: z.enum(['github', 'gitlab']).optional(), url: z.string().max(2048).optional() }).strict().optional(),
};

const importSchema = z.object(common).strict();
const exportSchema = z.object({ ...common, commitMessage: z.string().max(10_000) }).strict();

/** Web URLs shown to users never carry credentials either. */
function withoutCredentials(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const url = new URL(value);
  if (url.username || url.password) throw badRequest(`Invalid value for "${field}": must not contain credentials`, field);
  return value;
}

/**
 * The body's shape alone (types, lengths, unknown keys), the deprecated keys dropped: what the
 * REST layer checks before handing the fields to the GraphQL mutation, which checks the rest.
 */
export function parseGitBody(direction: GitDirection, raw: unknown): Record<string, unknown> {
  const { repoCacheID: _cache, gitInfo: _info, ...fields } = parseInput(direction === 'import' ? importSchema : exportSchema, raw ?? {}) as Record<string, unknown>;
  return fields;
}

export function parseGitOperation(direction: GitDirection, raw: unknown, opts: { allowPrivateNetworks: boolean }): GitOperationInput {
  const body = parseInput(direction === 'import' ? importSchema : exportSchema, raw ?? {});
  const remote = parseGitRemote(body.url, opts);
  const ref = parseBranchRef(body.ref);
  const projectDirectory = parseProjectDirectory(body.repoProjectDirectory);
  const repoTreeURL = withoutCredentials(body.repoTreeURL, 'repoTreeURL');
  const repoCommitURL = withoutCredentials(body.repoCommitURL, 'repoCommitURL');
  const commitMessage = 'commitMessage' in body ? (body.commitMessage as string) : undefined;
  if (direction === 'export' && !commitMessage?.trim()) throw badRequest('Invalid value for "commitMessage": must not be empty', 'commitMessage');
  return {
    direction,
    remote,
    ref,
    projectDirectory,
    ...(repoTreeURL ? { repoTreeURL } : {}),
    ...(repoCommitURL ? { repoCommitURL } : {}),
    ...(body.timestamp ? { timestamp: new Date(body.timestamp) } : {}),
    force: body.force ?? false,
    standalone: body.standalone ?? false,
    ...(commitMessage !== undefined ? { commitMessage } : {}),
  };
}
