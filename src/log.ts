import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The service's logger: JSON lines on stdout. Secrets are redacted by path as a second line of
 * defence; the first is never passing them to the logger at all.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'tenpo' },
      redact: {
        paths: ['authorization', '*.authorization', 'headers.authorization', 'token', '*.token', 'apiKey', '*.apiKey'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ sync: false, minLength: 4096 }),
  );
}
