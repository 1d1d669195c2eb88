import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

// The preorder emails state when the campaign ships (発送予定: {{shipsIn}}, a line left out for a
// reservation without one), as the customer's page does; and a new shop's templates start at
// version 1. Migrations 007, 017 and 022 each added a version of the default wording, so a store
// made from nothing began at version 3 with versions 1–2 holding wordings the shop never had.
//
// A store with no reservation, signup or message yet, whose every template is still exactly the
// versions those migrations made (known here by the SHA-256 of `${subject}\n${body}`, all enabled),
// is a new shop: each kind's versions are replaced by one, version 1, today's default. Any other
// store keeps its history: the receipt and the confirmation still on migration 022's text get this
// text as their next version, a kind staff edited or turned off keeps its own, and emails already
// queued keep the version they were queued with.

/** Each kind's versions as migrations 007, 017 and 022 made them, oldest first. */
const MADE_BY_MIGRATIONS: Record<string, string[]> = {
  'reservation-received': [
    'cf532656a588b4c2814551b8640d213eaabc0d023c0c1d0c2cf3c8efbc824162',
    'ac438422e6573268a5ec460515c4dfe793d1cd74097ea2ccb26c8ef7760c06f1',
    '1b11a74e30f1c8639b1bfd741ddac7d1b06a47e8d4e6da5ae37383a7f3e37d13',
  ],
  'reservation-confirmed': [
    '5a7898163c9f1393f3b4a42e67103b08ee67de5e75b6e230afb9bea41716e359',
    '38b3fd8231830373f27d2f400a2d43f4316d1d203cdd678ef45ad86ddeb01884',
    'd9e7b506d20bf5caa7aa920872137b3ea65432cedb8822b81878dc6f17851400',
  ],
  'reservation-fulfilled': [
    'd29707bc6b4bf4898b0068d55aa20b4470b742b5cecb7cd8810bb4247aa7f1f5',
    '8c4b120da43b33c803599be905e4c12fb9ce121ed06edec8b3304ebbd78deabb',
    '5451d810e520e99b7eda148cc8ed322b02317b4bbbc8ac7e0fbf2c935fde080d',
  ],
  'reservation-cancelled': [
    '2ef2e0e3cbd0d01ac6dee9b2bcc624914ab1927a025c8eda6e2df1bc8a38a52c',
    '80a31b41d1d8eaf4af72a0fa3cc99d5369b2847ee165b1a1625cbf21ff04f5ae',
    '5e1dfe5c5df1b0ae0ce9a8a3c22d1d5716cd5cc959474de135fe5f014d201a8b',
  ],
  'restock-available': [
    'fa28266c0d078bfb04cf1871d8a1e3c5c2ab05154da0bd93f3393e62e35c6b3c',
    'efad2736cadabb4e5a24b86ece5758dd93d4c649f5c58b45b069eaa241b8dded',
  ],
};

/** The kinds that state when the campaign ships, after the line saying when the reservation was taken. */
const WITH_SHIPS_IN = new Set(['reservation-received', 'reservation-confirmed']);
const LINE = '受付日時: {{reservedAt}}';
const NEXT_LINES = '受付日時: {{reservedAt}}\n発送予定: {{shipsIn}}';

type Version = { kind: string; version: number; subject: string; body: string; enabled: number; created_at: string };
type Tables = {
  email_template_versions: Version;
  reservations: { id: string };
  subscriptions: { id: string };
  outbox: { id: string };
};

const digest = (version: Version) => createHash('sha256').update(`${version.subject}\n${version.body}`).digest('hex');

/** Today's default of a kind made from migration 022's (or, for the restock email, 017's) text. */
const withShipsIn = (version: Version) => (WITH_SHIPS_IN.has(version.kind) ? version.body.replace(LINE, NEXT_LINES) : version.body);

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<Tables>;
  const now = new Date().toISOString();
  const versions = await db.selectFrom('email_template_versions').selectAll().orderBy('kind').orderBy('version').execute();
  const byKind = new Map<string, Version[]>();
  for (const version of versions) byKind.set(version.kind, [...(byKind.get(version.kind) ?? []), version]);
  const asMigrationsMadeThem = Object.entries(MADE_BY_MIGRATIONS).every(([kind, digests]) => {
    const made = byKind.get(kind) ?? [];
    return made.length === digests.length && made.every((version, i) => Number(version.enabled) === 1 && digest(version) === digests[i]);
  });
  const untouched = async (table: 'reservations' | 'subscriptions' | 'outbox') =>
    (await db.selectFrom(table).select('id').limit(1).executeTakeFirst()) === undefined;
  const newShop =
    asMigrationsMadeThem && (await untouched('reservations')) && (await untouched('subscriptions')) && (await untouched('outbox'));

  for (const [kind, digests] of Object.entries(MADE_BY_MIGRATIONS)) {
    const current = byKind.get(kind)?.at(-1);
    if (!current) continue;
    if (newShop) {
      await db.deleteFrom('email_template_versions').where('kind', '=', kind).execute();
      await db
        .insertInto('email_template_versions')
        .values({ kind, version: 1, subject: current.subject, body: withShipsIn(current), enabled: 1, created_at: now })
        .execute();
      continue;
    }
    if (!WITH_SHIPS_IN.has(kind) || Number(current.enabled) !== 1 || digest(current) !== digests.at(-1)) continue;
    await db
      .insertInto('email_template_versions')
      .values({
        kind,
        version: Number(current.version) + 1,
        subject: current.subject,
        body: withShipsIn(current),
        enabled: 1,
        created_at: now,
      })
      .execute();
  }
}
