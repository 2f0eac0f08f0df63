/** The event bus survives Redis being unreachable: a publish fails quietly (the outage logged), never the process. */
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../src/events/bus.js';
import { createLogger } from '../src/observability/logger.js';

describe('the event bus without Redis', () => {
  it('logs failed publishes instead of rejecting unhandled', async () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
    const bus = createEventBus({ redisUrl: 'redis://127.0.0.1:1', logger }); // nothing listens on port 1
    const events = bus.subscribe('org_x')[Symbol.asyncIterator]();
    bus.publish({ id: 'evt_x', kind: 'spaceCreated', organizationId: 'org_x', subjectId: 'spc_x', spaceId: 'spc_x', siteId: null, actorId: 'usr_x', data: null, at: new Date().toISOString(), xid: null });
    for (let i = 0; i < 100 && !lines.some((l) => l.includes('Redis is unavailable')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.some((l) => l.includes('Redis is unavailable'))).toBe(true);
    await events.return?.();
    await bus.close();
  });
});
