/**
 * The git CLI for tests, always asynchronous: a synchronous child process would block the event
 * loop of the test process, which also serves the git server it may be talking to (a deadlock).
 */
import { spawn } from 'node:child_process';

export type GitRun = { cwd?: string; env?: Record<string, string>; input?: Uint8Array | string };

/** Runs `git <args>`; resolves with its stdout, rejects with its stderr when it fails. */
export function runGit(args: string[], options: GitRun = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: options.cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`git ${args.join(' ')} failed (${code}): ${Buffer.concat(err).toString()}`));
    });
    child.stdin.on('error', () => {}); // a command that exits without reading its input
    child.stdin.end(options.input);
  });
}

/** `git <args>` in the bare repository `gitDir`, its output as trimmed text. */
export async function gitText(gitDir: string, args: string[], options: GitRun = {}): Promise<string> {
  return (await runGit(['--git-dir', gitDir, ...args], options)).toString('utf8').trim();
}
