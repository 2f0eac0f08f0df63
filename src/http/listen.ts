/** Listening on PORT and HOST, and saying why not in words that name the setting to change. */
import net from 'node:net';

export function listenFailure(error: NodeJS.ErrnoException, port: number, host: string): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${port} on ${host} is already in use (set PORT to a free port)`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST ${host} is not an address of this machine (set HOST, e.g. 0.0.0.0 or 127.0.0.1)`;
    case 'EACCES':
      return `Not allowed to listen on port ${port} (ports below 1024 need privileges; set PORT)`;
    default:
      return `Cannot listen on ${host}:${port}: ${error.message}`;
  }
}

/**
 * Binds PORT on HOST and lets go at once: run before any database work, so that a taken port or
 * a wrong HOST fails at start in one line rather than after migrations. (Another process may
 * still take the port in between; the real listen reports that the same way.)
 */
export async function checkListen(port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(new Error(listenFailure(error, port, host))));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
