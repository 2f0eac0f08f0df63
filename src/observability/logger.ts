/**
 * Structured logs on standard output (pino), at QUIRE_LOG_LEVEL: one JSON object per line, or
 * readable lines (pino-pretty) when QUIRE_LOG_FORMAT=pretty or, unset, when the output is a terminal.
 * Secrets never reach them: authorization headers and tokens are redacted wherever they appear,
 * and database errors are logged as one line (Prisma's messages span a screen, with the query).
 */
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { createRequire } from 'node:module';

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

/** Readable lines, written synchronously in this thread (no transport worker to lose lines at exit). */
function prettyStream(destination?: DestinationStream): DestinationStream {
  // Loaded by the first pretty logger only: JSON lines need none of it.
  const { PinoPretty } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return PinoPretty({
    sync: true,
    colorize: destination === undefined && process.stdout.isTTY === true && !process.env.NO_COLOR,
    translateTime: 'SYS:HH:MM:ss.l',
    // `startup`: the start line's fields, which its message already reads out.
    ignore: 'pid,hostname,service,startup',
    destination: destination ?? 1,
  });
}

export function createLogger(opts: { level?: string; format?: 'json' | 'pretty'; destination?: DestinationStream } = {}): Logger {
  // Unset, the form follows standard output: a terminal reads lines, a collector parses JSON.
  const pretty = (opts.format ?? (opts.destination === undefined && process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
  return pino(
    {
      level: opts.level ?? 'info',
      base: { service: 'quire' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError, error: serializeError },
      redact: { paths: ['authorization', '*.authorization', 'headers.authorization', 'token', '*.token', 'password', '*.password'], censor: '[redacted]' },
    },
    pretty ? prettyStream(opts.destination) : opts.destination,
  );
}

/** A logger that writes nothing (tests, library use). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
