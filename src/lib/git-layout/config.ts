/**
 * `.gitbook.yaml` at the project directory: `root`, `structure.readme`, `structure.summary` and
 * `redirects`. Real repositories carry invalid YAML there: the defaults stand and the problem is
 * reported with its line, so the operation can name it.
 */
import YAML from 'yaml';
import type { GitLayoutConfig, LayoutProblem } from './types.js';

export const GITBOOK_YAML = '.gitbook.yaml';

export const defaultConfig = (): GitLayoutConfig => ({ root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} });

/** `text` undefined: no `.gitbook.yaml`. `file` names it in problems (project-relative). */
export function readLayoutConfig(text: string | undefined, file = GITBOOK_YAML): { config: GitLayoutConfig; problems: LayoutProblem[] } {
  const config = defaultConfig();
  const problems: LayoutProblem[] = [];
  if (text === undefined) return { config, problems };
  const problem = (message: string, line?: number, severity: LayoutProblem['severity'] = 'error') =>
    problems.push({ severity, path: file, ...(line !== undefined ? { line } : {}), message });

  const doc = YAML.parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    problem(`${file} is not valid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}.`, error.linePos?.[0].line);
    return { config, problems };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch {
    problem(`${file} is not valid YAML: it uses too many aliases.`);
    return { config, problems };
  }
  if (data === null || data === undefined) return { config, problems };
  if (!isRecord(data)) {
    problem(`${file} must be a mapping (root, structure, redirects).`, 1);
    return { config, problems };
  }
  const lineOf = (path: string[]) => {
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    return node?.range ? lineAt(text, node.range[0]) : undefined;
  };

  if (data.root !== undefined) {
    const root = typeof data.root === 'string' ? folderPath(data.root) : undefined;
    if (root === undefined) problem(`${file}: root must be a folder inside the project directory.`, lineOf(['root']));
    else config.root = root;
  }
  const structure = isRecord(data.structure) ? data.structure : {};
  for (const key of ['readme', 'summary'] as const) {
    if (structure[key] === undefined) continue;
    const path = typeof structure[key] === 'string' ? filePath(structure[key]) : undefined;
    if (path === undefined) problem(`${file}: structure.${key} must be a file path inside the root.`, lineOf(['structure', key]));
    else config[key] = path;
  }
  if (data.redirects !== undefined && !isRecord(data.redirects)) problem(`${file}: redirects must map old paths to page files.`, lineOf(['redirects']), 'warning');
  for (const [from, to] of Object.entries(isRecord(data.redirects) ? data.redirects : {})) {
    const source = filePath(from);
    const target = typeof to === 'string' ? filePath(to) : undefined;
    if (source === undefined || target === undefined) problem(`${file}: the redirect of ${JSON.stringify(from)} is not a pair of paths inside the root; it is ignored.`, lineOf(['redirects', from]), 'warning');
    else config.redirects[source] = target;
  }
  return { config, problems };
}

/** A relative path without `..`, `.` or repeated slashes; a leading `/` is dropped. Undefined when unsafe or empty. */
function cleanPath(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.includes('\\') || trimmed.includes('\0') || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return undefined;
  const segments = trimmed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return undefined;
  return segments.join('/');
}

/** `''` or `docs/`. */
function folderPath(value: string): string | undefined {
  const path = cleanPath(value);
  if (path === undefined) return undefined;
  return path === '' ? '' : `${path}/`;
}

function filePath(value: string): string | undefined {
  const path = cleanPath(value);
  return path && !value.trim().endsWith('/') ? path : undefined;
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
