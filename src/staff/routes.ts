import type { Database } from '../db/database.ts';
import { adminIdentity } from '../http/admin-auth.ts';
import type { AdminThrottle } from '../http/admin-throttle.ts';
import { AppError } from '../http/app-error.ts';
import type { Budgets } from '../http/rate-limit.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, INVALID_PARAMETERS, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { endedSessionCookie, sessionCookie } from '../http/session-cookie.ts';
import { changeOwnPassword, createStaff, updateStaff } from './accounts.ts';
import {
  CreateBody,
  EmptyBody,
  EndResponse,
  ListResponse,
  PasswordBody,
  SessionResponse,
  SignInBody,
  staffAccount,
  StaffResponse,
  UpdateBody,
} from './schemas.ts';
import { endSession, SESSION_LONGEST_MS } from './sessions.ts';
import { signIn } from './sign-in.ts';
import { findStaff, listStaff } from './store.ts';

const TAG = 'Admin: staff accounts';

export interface StaffRouteDeps {
  database: Database;
  /** Failed sign-ins per address: ten in 15 minutes lock that address's sign-in until they pass. */
  accountFailures: Budgets;
  /** Failed admin authentications per client, which failed sign-ins count towards too. */
  adminThrottle: AdminThrottle;
  /** The cookie is sent over HTTPS only when the service is reached over HTTPS (PUBLIC_BASE_URL). */
  secureCookie: boolean;
  now: () => Date;
}

const retryAfter = (seconds: number) => ({ headers: { 'Retry-After': String(seconds) } });
const ownAddress = (field: string) =>
  new AppError('invalid_parameters', INVALID_PARAMETERS, {
    details: [{ field, message: `${field} must not be the account’s email address` }],
  });
const NOT_FOUND = () => new AppError('staff_not_found', 'Staff not found');

/** Signing in and out, and who is signed in. */
export function sessionRoutes(deps: StaffRouteDeps): Route[] {
  const { database } = deps;
  const common = { method: 'POST', tag: TAG, cors: 'any' } as const;
  return [
    defineRoute({
      ...common,
      path: '/api/admin/session',
      summary: 'Sign in with an address and a password',
      description:
        'Answers the account and sets the session cookie `tenpo_session` (HttpOnly, SameSite=Strict, Path=/, Secure when PUBLIC_BASE_URL is https), which every admin route then accepts in place of the bearer token. A session ends 12 hours after its last request, 7 days after it began at most. A wrong address, a wrong password and a disabled account are one answer, `401 Invalid email or password`, in the same time. Each failure counts towards the client’s failed admin authentications (ADMIN_AUTH_FAILURES_PER_MINUTE) and the address’s: after 10 within 15 minutes, its sign-in is `429` with `Retry-After` until they pass, whatever the password. An attempt is counted before its password is checked (and given back when it succeeds), so of many sent at once no more than the limits allow are checked. A post from a page not the service’s own is `403 Origin not allowed`.' +
        " Body `{email, password}` → `{success, staff}`; no credential needed. The cookie is `Set-Cookie: tenpo_session=<token>; HttpOnly; SameSite=Strict; Path=/; Max-Age=604800`. The lock is `429 Too many failed sign-ins`: the 10th failure within 15 minutes locks the address's sign-in until the 15 minutes from its first failure pass, from whatever client, an address without an account alike (so a lock tells nothing); the account's open sessions and every other address are unaffected. The one-answer timing is measured by `npm run bench sign-in`. " +
        "`staff` is `{id: 'stf_<uuid v7>', email, name, role: 'owner'|'staff', disabled, createdAt, lastSignInAt}`, never a password.",
      origins: 'service',
      body: SignInBody,
      errors: ['invalid_email_or_password', 'too_many_failed_sign_ins', 'too_many_failed_authentications'],
      responses: {
        200: { description: 'Signed in; the cookie is set', schema: StaffResponse, headers: { 'Set-Cookie': 'The session cookie' } },
        ...errorResponses(400, 401, 403, 413, 429, 500),
      },
      handle: async (c, { body }) => {
        const result = await deps.adminThrottle(
          c,
          async (client) => {
            const outcome = await signIn({ db: database.db, accountFailures: deps.accountFailures, now: deps.now }, { ...body, client });
            if (outcome.outcome === 'refused') throw new AppError('invalid_email_or_password', 'Invalid email or password');
            return outcome;
          },
          { countFirst: true },
        );
        if (result.outcome === 'locked')
          throw new AppError('too_many_failed_sign_ins', 'Too many failed sign-ins', retryAfter(result.retryAfterSeconds));
        const cookie = sessionCookie(result.token, { secure: deps.secureCookie, maxAgeSeconds: SESSION_LONGEST_MS / 1000 });
        return replyJson(
          c,
          200,
          { success: true, staff: staffAccount(result.staff) },
          { 'Set-Cookie': cookie, 'Cache-Control': 'no-store' },
        );
      },
    }),
    defineRoute({
      ...common,
      path: '/api/admin/session/get',
      summary: 'Who is signed in',
      description:
        '`{}` → `{success, staff}`: the account of the session the cookie names; `staff: null` for the bearer token, which is no one’s account.',
      admin: true,
      body: EmptyBody,
      responses: { 200: { description: 'Signed in', schema: SessionResponse }, ...errorResponses(400, 401, 413, 500) },
      handle: async (c) => {
        const { staff } = adminIdentity(c);
        const account = staff && (await findStaff(database.db, staff.id));
        return replyJson(c, 200, { success: true, staff: account ? staffAccount(account) : null }, { 'Cache-Control': 'no-store' });
      },
    }),
    defineRoute({
      ...common,
      path: '/api/admin/session/end',
      summary: 'Sign out',
      description:
        'Ends the session the cookie names, on every instance at once, and clears the cookie. With the bearer token there is no session to end: it answers the same.' +
        ' `{}` → `{success}`; the cookie is cleared with `Max-Age=0`.',
      admin: true,
      body: EmptyBody,
      responses: { 200: { description: 'Signed out', schema: EndResponse }, ...errorResponses(400, 401, 413, 500) },
      handle: async (c) => {
        const { sessionId } = adminIdentity(c);
        if (sessionId !== null) await endSession(database.db, sessionId);
        return replyJson(c, 200, { success: true }, { 'Set-Cookie': endedSessionCookie({ secure: deps.secureCookie }) });
      },
    }),
  ];
}

/** The accounts, managed by owners; one's own password, changed by anyone signed in. */
export function staffRoutes(deps: StaffRouteDeps): Route[] {
  const { database } = deps;
  const owners = { method: 'POST', tag: TAG, cors: 'any', admin: true, ownerOnly: true } as const;
  return [
    defineRoute({
      ...owners,
      path: '/api/admin/staff/list',
      summary: 'List the staff accounts (owners only)',
      description:
        '`{}` → `{success, staff: [...]}`: every account, disabled ones too, the oldest first. A `staff` account gets `403 Forbidden`.',
      body: EmptyBody,
      responses: { 200: { description: 'The accounts', schema: ListResponse }, ...errorResponses(400, 401, 403, 413, 500) },
      handle: async (c) => replyJson(c, 200, { success: true, staff: (await listStaff(database.db)).map(staffAccount) }),
    }),
    defineRoute({
      ...owners,
      path: '/api/admin/staff/create',
      summary: 'Create a staff account with its first password (owners only)',
      description:
        'The address is trimmed and must be new (compared case-insensitively: `409 Staff email already exists`); the name 1–100 characters on one line; the role `owner` or `staff`; the password 12–200 characters, not only spaces, and not the address. Anything else `400 Invalid parameters` naming each field. The bearer token creates the first owner this way.' +
        ' Body `{email, name, role, password}` → `{success, staff}`: `email` a valid address of at most 254 characters, `name` trimmed, the password not the address in any case. `npm run staff:create-owner` creates the first owner too ([operations.md](operations.md#staff-accounts-and-sign-in)).',
      body: CreateBody,
      errors: ['staff_email_exists'],
      responses: { 200: { description: 'Created', schema: StaffResponse }, ...errorResponses(400, 401, 403, 409, 413, 500) },
      handle: async (c, { body }) => {
        const result = await createStaff(database, body, deps.now());
        if (result.outcome === 'emailExists') throw new AppError('staff_email_exists', 'Staff email already exists');
        return replyJson(c, 200, { success: true, staff: staffAccount(result.staff) });
      },
    }),
    defineRoute({
      ...owners,
      path: '/api/admin/staff/update',
      summary: 'Rename, change the role of, disable or enable, or reset the password of a staff account (owners only)',
      description:
        'Fields left out stay as they are. Disabling ends the account’s sessions at once, on every instance; a new password ends them too (but the asking owner’s own). Disabling or demoting the last enabled owner is `409 At least one owner is required`; an unknown id `404 Staff not found`.' +
        " Body `{id, name?, role?, disabled?, password?}` → `{success, staff}`. `disabled: true` refuses the account at its next request everywhere and its sign-in; `false` lets it sign in again. `password` is an owner's reset. Two owners demoting each other at once: one of them is refused. Bad fields as for create.",
      body: UpdateBody,
      errors: ['staff_not_found', 'owner_required'],
      responses: { 200: { description: 'Changed', schema: StaffResponse }, ...errorResponses(400, 401, 403, 404, 409, 413, 500) },
      handle: async (c, { body }) => {
        const result = await updateStaff(database, body, adminIdentity(c));
        if (result.outcome === 'notFound') throw NOT_FOUND();
        if (result.outcome === 'ownerRequired') throw new AppError('owner_required', 'At least one owner is required');
        if (result.outcome === 'ownAddressPassword') throw ownAddress('password');
        return replyJson(c, 200, { success: true, staff: staffAccount(result.staff) });
      },
    }),
    defineRoute({
      method: 'POST',
      tag: TAG,
      cors: 'any',
      admin: true,
      path: '/api/admin/staff/password',
      summary: 'Change one’s own password',
      description:
        'For anyone signed in: `current` must be the account’s password (`400 Current password is wrong`; each wrong one counts towards the address’s failed sign-ins, and while its sign-in is locked this is `429` too), `next` 12–200 characters, not only spaces, and not the address. The account’s other sessions end; this one stays. The bearer token has no password: `403 Forbidden`.' +
        " Body `{current, next}` → `{success}`. The lock's answer is `429 Too many failed sign-ins`; a bad `next` is `400 Invalid parameters` naming `next`.",
      body: PasswordBody,
      errors: ['forbidden', 'current_password_wrong', 'too_many_failed_sign_ins'],
      responses: { 200: { description: 'Changed', schema: EndResponse }, ...errorResponses(400, 401, 403, 413, 429, 500) },
      handle: async (c, { body }) => {
        const { staff, sessionId } = adminIdentity(c);
        if (!staff) throw new AppError('forbidden', 'Forbidden');
        const result = await changeOwnPassword(deps, { staffId: staff.id, sessionId }, body);
        if (result.outcome === 'wrongCurrent') throw new AppError('current_password_wrong', 'Current password is wrong');
        if (result.outcome === 'ownAddressPassword') throw ownAddress('next');
        if (result.outcome === 'locked')
          throw new AppError('too_many_failed_sign_ins', 'Too many failed sign-ins', retryAfter(result.retryAfterSeconds));
        return replyJson(c, 200, { success: true });
      },
    }),
  ];
}
