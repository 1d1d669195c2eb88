import { loadCatalog } from '../../src/catalog/catalog.ts';
import type { Database } from '../../src/db/database.ts';
import { createMessaging } from '../../src/messaging/messaging.ts';
import { reservationWriter } from '../../src/reservations/reserve.ts';

/** The shop's catalog, as data/products.json holds it. */
export const catalog = loadCatalog(new URL('../../data/products.json', import.meta.url).pathname);

/** What the reservation use case needs on `database`, assembled as the app does it: its store's own writer. */
export function reservationDeps(database: Database, wakeDispatcher: () => void = () => {}) {
  const messaging = createMessaging({
    catalog,
    publicBaseUrl: 'https://shop.example',
    storefrontUrl: 'https://shop.example',
    linkSecret: 'secret',
    emailsPerAddressPerDay: 10,
  });
  return { database, catalog, write: reservationWriter(database, messaging), wakeDispatcher, idempotencySecret: 'secret' };
}
