/**
 * The inputs of a git operation, checked before anything reaches the network: the remote's URL
 * (https, or http where private networks are allowed; its credentials moved apart so that the URL
 * can be stored and shown), the branch, and the project directory inside the repository.
 * Errors are 400s naming the field and never echo a credential.
 */
import { badRequest } from '../errors.js';

export type GitAuth = { username: string; password: string };
/** `url` holds no credentials and no fragment. */
export type GitRemote = { url: string; auth?: GitAuth };

const invalidUrl = (why: string) => badRequest(`Invalid value for "url": ${why}.`, 'url');

/** Only `https:` (and `http:` when private networks are allowed); file:, ssh:, git:, ext::, `user@host:path` refused. */
export function parseGitRemote(raw: unknown, opts: { allowPrivateNetworks: boolean }): GitRemote {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidUrl('expected the URL of a git repository');
  if (/\s/.test(raw)) throw invalidUrl('a URL has no spaces');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // `git@host:owner/repo.git` and other scp-like addresses land here: git over SSH.
    throw invalidUrl('expected an https URL of a git repository (SSH addresses are not supported)');
  }
  const schemes = opts.allowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw invalidUrl(`the scheme ${JSON.stringify(url.protocol.replace(/:$/, ''))} is not supported; use ${opts.allowPrivateNetworks ? 'https or http' : 'https'}`);
  }
  if (!url.hostname) throw invalidUrl('the URL has no host');
  if (url.search) throw invalidUrl('a git repository URL has no query string');
  const auth = url.username || url.password ? { username: decoded(url.username), password: decoded(url.password) } : undefined;
  url.username = '';
  url.password = '';
  url.hash = '';
  // git appends `/info/refs` and the service to this: no trailing slash.
  return { url: url.href.replace(/\/+$/, ''), ...(auth ? { auth } : {}) };
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** `refs/heads/<branch>` following git's check-ref-format rules; 400 naming `ref` otherwise. */
export function parseBranchRef(raw: unknown): string {
  const invalid = (why: string) => badRequest(`Invalid value for "ref": ${why}.`, 'ref');
  if (typeof raw !== 'string' || !raw.startsWith('refs/heads/')) throw invalid('expected a branch, as refs/heads/<branch>');
  const branch = raw.slice('refs/heads/'.length);
  if (!isValidRefName(branch)) throw invalid('not a valid git branch name');
  return raw;
}

/** git check-ref-format, for the part after `refs/heads/`. */
function isValidRefName(name: string): boolean {
  if (name === '' || name === '@' || name.endsWith('/') || name.endsWith('.')) return false;
  // Control characters, space and ~ ^ : ? * [ \ are never allowed; nor `..` or `@{`.
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name) || name.includes('..') || name.includes('@{')) return false;
  return name.split('/').every((component) => component !== '' && !component.startsWith('.') && !component.endsWith('.lock'));
}

/** '' or `docs/` (trimmed of `/`, normalized); `..`, absolute, `.git` segments → 400 naming `repoProjectDirectory`. */
export function parseProjectDirectory(raw: unknown): string {
  const invalid = (why: string) => badRequest(`Invalid value for "repoProjectDirectory": ${why}.`, 'repoProjectDirectory');
  if (raw === undefined || raw === null || raw === '') return '';
  if (typeof raw !== 'string') throw invalid('expected a folder of the repository');
  if (/[\x00-\x1f\x7f\\]/.test(raw)) throw invalid('a folder name has no control characters or backslashes');
  const segments = raw.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..')) throw invalid('the folder must be inside the repository (no "..")');
  if (segments.some((segment) => segment.toLowerCase() === '.git')) throw invalid('the folder cannot be inside .git');
  return segments.length === 0 ? '' : `${segments.join('/')}/`;
}

/** Removes `user:pass@` from every URL in a text (for errors and logs). */
export function redactCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi, '$1');
}
