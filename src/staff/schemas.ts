import { z } from 'zod';
import { isStorable } from '../text/storable-text.ts';
import { codePointLength } from '../text/code-points.ts';
import { isOwnAddress, PASSWORD_LENGTH } from './password.ts';
import type { Staff } from './store.ts';

// What the sign-in and staff account endpoints take and answer with.

export const ROLES = ['owner', 'staff'] as const;
export type Role = (typeof ROLES)[number];

export const StaffSchema = z
  .object({
    id: z.string().describe('`stf_` and a UUID v7'),
    email: z.string().describe('The address the account signs in with'),
    name: z.string().describe('What the console and every history entry call the person'),
    role: z.enum(ROLES).describe('owner: everything; staff: all but the owner-only routes'),
    disabled: z.boolean().describe('A disabled account cannot sign in, and its sessions have ended'),
    createdAt: z.string(),
    lastSignInAt: z.string().nullable().describe('The last sign-in; null if never'),
  })
  .meta({ id: 'StaffAccount' });

export function staffAccount(row: Staff): z.output<typeof StaffSchema> {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role === 'owner' ? 'owner' : 'staff',
    disabled: row.disabled === 1,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

/** Text the service takes: a string without U+0000 or half a character (a lone surrogate). */
const storable = (text: string) => isStorable(text) && text.isWellFormed();

const EMAIL_MESSAGE = 'email must be a valid address of at most 254 characters';
const Email = z
  .string({ error: EMAIL_MESSAGE })
  .transform((email) => email.trim())
  .refine((email) => codePointLength(email) <= 254 && z.regexes.email.test(email), EMAIL_MESSAGE)
  .describe('A valid address, at most 254 characters; one account per address, compared case-insensitively');

const NAME_MESSAGE = 'name must be 1 to 100 characters on one line';
const Name = z
  .string({ error: NAME_MESSAGE })
  .transform((name) => name.trim())
  .refine((name) => {
    const length = codePointLength(name);
    return length >= 1 && length <= 100 && storable(name) && !/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(name);
  }, NAME_MESSAGE)
  .describe('1–100 characters, trimmed, on one line');

const Role = z.enum(ROLES, { error: 'role must be owner or staff' });

const Password = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .refine(storable, `${field} must not contain U+0000 or half a character`)
    .refine((password) => {
      const length = codePointLength(password);
      return length >= PASSWORD_LENGTH.min && length <= PASSWORD_LENGTH.max;
    }, `${field} must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`)
    // Twelve spaces are twelve characters, and the first thing a guesser tries after the empty one.
    .refine((password) => password.trim() !== '', `${field} must not be only spaces`)
    .describe(
      `${PASSWORD_LENGTH.min}–${PASSWORD_LENGTH.max} characters, not only spaces, not the account’s email address; kept only as its scrypt hash`,
    );

/** A new password's problem that needs the account: being its own address. */
export function ownAddressProblem(field: string, password: string, email: string): { field: string; message: string } | undefined {
  return isOwnAddress(password, email) ? { field, message: `${field} must not be the account’s email address` } : undefined;
}

export const SignInBody = z.object({
  email: z
    .string({ error: 'email must be a string' })
    .refine(storable, 'email must not contain U+0000 or half a character')
    .describe('The account’s address, in any case'),
  password: z.string({ error: 'password must be a string' }).refine(storable, 'password must not contain U+0000 or half a character'),
});

export const StaffResponse = z.object({ success: z.literal(true), staff: StaffSchema });

export const SessionResponse = z.object({
  success: z.literal(true),
  staff: StaffSchema.nullable().describe('The signed-in account; null for the bearer token, which is no one’s account'),
});

export const EmptyBody = z.object({}).describe('Nothing (`{}`)');

export const EndResponse = z.object({ success: z.literal(true) });

export const ListResponse = z.object({ success: z.literal(true), staff: z.array(StaffSchema).describe('Every account, oldest first') });

export const CreateBody = z
  .object({ email: Email, name: Name, role: Role, password: Password('password') })
  .superRefine((body, context) => {
    const problem = ownAddressProblem('password', body.password, body.email);
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

export const UpdateBody = z.object({
  id: z.string({ error: 'id is required' }).min(1, 'id is required').refine(storable, 'id is required'),
  name: Name.optional(),
  role: Role.optional(),
  disabled: z.boolean({ error: 'disabled must be a boolean' }).optional(),
  password: Password('password').optional().describe('A new password (a reset by an owner): the account’s sessions end'),
});

export const PasswordBody = z.object({
  current: z.string({ error: 'current must be a string' }),
  next: Password('next'),
});
