import { archiveRoutes } from '../records/archive-routes.ts';
import type { Database } from '../db/database.ts';
import type { Route } from '../http/route.ts';
import { adminReservationRoutes } from './admin-routes.ts';
import { reservationArchive } from './archive-kind.ts';
import { publicReservationRoutes, type PublicReservationDeps } from './public-routes.ts';

/** Every reservation endpoint: the public form, the admin workflow and the archive. */
export function reservationRoutes(deps: PublicReservationDeps & { database: Database }): Route[] {
  return [...publicReservationRoutes(deps), ...adminReservationRoutes(deps.database), ...archiveRoutes(reservationArchive, deps.database)];
}
