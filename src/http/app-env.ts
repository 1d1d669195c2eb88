import type { IdempotencyKey } from '../idempotency/store.ts';
import type { Logger } from '../log.ts';
import type { SentJson } from '../serving/cached-json.ts';

/** What every request carries through the middleware chain. Read with c.get(): c.var copies. */
export interface AppEnv {
  Variables: {
    requestId: string;
    baseLog: Logger;
    /** Use requestLog(c), which makes it on first use. */
    log: Logger;
    /** Headers for the response, whichever code ends up producing it (see reply.ts). */
    responseHeaders: Record<string, string>;
    /** The JSON a route answered with through `sendCachedJson` (reply.ts), for a route kept by URL (mount.ts). */
    sentJson: SentJson;
    /** The 500 message of the route being served (some routes answer in Japanese). */
    serverErrorMessage: string;
    /** A valid Idempotency-Key and its client, on a route that takes one (idempotency-key.ts). */
    idempotencyKey: IdempotencyKey | undefined;
    /** Who an admin route's request comes from, once authenticated (read with adminIdentity(c)). */
    admin: AdminIdentity | undefined;
  };
}

/** Who an admin request comes from: a signed-in staff account, or the holder of the bearer token. */
export interface AdminIdentity {
  /** What the caller may do: an `owner` everything, a `staff` account all but the owner-only routes. */
  role: 'owner' | 'staff';
  /** The signed-in account; null for the bearer token, which acts as an owner and is no one's. */
  staff: { id: string; name: string } | null;
  /** The session the request came with (its id, never its token); null for the bearer token. */
  sessionId: string | null;
}
