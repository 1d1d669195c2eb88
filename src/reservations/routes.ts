import type { Database } from '../db/database.ts';
import type { Messaging } from '../messaging/messaging.ts';
import type { Route } from '../http/route.ts';
import { reservationAdminRoutes } from './admin-routes.ts';
import { reservationArchiveRoutes } from './archive-routes.ts';
import { manageRoutes } from './manage-routes.ts';
import { publicReservationRoutes, type PublicReservationDeps } from './public-routes.ts';

/** Every reservation endpoint: the public form, the admin workflow, the archive and the customer's own page. */
export function reservationRoutes(
  deps: PublicReservationDeps & { database: Database; messaging: Messaging; manageSecret: string },
): Route[] {
  return [...publicReservationRoutes(deps), ...reservationAdminRoutes(deps), ...reservationArchiveRoutes(deps), ...manageRoutes(deps)];
}
