import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The service's logger: JSON lines on stdout, written asynchronously (lines logged in the same tick
 * go out in one write) but promptly, so an operator tailing a quiet service sees each line as it
 * happens. Flushed at shutdown. Secrets are kept out by never passing them to it; pino's path
 * redaction would cost every line to guard fields we do not log.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'tenpo' },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
