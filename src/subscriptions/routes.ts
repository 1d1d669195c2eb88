import type { Route } from '../http/route.ts';
import { recordAdminRoutes } from '../records/admin-routes.ts';
import { archiveRoutes } from '../records/archive-routes.ts';
import { exportRoutes } from '../records/export-routes.ts';
import { restockSendRoutes } from './admin-routes.ts';
import { publicSubscriptionRoutes, type PublicSubscriptionDeps } from './public-routes.ts';
import { subscriptionKind } from './record-kind.ts';
import type { RestockSendDeps } from './restock-send.ts';

/** Every restock-subscription endpoint: signup and unsubscribe, the admin workflow, the send and the archive. */
export function subscriptionRoutes(deps: PublicSubscriptionDeps & RestockSendDeps): Route[] {
  return [
    ...publicSubscriptionRoutes(deps),
    ...recordAdminRoutes(subscriptionKind, deps.database),
    ...restockSendRoutes(deps),
    ...archiveRoutes(subscriptionKind, deps.database),
    ...exportRoutes(subscriptionKind, deps.database, deps.catalog),
  ];
}
