import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../schema/index.js';
import { UsageError } from './usage-error.js';

const FILE = path.resolve(import.meta.dirname, '../../schema.graphql');

export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;

export async function schemaCommand(sub: string | undefined): Promise<void> {
  if (sub === 'print') {
    await writeFile(FILE, printedSchema());
    console.log(`Wrote ${path.relative(process.cwd(), FILE)}`);
  } else if (sub === 'check') {
    const committed = await readFile(FILE, 'utf8').catch(() => '');
    if (committed !== printedSchema()) {
      // Thrown: main() reports it and exits 1.
      throw new Error('schema.graphql is stale: run `npm run quire -- schema print` and commit it');
    } else console.log('schema.graphql is up to date');
  } else throw new UsageError(`Unknown schema command: ${sub ?? '(none)'}`);
}
