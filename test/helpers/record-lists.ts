/** The four lists staff page, sort and filter: reservations and subscriptions, active and archived. */
export const RECORD_LISTS = [
  '/api/admin-reservations-list',
  '/api/admin/reservations/archives/list',
  '/api/admin-notify-list',
  '/api/admin/notify/archives/list',
] as const;
