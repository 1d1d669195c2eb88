import type { NewReservationRow } from '../../src/reservations/store.ts';

/** Pending reservations of kumo-vco-2 taken a minute from now (newer than any the test took), from [id, name, email]. */
export function newerPending(...rows: [id: string, name: string, email: string][]): NewReservationRow[] {
  const later = new Date(Date.now() + 60_000).toISOString();
  return rows.map(([id, name, email]) => ({ id, name, email, product_slug: 'kumo-vco-2', status: 'pending', created_at: later }));
}
