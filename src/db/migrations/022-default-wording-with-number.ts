import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

// The reservation emails' default wording states the reservation's number (what a customer quotes
// on the phone: {{reservationNumber}}) where it stated the 40-character id. Each reservation kind
// still on migration 017's text (enabled, subject and body as written there, known here by their
// SHA-256 so the texts need not be copied again) gets that text with this one line changed as its
// next version; a kind staff edited or turned off keeps its own, and emails already queued keep
// the version they were queued with.

/** SHA-256 of `${subject}\n${body}` of migration 017's text of each reservation kind. */
const PREVIOUS: Record<string, string> = {
  'reservation-received': 'ac438422e6573268a5ec460515c4dfe793d1cd74097ea2ccb26c8ef7760c06f1',
  'reservation-confirmed': '38b3fd8231830373f27d2f400a2d43f4316d1d203cdd678ef45ad86ddeb01884',
  'reservation-fulfilled': '8c4b120da43b33c803599be905e4c12fb9ce121ed06edec8b3304ebbd78deabb',
  'reservation-cancelled': '80a31b41d1d8eaf4af72a0fa3cc99d5369b2847ee165b1a1625cbf21ff04f5ae',
};

const LINE = 'ご予約番号: {{reservationId}}';
const NEXT_LINE = 'ご予約番号: {{reservationNumber}}';

type Versions = {
  email_template_versions: { kind: string; version: number; subject: string; body: string; enabled: number; created_at: string };
};

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<Versions>;
  const now = new Date().toISOString();
  for (const [kind, digest] of Object.entries(PREVIOUS)) {
    const current = await db
      .selectFrom('email_template_versions')
      .selectAll()
      .where('kind', '=', kind)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!current || Number(current.enabled) !== 1) continue;
    if (createHash('sha256').update(`${current.subject}\n${current.body}`).digest('hex') !== digest) continue;
    await db
      .insertInto('email_template_versions')
      .values({
        kind,
        version: Number(current.version) + 1,
        subject: current.subject,
        body: current.body.replace(LINE, NEXT_LINE),
        enabled: 1,
        created_at: now,
      })
      .execute();
  }
}
