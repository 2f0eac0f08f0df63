/** Redis for the tests that cross instances: REDIS_URL or the usual local one; CI must have it. */
import net from 'node:net';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether something answers at REDIS_URL (such tests are skipped without it, except under CI). */
export const redisReachable = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(REDIS_URL);
  const socket = net.connect(Number(port || 6379), hostname);
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false));
});
