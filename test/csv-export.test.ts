import assert from 'node:assert/strict';
import { formulaLike } from '../src/text/csv.ts';
import { request as httpRequest } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { EXPORT_BATCH } from '../src/records/export.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { waitUntil } from './helpers/wait.ts';
import { foldForMatching } from '../src/text/normalize.ts';

// CSV export of both lists over real HTTP on both dialects. Every answer is read back by
// the strict RFC 4180 parser below, which refuses anything the RFC does not allow (a bare LF, a
// quote inside an unquoted field, text after a closing quote, a last line without CRLF), and each
// rule is checked on what it returns: the byte-order mark, the header, the quoting of hostile
// names, the formula guard, Japan time, the filters and the order, and more rows than one batch.

const RESERVATIONS = '/api/admin/reservations/export';
const SUBSCRIPTIONS = '/api/admin/notify/export';
const RESERVATION_HEADER = [
  '予約番号',
  '受付日時',
  'お名前',
  'メールアドレス',
  '商品コード',
  '商品名',
  '状態',
  'メモ',
  '初回対応日時',
  '最終更新日時',
  'アーカイブ日時',
  '予約受付ID',
  'レコードID',
];
const SUBSCRIPTION_HEADER = [
  '登録番号',
  '登録日時',
  'メールアドレス',
  '商品コード',
  '商品名',
  '状態',
  '通知日時',
  '最終更新日時',
  'アーカイブ日時',
];

/** A reservation's id in its CSV row: the last column (the first is the number customers quote). */
const recordId = (row: string[]) => row.at(-1)!;

/** RFC 4180, strictly: the records of `text` (after its byte-order mark) as arrays of fields. */
function parseCsv(text: string): string[][] {
  assert.ok(text.startsWith('\ufeff'), 'starts with a byte-order mark');
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 1;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        assert.ok(quote >= 0, `an unterminated quoted field at ${i}`);
        field += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        field += '"';
        i += 1;
      }
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\r' && text[end] !== '\n') end += 1;
      field = text.slice(i, end);
      assert.ok(!field.includes('"'), `a quote inside an unquoted field: ${JSON.stringify(field)}`);
      i = end;
    }
    row.push(field);
    if (text[i] === ',') {
      i += 1;
      assert.ok(i < text.length, 'a comma ends the file');
    } else {
      assert.ok(text.startsWith('\r\n', i), `a field is followed by a comma or CRLF, not ${JSON.stringify(text.slice(i, i + 5))}`);
      i += 2;
      rows.push(row);
      row = [];
    }
  }
  assert.deepEqual(row, [], 'the last record ends with CRLF');
  return rows;
}

/** What a cell holds when read back: the value, with `'` before one a spreadsheet would run. */
/** What the file must hold for a cell: the value, with a `'` first when a spreadsheet could run it (src/text/csv.ts). */
const guarded = (value: string) => (formulaLike(value) ? `'${value}` : value);

/** `2026-11-23 15:04:05` in Japan time. */
const japan = (iso: string) => new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

for (const dialect of DIALECTS) {
  describe(`CSV export (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    after(() => app.close());
    beforeEach(async () => {
      for (const table of ['reservations', 'subscriptions'] as const) await app.services.database.db.deleteFrom(table).execute();
    });

    async function download(path: string, body: unknown): Promise<{ response: Response; rows: string[][]; bytes: Uint8Array }> {
      const response = await app.admin(path, body);
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.equal(response.status, 200, new TextDecoder().decode(bytes).slice(0, 300));
      return { response, bytes, rows: parseCsv(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)) };
    }

    async function insertReservations(
      rows: {
        id: string;
        name?: string;
        email?: string;
        productSlug?: string;
        status?: string;
        notes?: string;
        createdAt: string;
        archivedAt?: string | null;
        respondedAt?: string | null;
      }[],
    ) {
      for (let i = 0; i < rows.length; i += 500) {
        await app.services.database.db
          .insertInto('reservations')
          .values(
            rows.slice(i, i + 500).map((row) => ({
              id: row.id,
              name: row.name ?? '山田 太郎',
              name_fold: foldForMatching(row.name ?? '山田 太郎'),
              email: row.email ?? `${row.id}@example.com`,
              product_slug: row.productSlug ?? 'kumo-vco-2',
              status: row.status ?? 'pending',
              notes: row.notes ?? '',
              created_at: row.createdAt,
              updated_at: row.archivedAt ?? row.createdAt,
              archived_at: row.archivedAt ?? null,
              responded_at: row.respondedAt ?? null,
              preorder_id: null,
            })),
          )
          .execute();
      }
    }

    test('the file: UTF-8 with a byte-order mark, a Japanese header, every active record as the list shows it, Japan time, a filename', async () => {
      const made: string[] = [];
      for (const [name, email, productSlug] of [
        ['山田 太郎', 'Taro@Example.com', 'kumo-vco-2'],
        ['鈴木 花子', 'hanako@example.com', 'tsuki-dual-lfo'],
      ]) {
        const response = await app.request('/api/reservation', { method: 'POST', body: JSON.stringify({ name, email, productSlug }) });
        made.push((await app.read('/api/reservation', response)).success().reservationId);
      }
      await app.call('/api/admin-reservations-status', {
        id: made[0],
        productSlug: 'kumo-vco-2',
        status: 'confirmed',
        notes: '店頭で受け取り',
      });
      const { response, rows, bytes } = await download(RESERVATIONS, {});
      assert.deepEqual(Array.from(bytes.subarray(0, 3)), [0xef, 0xbb, 0xbf]);
      assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.match(response.headers.get('content-disposition')!, /^attachment; filename="reservations-\d{8}-\d{4}\.csv"$/);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(rows[0], RESERVATION_HEADER);
      const listed = (await app.call('/api/admin-reservations-list', {})).success().reservations;
      assert.deepEqual(
        rows.slice(1).map(recordId),
        listed.map((r) => r.id),
        'the list’s records, in its order',
      );
      const confirmed = rows.find((row) => recordId(row) === made[0])!;
      const stored = await app.services.database.db
        .selectFrom('reservations')
        .selectAll()
        .where('id', '=', made[0]!)
        .executeTakeFirstOrThrow();
      assert.deepEqual(confirmed, [
        String(stored.number),
        japan(stored.created_at),
        '山田 太郎',
        'taro@example.com',
        'kumo-vco-2',
        'Kumo VCO II',
        '確定',
        '店頭で受け取り',
        japan(stored.responded_at!),
        japan(stored.updated_at),
        '',
        '',
        stored.id,
      ]);

      const signup = await app.request('/api/notify', {
        method: 'POST',
        body: JSON.stringify({ email: 'restock@example.com', productSlug: 'tsuki-dual-lfo' }),
      });
      const subscriptionId = (await app.read('/api/notify', signup)).success().subscriptionId;
      const subscriptions = await download(SUBSCRIPTIONS, {});
      assert.match(subscriptions.response.headers.get('content-disposition')!, /^attachment; filename="subscriptions-\d{8}-\d{4}\.csv"$/);
      assert.deepEqual(subscriptions.rows[0], SUBSCRIPTION_HEADER);
      const row = subscriptions.rows[1]!;
      assert.deepEqual(
        [row[0], row[2], row[3], row[4], row[5], row[6], row[8]],
        [subscriptionId, 'restock@example.com', 'tsuki-dual-lfo', 'Tsuki デュアルLFO', '通知待ち', '', ''],
      );
      assert.equal(subscriptions.rows.length, 2);
    });

    test('names and notes that break naive CSV come back exactly; a cell that would run as a formula starts with a quote mark', async () => {
      const hostile = [
        'a,b',
        'say "hi"',
        'two\nlines',
        'two\r\nlines',
        '=1+1',
        '+81 90',
        '-5',
        '@SUM(A1)',
        '\tindent',
        '\rreturn',
        '=HYPERLINK("http://x.example","y"),',
        '🎛️ 名前',
        'ｼﾝｾ',
        ' =behind a space',
        'x;=1+1',
        '＝1+1',
        '\u200b=HYPERLINK("http://x.example")',
        'a = b',
        '',
      ];
      // Formulas a probe found unguarded: behind spaces after a separator, and behind characters that show as nothing.
      const hidden = ['x; =1', 'x;  =1', 'x\t =1', 'x, =1', '\u2800=1', '\u115f=1', '\u3164=1', '\u034f=1', '\uffa0=1', '\u2060 =1'];
      hostile.push(...hidden);
      await insertReservations(
        hostile.map((name, i) => ({
          id: `res_h${String(i).padStart(2, '0')}`,
          name: name || 'x',
          notes: name,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        })),
      );
      const { rows } = await download(RESERVATIONS, {});
      const byId = new Map(rows.slice(1).map((row) => [recordId(row), row]));
      hostile.forEach((value, i) => {
        const row = byId.get(`res_h${String(i).padStart(2, '0')}`)!;
        assert.equal(row.length, RESERVATION_HEADER.length, JSON.stringify(value));
        assert.equal(row[2], guarded(value || 'x'), `name ${JSON.stringify(value)}`);
        assert.equal(row[7], guarded(value), `notes ${JSON.stringify(value)}`);
      });
      assert.equal(byId.get('res_h04')![2], "'=1+1");
      assert.equal(byId.get('res_h13')![2], "' =behind a space");
      assert.equal(byId.get('res_h14')![2], "'x;=1+1", 'LibreOffice splitting on ; would run it');
      assert.equal(byId.get('res_h15')![2], "'＝1+1");
      assert.equal(byId.get('res_h16')![2], '\'\u200b=HYPERLINK("http://x.example")');
      assert.equal(byId.get('res_h17')![2], 'a = b');
      hidden.forEach((value, i) => {
        const row = byId.get(`res_h${hostile.length - hidden.length + i}`)!;
        assert.deepEqual([row[2], row[7]], [`'${value}`, `'${value}`], JSON.stringify(value));
      });
    });

    test('the list’s filters, the search and the archive select the same records as the lists', async () => {
      await insertReservations([
        { id: 'res_a', status: 'pending', productSlug: 'kumo-vco-2', name: '青木 一郎', createdAt: '2026-01-01T00:00:00.000Z' },
        { id: 'res_b', status: 'confirmed', productSlug: 'kumo-vco-2', name: '木村 次郎', createdAt: '2026-01-02T00:00:00.000Z' },
        {
          id: 'res_c',
          status: 'pending',
          productSlug: 'tsuki-dual-lfo',
          name: '青山 三郎',
          email: 'Aoyama@Example.com',
          createdAt: '2026-01-03T00:00:00.000Z',
        },
        {
          id: 'res_d',
          status: 'cancelled',
          productSlug: 'kumo-vco-2',
          createdAt: '2026-01-04T00:00:00.000Z',
          archivedAt: '2026-02-02T00:00:00.000Z',
        },
        {
          id: 'res_e',
          status: 'reserved',
          productSlug: 'tsuki-dual-lfo',
          createdAt: '2026-01-05T00:00:00.000Z',
          archivedAt: '2026-02-01T00:00:00.000Z',
        },
      ]);
      const ids = async (body: object) => (await download(RESERVATIONS, body)).rows.slice(1).map(recordId);
      assert.deepEqual(await ids({}), ['res_c', 'res_b', 'res_a']);
      assert.deepEqual(await ids({ status: 'pending' }), ['res_c', 'res_a']);
      assert.deepEqual(await ids({ productSlug: 'kumo-vco-2' }), ['res_b', 'res_a']);
      assert.deepEqual(await ids({ q: '青' }), ['res_c', 'res_a']);
      assert.deepEqual(await ids({ q: 'AOYAMA@' }), ['res_c']);
      assert.deepEqual(await ids({ status: 'pending', q: '青', productSlug: 'kumo-vco-2' }), ['res_a']);
      assert.deepEqual(await ids({ q: '%' }), []);
      assert.deepEqual(await ids({ archived: true }), ['res_d', 'res_e'], 'most recently archived first');
      assert.deepEqual(await ids({ archived: true, productSlug: 'tsuki-dual-lfo' }), ['res_e']);
      assert.deepEqual(await ids({ archived: false }), ['res_c', 'res_b', 'res_a']);
      assert.deepEqual(await ids({ archived: true, status: 'reserved' }), ['res_e'], 'the archive takes a legacy status, as its list does');
      assert.equal(
        (await app.admin(RESERVATIONS, { status: 'reserved' })).status,
        400,
        'the active records take the kind’s own statuses only',
      );
      const archived = await download(RESERVATIONS, { archived: true });
      assert.match(archived.response.headers.get('content-disposition')!, /filename="reservations-archived-\d{8}-\d{4}\.csv"/);
      assert.deepEqual(archived.rows[1]!.slice(6), [
        'キャンセル',
        '',
        '',
        japan('2026-02-02T00:00:00.000Z'),
        japan('2026-02-02T00:00:00.000Z'),
        '',
        'res_d',
      ]);
      assert.equal(archived.rows[2]![6], '予約済み（旧）', 'a legacy status by its console label');
      const none = await download(RESERVATIONS, { status: 'fulfilled' });
      assert.deepEqual(none.rows, [RESERVATION_HEADER], 'nothing matches: the header alone');
    });

    test('more rows than one batch: every record once, in order', async () => {
      const count = EXPORT_BATCH * 2 + 7;
      // Pairs of records created in the same millisecond: the order's ties are broken by id.
      await insertReservations(
        Array.from({ length: count }, (_, i) => ({
          id: `res_${String(i).padStart(6, '0')}`,
          createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2)).toISOString(),
        })),
      );
      const { rows } = await download(RESERVATIONS, {});
      const ids = rows.slice(1).map(recordId);
      assert.equal(ids.length, count);
      assert.deepEqual(
        ids,
        Array.from({ length: count }, (_, i) => `res_${String(count - 1 - i).padStart(6, '0')}`),
      );
    });

    test('a sort the list takes is honoured across batches, and an archived-only sort orders the archive alone', async () => {
      const count = EXPORT_BATCH + 13;
      await insertReservations(
        Array.from({ length: count }, (_, i) => ({
          id: `res_${String(i).padStart(6, '0')}`,
          name: `n${String(i % 13).padStart(2, '0')}`,
          createdAt: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
        })),
      );
      const { rows } = await download(RESERVATIONS, { sort: { by: 'name', order: 'asc' } });
      const expected = Array.from({ length: count }, (_, i) => ({
        id: `res_${String(i).padStart(6, '0')}`,
        name: `n${String(i % 13).padStart(2, '0')}`,
      }))
        .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1))
        .map((r) => r.id);
      assert.deepEqual(rows.slice(1).map(recordId), expected);
      const byArchive = await download(RESERVATIONS, { sort: { by: 'archivedAt' } });
      assert.equal(byArchive.rows.length, count + 1, 'archivedAt does not order the active records: the list’s own order');
      const bad = await app.admin(RESERVATIONS, { sort: { by: 'email' } });
      assert.equal(bad.status, 400);
    });

    test('bad input → 400 with the list’s messages; 401 before the body; too big → 413', async () => {
      await insertReservations([{ id: 'res_x', createdAt: '2026-01-01T00:00:00.000Z' }]);
      for (const path of [RESERVATIONS, SUBSCRIPTIONS]) {
        for (const [body, error] of [
          [{ status: 'nope' }, 'Invalid status'],
          [{ status: 5 }, 'Invalid status'],
          [{ q: 'x'.repeat(201) }, 'q must be a string of at most 200 characters'],
          [{ q: ['x'] }, 'q must be a string of at most 200 characters'],
          [{ archived: 'yes' }, 'archived must be a boolean'],
          [{ archived: 1 }, 'archived must be a boolean'],
          [{ productSlug: 'a\u0000b' }, 'Invalid parameters'],
          [{ productSlug: { __proto__: 'x' } }, 'Invalid parameters'],
        ] as const) {
          const response = await app.admin(path, body);
          assert.equal(response.status, 400, `${path} ${JSON.stringify(body)}`);
          const answer = (await response.json()) as { error: string; details: unknown[] };
          assert.equal(answer.error, error, `${path} ${JSON.stringify(body)}`);
          assert.ok(answer.details.length > 0);
        }
        for (const text of ['[]', 'null', '{', '"x"']) {
          const response = await app.request(path, {
            method: 'POST',
            headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
            body: text,
          });
          assert.deepEqual(
            [response.status, await response.json()],
            [400, { success: false, error: 'Invalid JSON body', code: 'invalid_json_body' }],
          );
        }
        const proto = await app.request(path, {
          method: 'POST',
          headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
          body: '{"__proto__": {"archived": true}, "constructor": {"x": 1}}',
        });
        assert.equal(proto.status, 200, 'prototype keys are ignored');
        assert.ok(!(await proto.text()).includes('archived'), 'and select nothing but the active list');
        const huge = await app.request(path, {
          method: 'POST',
          headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
          body: JSON.stringify({ q: 'x'.repeat(70 * 1024) }),
        });
        assert.equal(huge.status, 413);
        for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
          const refused = await app.request(path, { method: 'POST', headers, body: '{"status": 5' });
          assert.deepEqual([refused.status, await refused.json()], [401, { success: false, error: 'Unauthorized', code: 'unauthorized' }]);
        }
      }
    });

    test('an export that cannot read its records answers 500 with the error, never a 200 file cut short', async () => {
      await insertReservations([{ id: 'res_000001', createdAt: '2026-01-01T00:00:00.000Z' }]);
      const { db } = app.services.database;
      await sql`alter table reservations rename to reservations_away`.execute(db);
      try {
        const response = await app.admin(RESERVATIONS, {});
        assert.equal(response.status, 500);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(((await response.json()) as { code: string }).code, 'internal_error');
      } finally {
        await sql`alter table reservations_away rename to reservations`.execute(db);
      }
      assert.equal((await download(RESERVATIONS, {})).rows.length, 2, 'the export works again');
    });

    test('a client that hangs up mid-download stops the export without an error; the service serves on', async () => {
      const logsBefore = app.logs.length;
      await insertReservations(
        Array.from({ length: EXPORT_BATCH * 5 }, (_, i) => ({
          id: `res_${String(i).padStart(6, '0')}`,
          name: '長い名前'.repeat(20),
          createdAt: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
        })),
      );
      const url = new URL(RESERVATIONS, app.url);
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          url,
          { method: 'POST', headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}`, 'content-type': 'application/json' } },
          (res) => {
            assert.equal(res.statusCode, 200);
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        req.end('{}');
      });
      await waitUntil(async () => (await app.admin('/api/admin-reservations-list', { pageSize: 1 })).status === 200, {
        what: 'the service answering',
      });
      assert.deepEqual(
        app.logs.slice(logsBefore).filter((line) => Number(line.level) >= 50),
        [],
        'nothing at error level',
      );
      const whole = await download(RESERVATIONS, {});
      assert.equal(whole.rows.length, EXPORT_BATCH * 5 + 1);
    });
  });
}
