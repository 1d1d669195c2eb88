import type { Database } from '../db/database.ts';
import type { Messaging } from '../messaging/messaging.ts';
import type { Route } from '../http/route.ts';
import { recordAdminRoutes } from '../records/admin-routes.ts';
import { archiveRoutes } from '../records/archive-routes.ts';
import { exportRoutes } from '../records/export-routes.ts';
import { reservationEraseRoutes } from './admin-routes.ts';
import { manageRoutes } from './manage-routes.ts';
import { publicReservationRoutes, type PublicReservationDeps } from './public-routes.ts';
import { reservationKind } from './record-kind.ts';

/** Every reservation endpoint: the public form, the admin workflow, the archive and the customer's own page. */
export function reservationRoutes(
  deps: PublicReservationDeps & { database: Database; messaging: Messaging; manageSecret: string },
): Route[] {
  const kind = reservationKind(deps.messaging);
  return [
    ...publicReservationRoutes(deps),
    ...recordAdminRoutes(kind, deps.database, deps.wakeDispatcher),
    ...reservationEraseRoutes(deps.database, kind),
    ...archiveRoutes(kind, deps.database),
    ...exportRoutes(kind, deps.database, deps.catalog),
    ...manageRoutes({ ...deps, kind }),
  ];
}
