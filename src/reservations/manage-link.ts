import { unsubscribeToken, verifyUnsubscribeToken } from '../subscriptions/unsubscribe-token.ts';

/** Where the customer's own reservation page is (SPEC §6.4). */
export const MANAGE_PATH = '/reservations/manage';

// The page's link is signed like an unsubscribe link: `<id>.<HMAC of the id>` under the same secret.
// Reservation ids (`res_…`) and subscription ids (`ntf_…`) never coincide, so one link cannot open the other.

export function manageUrl(publicBaseUrl: string, secret: string, reservationId: string): string {
  return `${publicBaseUrl}${MANAGE_PATH}?token=${encodeURIComponent(unsubscribeToken(secret, reservationId))}`;
}

/** The reservation id a page token was made for, or undefined. */
export function verifyManageToken(secret: string, token: string): string | undefined {
  const id = verifyUnsubscribeToken(secret, token);
  return id?.startsWith('res_') ? id : undefined;
}
