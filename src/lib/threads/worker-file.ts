/**
 * Where the conversion threads load their code from. Compiled (`dist/`, `npm start`), the tasks
 * module is the `.js` next to this one; run from source (vitest, `tsx src/main.ts`), it is the
 * `.ts` next to this one, and the thread registers tsx's loader first (Node 20 cannot load
 * TypeScript by itself; tsx is a dependency).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type WorkerFile = { filename: string; execArgv?: string[] };

export function tasksFile(): WorkerFile {
  const compiled = new URL('./tasks.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href };
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: new URL('./tasks.ts', import.meta.url).href, execArgv: ['--import', loader] };
}
