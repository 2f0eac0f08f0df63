/**
 * ioredis (~1.5 MiB of heap), loaded by the first Redis client a process makes: a server without
 * REDIS_URL never loads it (docs/performance.md, Memory; test/startup-modules.test.ts).
 */
import { createRequire } from 'node:module';

export const loadIoredis = () => createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
