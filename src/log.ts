import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The service's logger: JSON lines on stdout, buffered (flushed at shutdown). Secrets are kept out
 * by never passing them to it; pino's path redaction would cost every line (measured ~2% of the
 * catalog's throughput) to guard fields we do not log.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'tenpo' },
    },
    destination ?? pino.destination({ sync: false, minLength: 4096 }),
  );
}
