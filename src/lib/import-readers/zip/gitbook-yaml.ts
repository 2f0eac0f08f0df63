/**
 * `.gitbook.yaml` at the top of the archive: `root` (the folder holding the content) and
 * `structure.readme` / `structure.summary` (relative to `root`). A file that does not parse, or
 * values that are not paths inside the archive, leave the defaults: the import still reads what
 * it can.
 */
import YAML from 'yaml';
import { resolveInArchive } from './archive-path.js';

export type GitbookConfig = {
  /** `''` or a folder with a trailing slash (`docs/`). */
  root: string;
  /** Relative to `root`. */
  readme: string;
  /** Relative to `root`. */
  summary: string;
};

export const GITBOOK_YAML = '.gitbook.yaml';

export function readGitbookYaml(text: string | undefined): GitbookConfig {
  const config: GitbookConfig = { root: '', readme: 'README.md', summary: 'SUMMARY.md' };
  if (text === undefined) return config;
  let data: unknown;
  try {
    data = YAML.parse(text, { logLevel: 'silent', maxAliasCount: 100 });
  } catch {
    return config;
  }
  if (!isRecord(data)) return config;
  if (typeof data.root === 'string') {
    const root = resolveInArchive('', data.root.endsWith('/') ? data.root : `${data.root}/`);
    if (root !== undefined) config.root = root;
  }
  const structure = isRecord(data.structure) ? data.structure : {};
  for (const key of ['readme', 'summary'] as const) {
    const value = structure[key];
    const path = typeof value === 'string' ? resolveInArchive('', value) : undefined;
    if (path && !path.endsWith('/')) config[key] = path;
  }
  return config;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
