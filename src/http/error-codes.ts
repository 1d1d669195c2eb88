// Every error the service answers has a stable snake_case code, carried in the envelope (`code`) and
// in each per-item error of a bulk answer: programs branch on the code, people read the text. A
// published code never changes meaning; a new error gets a new line here. `status` is the HTTP
// status an answer with this code has; a code without one only ever names an item of a bulk answer.

export const ERROR_CODES = {
  // The request as HTTP, before any route reads it.
  bad_request: { status: 400, meaning: 'Malformed HTTP: an unparsable request, an invalid header or Host, two Host headers' },
  request_timeout: { status: 408, meaning: 'The request’s headers or body did not arrive in time' },
  headers_too_large: { status: 431, meaning: 'More than 16 KiB of request headers' },
  not_found: { status: 404, meaning: 'No route at this path, or no such file' },
  method_not_allowed: { status: 405, meaning: 'The path does not serve this method (see the Allow header)' },
  invalid_json_body: { status: 400, meaning: 'The body is not a JSON object' },
  payload_too_large: { status: 413, meaning: 'The body is larger than 64 KiB' },
  request_body_incomplete: { status: 400, meaning: 'The client hung up before its body arrived' },
  internal_error: { status: 500, meaning: 'An unexpected failure, logged under the request id' },

  // Who may ask.
  unauthorized: {
    status: 401,
    meaning: 'Neither the admin token nor a live session: missing, wrong, ended, expired, or its account disabled',
  },
  too_many_failed_authentications: { status: 429, meaning: 'Too many failed admin authentications from this client; see Retry-After' },
  origin_not_allowed: {
    status: 403,
    meaning: 'A browser’s post from a site that is not the shop’s, or a signed-in request from a page not the service’s own',
  },
  forbidden: {
    status: 403,
    meaning: 'A staff account asked for what only an owner may do, or the bearer token for what only an account has',
  },
  invalid_email_or_password: {
    status: 401,
    meaning: 'Sign-in refused: no such account, a wrong password, or a disabled account (one answer for all three)',
  },
  too_many_failed_sign_ins: { status: 429, meaning: 'Ten failed sign-ins to this address within 15 minutes; see Retry-After' },
  too_many_requests: { status: 429, meaning: 'Over the public forms’ per-client budget; see Retry-After' },
  invalid_idempotency_key: {
    status: 400,
    meaning: 'The Idempotency-Key header is not 1 to 255 visible ASCII characters, or is sent twice',
  },
  idempotency_key_reused: { status: 422, meaning: 'The Idempotency-Key was used with a different request' },

  // The request's fields.
  invalid_parameters: { status: 400, meaning: 'A field is missing or wrong; `details` names each field and why' },
  missing_required_fields: { status: 400, meaning: 'A required field is missing or empty' },
  invalid_status: { status: 400, meaning: 'A status that is not one of the kind’s' },
  invalid_channel: { status: 400, meaning: 'A message channel that is not email or chat' },
  invalid_input: { status: 400, meaning: 'A public form’s field is wrong (Japanese text); `details` names each field' },

  // The public forms.
  product_not_found: { status: 400, meaning: 'A public form names a product the catalog does not have' },
  preorder_upcoming: { status: 409, meaning: 'The product’s preorder campaign has not opened yet' },
  preorder_closed: { status: 409, meaning: 'The product’s preorder campaign has closed' },
  preorder_sold_out: { status: 409, meaning: 'The product’s preorder campaign has no seat left' },
  customer_limit_reached: { status: 409, meaning: 'The address holds as many reservations of the campaign as one customer may' },

  // Reservations and subscriptions.
  reservation_not_found: { status: 404, meaning: 'No reservation with this id (and product)' },
  subscription_not_found: { status: 404, meaning: 'No subscription with this id (and product)' },
  reservation_archived: { status: 409, meaning: 'The reservation is archived: unarchive it first' },
  subscription_archived: { status: 409, meaning: 'The subscription is archived: unarchive it first' },
  changed_by_someone_else: {
    status: 409,
    meaning: 'The record (or the shop settings) changed after the expectedUpdatedAt the request named; nothing was written',
  },
  invalid_status_transition: { status: 409, meaning: 'The status table does not allow this move' },
  preorder_full: { status: 409, meaning: 'Moving a cancelled reservation back needs a seat its campaign no longer has' },
  preorder_has_reservations: {
    status: 409,
    meaning: 'Deleting the campaign would lift the limits of reservations it holds; close it instead, or send force: true',
  },
  unsubscribed_by_customer: {
    status: 409,
    meaning: 'The customer unsubscribed (or no record says staff did): staff cannot subscribe the address again',
  },
  another_pending_subscription: { status: 409, meaning: 'The address already has an active pending subscription for the product' },
  reservation_not_pending: { status: 409, meaning: 'The customer’s cancel of a reservation that is no longer pending; nothing changed' },
  unknown_product: { status: 404, meaning: 'An admin request names a product the catalog does not have' },
  already_archived: { meaning: 'A bulk item: the record is archived already' },
  not_archived: { meaning: 'A bulk item: the record is not archived' },
  invalid_item: { meaning: 'A bulk item that is not what the list takes' },

  // Preorder campaigns, email templates and the message log.
  preorder_not_found: { status: 404, meaning: 'The product has no preorder campaign' },
  template_not_found: { status: 404, meaning: 'No email template of this kind' },
  version_not_found: { status: 404, meaning: 'The template has no such version' },
  invalid_template: { status: 400, meaning: 'A template’s subject, body or enabled flag is refused; `details` names each problem' },
  email_not_sent: { status: 502, meaning: 'The email provider refused the test email or did not answer' },
  message_not_found: { meaning: 'A bulk item: no message with this id' },
  message_not_dead: { meaning: 'A bulk item: the message is not dead, so there is nothing to retry' },
  message_superseded: {
    meaning: 'A bulk item: the message is no longer true of its record (superseded), so it is not sent again',
  },

  // The email provider's delivery events and the suppressed addresses.
  webhook_not_configured: { status: 404, meaning: 'EMAIL_WEBHOOK_SECRET is not set, so no delivery event is taken' },
  invalid_webhook_signature: {
    status: 401,
    meaning: 'A delivery event whose signature is missing or wrong, older or newer than 5 minutes, or replayed; nothing was stored',
  },
  suppression_not_found: { status: 404, meaning: 'No suppression in force for this address' },
  complaint_not_liftable: { status: 409, meaning: 'The address is suppressed for a complaint, which staff cannot lift' },

  // Staff accounts.
  staff_not_found: { status: 404, meaning: 'No staff account with this id' },
  staff_email_exists: { status: 409, meaning: 'Another staff account has this address (compared case-insensitively)' },
  owner_required: { status: 409, meaning: 'The change would leave no enabled owner account' },
  current_password_wrong: { status: 400, meaning: 'The current password given to change one’s own password is wrong' },
} as const satisfies Record<string, { status?: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes an answer can carry as a whole (those with a status), and the status each gives. */
export type AnswerCode = { [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { status: number } ? C : never }[ErrorCode];

export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export function statusOf(code: AnswerCode): (typeof ERROR_CODES)[AnswerCode]['status'] {
  return ERROR_CODES[code].status;
}
