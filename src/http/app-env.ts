import type { Logger } from '../log.ts';

/** What every request carries through the middleware chain. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** The 500 message of the route being served (some routes answer in Japanese). */
    serverErrorMessage: string;
  };
}
