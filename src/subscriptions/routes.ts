import { archiveRoutes } from '../records/archive-routes.ts';
import type { Route } from '../http/route.ts';
import { adminSubscriptionRoutes } from './admin-routes.ts';
import { subscriptionArchive } from './archive-kind.ts';
import { publicSubscriptionRoutes, type PublicSubscriptionDeps } from './public-routes.ts';
import type { RestockSendDeps } from './restock-send.ts';

/** Every restock-subscription endpoint: signup and unsubscribe, the admin workflow, the send and the archive. */
export function subscriptionRoutes(deps: PublicSubscriptionDeps & RestockSendDeps): Route[] {
  return [...publicSubscriptionRoutes(deps), ...adminSubscriptionRoutes(deps), ...archiveRoutes(subscriptionArchive, deps.database)];
}
