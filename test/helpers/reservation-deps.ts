import { loadCatalog } from '../../src/catalog/catalog.ts';
import type { Database } from '../../src/db/database.ts';
import { createMessaging } from '../../src/messaging/messaging.ts';
import type { ReserveDeps } from '../../src/reservations/reserve.ts';
import { reservationsTransaction } from '../../src/server.ts';

/** The shop's catalog, as data/products.json holds it. */
export const catalog = loadCatalog(new URL('../../data/products.json', import.meta.url).pathname);

/** What the reservation use case needs on `database`, assembled as the app does it: a group commit of its own, as each instance has. */
export function reservationDeps(database: Database, wakeDispatcher: () => void = () => {}): ReserveDeps & { database: Database } {
  const messaging = createMessaging({
    catalog,
    publicBaseUrl: 'https://shop.example',
    storefrontUrl: 'https://shop.example',
    linkSecret: 'secret',
    emailsPerAddressPerDay: 10,
  });
  return { database, dialect: database.dialect, catalog, messaging, transaction: reservationsTransaction(database), wakeDispatcher };
}
