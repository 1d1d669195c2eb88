import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { RawNode } from 'kysely';
import { bulkSetArchived } from '../src/records/bulk-archive.ts';
import { SUBSCRIPTION_ARCHIVE } from '../src/subscriptions/archive-routes.ts';
import { ANOTHER_PENDING_SUBSCRIPTION } from '../src/subscriptions/change-status.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

// A restock signup that commits while a bulk unarchive is under way, on PostgreSQL, where two
// requests' transactions really interleave: the signup takes the unique "one pending per address
// and product" key the unarchive had just checked free. The unarchive must still answer, reporting
// that item and restoring the others.

let app: TestApp;
before(async () => {
  app = await startTestApp({ dialect: 'postgres', env: { RATE_LIMIT_PER_MINUTE: '0' } });
});
after(() => app.close());

async function archivedSubscription(email: string): Promise<string> {
  const signup = await app.request('/api/notify', { method: 'POST', body: JSON.stringify({ email, productSlug: 'kumo-vco-2' }) });
  const { subscriptionId } = (await signup.json()) as { subscriptionId: string };
  const archived = await app.admin('/api/admin/notify/archive', { ids: [{ id: subscriptionId, productSlug: 'kumo-vco-2' }] });
  assert.equal(archived.status, 200);
  return subscriptionId;
}

test('a signup taking the key between the check and the update makes that item a conflict, not a 500', async () => {
  const contested = await archivedSubscription('race@example.com');
  const other = await archivedSubscription('calm@example.com');

  const rival = new pg.Client({ connectionString: app.env.DATABASE_URL });
  await rival.connect();
  after(() => rival.end());
  // Another request's signup, committed on its own connection right after our check read the key free.
  let signedUpMeanwhile = false;
  const checks = new Set<unknown>();
  const database = {
    ...app.services.database,
    db: app.services.database.db.withPlugin({
      transformQuery({ node, queryId }) {
        if (RawNode.is(node) && node.sqlFragments.join('').includes('exists (')) checks.add(queryId);
        return node;
      },
      async transformResult({ result, queryId }) {
        if (checks.has(queryId) && !signedUpMeanwhile) {
          signedUpMeanwhile = true;
          const signup = await app.request('/api/notify', {
            method: 'POST',
            body: JSON.stringify({ email: 'race@example.com', productSlug: 'kumo-vco-2' }),
          });
          assert.equal(signup.status, 200);
        }
        return result;
      },
    }),
  };

  const outcome = await bulkSetArchived(
    database,
    SUBSCRIPTION_ARCHIVE,
    'unarchive',
    [
      { id: contested, productSlug: 'kumo-vco-2' },
      { id: other, productSlug: 'kumo-vco-2' },
    ],
    new Date().toISOString(),
    null,
  );

  assert.deepEqual(outcome, { doneIds: [other], errors: [{ id: contested, ...ANOTHER_PENDING_SUBSCRIPTION }] });
  const { rows } = await rival.query('select id, archived_at is null as active from subscriptions where id = any($1) order by id', [
    [contested, other],
  ]);
  assert.deepEqual(Object.fromEntries(rows.map((r) => [r.id, r.active])), { [contested]: false, [other]: true });
});
