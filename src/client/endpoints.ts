import type { Endpoints } from './api-types.ts';

// How each endpoint is called. The client's only run-time data: the types are in api-types.ts.

export type Method = 'GET' | 'POST';

/**
 * How each endpoint is called (`idempotent`: it takes an Idempotency-Key); tests check this against
 * the routes the service mounts.
 */
export const ENDPOINTS = {
  '/healthz': { method: 'GET', admin: false },
  '/livez': { method: 'GET', admin: false },
  '/readyz': { method: 'GET', admin: false },
  '/openapi.json': { method: 'GET', admin: false },
  '/api/products': { method: 'GET', admin: false },
  '/api/search': { method: 'GET', admin: false },
  '/api/search-index': { method: 'GET', admin: false },
  '/api/search/suggest': { method: 'GET', admin: false },
  '/api/keyword-logs': { method: 'GET', admin: false },
  '/api/reservation': { method: 'POST', admin: false, idempotent: true },
  '/api/admin-reservations-list': { method: 'POST', admin: true },
  '/api/admin-reservations-status': { method: 'POST', admin: true },
  '/api/admin/reservations/bulk-status': { method: 'POST', admin: true },
  '/api/admin-reservations-delete': { method: 'POST', admin: true },
  '/api/admin/reservations/get': { method: 'POST', admin: true },
  '/api/admin/reservations/archive': { method: 'POST', admin: true },
  '/api/admin/reservations/unarchive': { method: 'POST', admin: true },
  '/api/admin/reservations/archives/list': { method: 'POST', admin: true },
  '/api/notify': { method: 'POST', admin: false, idempotent: true },
  '/api/admin-notify-list': { method: 'POST', admin: true },
  '/api/admin-notify-status': { method: 'POST', admin: true },
  '/api/admin/notify/bulk-status': { method: 'POST', admin: true },
  '/api/admin/notify/send': { method: 'POST', admin: true },
  '/api/admin/notify/get': { method: 'POST', admin: true },
  '/api/admin/notify/archive': { method: 'POST', admin: true },
  '/api/admin/notify/unarchive': { method: 'POST', admin: true },
  '/api/admin/notify/archives/list': { method: 'POST', admin: true },
  '/api/admin-dashboard-stats': { method: 'POST', admin: true },
  '/api/preorders': { method: 'GET', admin: false },
  '/api/admin/preorders/list': { method: 'POST', admin: true },
  '/api/admin/preorders/upsert': { method: 'POST', admin: true },
  '/api/admin/preorders/delete': { method: 'POST', admin: true },
  '/api/admin/email-templates/list': { method: 'POST', admin: true },
  '/api/admin/email-templates/update': { method: 'POST', admin: true },
  '/api/admin/email-templates/preview': { method: 'POST', admin: true },
  '/api/admin/email-templates/versions': { method: 'POST', admin: true },
  '/api/admin/email-templates/revert': { method: 'POST', admin: true },
  '/api/admin/email-templates/test-send': { method: 'POST', admin: true },
  '/api/admin/messages/list': { method: 'POST', admin: true },
  '/api/admin/messages/retry': { method: 'POST', admin: true },
  '/api/webhooks/email': { method: 'POST', admin: false },
  '/api/admin/email-suppressions/list': { method: 'POST', admin: true },
  '/api/admin/email-suppressions/lift': { method: 'POST', admin: true },
  '/api/admin/personal-data/export': { method: 'POST', admin: true },
  '/api/admin/personal-data/erase': { method: 'POST', admin: true },
  '/api/admin/shop/get': { method: 'POST', admin: true },
  '/api/admin/shop/update': { method: 'POST', admin: true },
  '/api/admin/session': { method: 'POST', admin: false },
  '/api/admin/session/get': { method: 'POST', admin: true },
  '/api/admin/session/end': { method: 'POST', admin: true },
  '/api/admin/staff/list': { method: 'POST', admin: true },
  '/api/admin/staff/create': { method: 'POST', admin: true },
  '/api/admin/staff/update': { method: 'POST', admin: true },
  '/api/admin/staff/password': { method: 'POST', admin: true },
} as const satisfies { [P in keyof Endpoints]: { method: Method; admin: boolean; idempotent?: true } };

export type EndpointPath = keyof Endpoints;
