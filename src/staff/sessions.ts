import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import type { SessionReader } from '../http/admin-auth.ts';
import type { AdminIdentity } from '../http/app-env.ts';
import { deleteEndedSessionsOf, deleteSession, findSession, insertSession, touchSession } from './store.ts';

// Signed-in sessions, kept in the database: whichever instance a request reaches finds the session,
// and ending it, or disabling its account, takes effect on every instance at the next request.

/** A session ends this long after its last request… */
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
/** …and this long after it began, however busy. */
export const SESSION_LONGEST_MS = 7 * 24 * 60 * 60_000;
/**
 * A request notes its time on its session only when the last one noted is older than this: a
 * session's idle end is then at most a minute early, and a busy console costs one write a minute
 * rather than one a request.
 */
const NOTED_EVERY_MS = 60_000;

/** A token as the service makes them: 32 random bytes, base64url. */
const TOKEN_SHAPE = /^[\w-]{43}$/;

/** What the session table keys a token by: its SHA-256, so the table alone opens no session. */
export function sessionId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Opens a session for an account; the token goes to the browser in the cookie and is not kept. Ended ones of the account are deleted. */
export async function startSession(db: Kysely<Tables>, staffId: string, now: Date): Promise<{ token: string; id: string }> {
  const token = randomBytes(32).toString('base64url');
  const id = sessionId(token);
  const at = now.toISOString();
  await insertSession(db, { id, staff_id: staffId, created_at: at, last_seen_at: at });
  await deleteEndedSessionsOf(
    db,
    staffId,
    new Date(now.getTime() - SESSION_IDLE_MS).toISOString(),
    new Date(now.getTime() - SESSION_LONGEST_MS).toISOString(),
  );
  return { token, id };
}

/**
 * Reads the session a cookie names, as each admin request does: one read by primary key, joined
 * with its account. Not live (no such session, idle for 12 hours, begun 7 days ago, or its account
 * disabled): undefined, and an ended one is deleted. Live: its last request's time is noted (at
 * most once a minute) and who it is answered.
 */
export function sessionReader(db: Kysely<Tables>, now: () => Date): SessionReader {
  return {
    read: async (token) => {
      if (!TOKEN_SHAPE.test(token)) return undefined;
      const session = await findSession(db, sessionId(token));
      if (!session || session.disabled === 1) return undefined;
      const time = now().getTime();
      if (time - Date.parse(session.last_seen_at) >= SESSION_IDLE_MS || time - Date.parse(session.created_at) >= SESSION_LONGEST_MS) {
        await deleteSession(db, session.id);
        return undefined;
      }
      if (time - Date.parse(session.last_seen_at) >= NOTED_EVERY_MS) await touchSession(db, session.id, new Date(time).toISOString());
      const identity: AdminIdentity = {
        role: session.role === 'owner' ? 'owner' : 'staff',
        staff: { id: session.staff_id, name: session.name },
        sessionId: session.id,
      };
      return identity;
    },
  };
}

/** Ends a session: its cookie opens nothing from now on, on any instance. */
export async function endSession(db: Kysely<Tables>, id: string): Promise<void> {
  await deleteSession(db, id);
}
