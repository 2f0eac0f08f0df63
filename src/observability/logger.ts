/**
 * Structured logs: one JSON object per line on standard output (pino), at QUIRE_LOG_LEVEL.
 * Secrets never reach them: authorization headers and tokens are redacted wherever they appear,
 * and database errors are logged as one line (Prisma's messages span a screen, with the query).
 */
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** An error as one line: its last meaningful line of message, its code and kind, no stack for database errors. */
function serializeError(error: unknown) {
  if (!(error instanceof Error)) return error;
  const e = error as Error & { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  if (e.name.startsWith('PrismaClient') || e.name === 'DriverAdapterError') {
    const line = e.message.split('\n').map((l) => l.trim()).filter(Boolean).at(-1);
    return { type: e.name, message: line, code: e.code, kind: e.meta?.driverAdapterError?.cause?.kind };
  }
  return stdSerializers.err(e);
}

export function createLogger(opts: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      base: { service: 'quire' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError, error: serializeError },
      redact: { paths: ['authorization', '*.authorization', 'headers.authorization', 'token', '*.token', 'password', '*.password'], censor: '[redacted]' },
    },
    opts.destination,
  );
}

/** A logger that writes nothing (tests, library use). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
