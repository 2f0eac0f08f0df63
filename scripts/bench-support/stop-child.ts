import type { ChildProcess } from 'node:child_process';

/** Ends a benchmark's child server: closing its IPC channel is its signal to stop; resolves once it exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.disconnect();
  await exited;
}
