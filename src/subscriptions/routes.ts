import type { Route } from '../http/route.ts';
import { subscriptionAdminRoutes } from './admin-routes.ts';
import { subscriptionArchiveRoutes } from './archive-routes.ts';
import { publicSubscriptionRoutes, type PublicSubscriptionDeps } from './public-routes.ts';
import type { RestockSendDeps } from './restock-send.ts';

/** Every restock-subscription endpoint: signup and unsubscribe, the admin workflow, the send and the archive. */
export function subscriptionRoutes(deps: PublicSubscriptionDeps & RestockSendDeps): Route[] {
  return [...publicSubscriptionRoutes(deps), ...subscriptionAdminRoutes(deps), ...subscriptionArchiveRoutes(deps)];
}
