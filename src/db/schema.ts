import type { Generated } from 'kysely';

/**
 * The tables, as Kysely sees them. Timestamps are ISO 8601 strings from `Date.toISOString()` in both
 * dialects: they sort correctly as text, compare without time-zone surprises, and come back exactly as
 * the API returns them. "Archived" is `archived_at IS NOT NULL`; there is no separate flag to disagree with it.
 */
export interface Tables {
  reservations: ReservationRow;
  subscriptions: SubscriptionRow;
  keyword_logs: KeywordLogRow;
  keyword_log_hours: KeywordLogHourRow;
  keyword_hours: KeywordHourRow;
  keyword_clients: KeywordClientRow;
  keyword_suggestions: KeywordSuggestionRow;
  outbox: OutboxRow;
  preorders: PreorderRow;
  preorder_customers: PreorderCustomerRow;
  email_template_versions: EmailTemplateVersionRow;
  idempotency_keys: IdempotencyKeyRow;
  record_history: RecordHistoryRow;
  shop_settings: ShopSettingsRow;
  staff: StaffRow;
  staff_sessions: StaffSessionRow;
  email_events: EmailEventRow;
  email_suppressions: EmailSuppressionRow;
}

export interface ReservationRow {
  id: string;
  name: string;
  email: string;
  product_slug: string;
  status: string;
  notes: Generated<string>;
  created_at: string;
  responded_at: string | null;
  archived_at: string | null;
  /** The last change: status, notes or archive flag (migration 005): what `expectedUpdatedAt` is compared with. */
  updated_at: string;
  /** The preorder campaign it was taken under (migration 006); null when its product had none. */
  preorder_id: string | null;
  /** What customers quote: 1001, 1002, … given by the database as the row is inserted (migration 021). */
  number: Generated<number>;
  /** The name as the lists' search compares it (src/text/normalize.ts foldForMatching; migration 021). */
  name_fold: string;
}

export interface SubscriptionRow {
  id: string;
  email: string;
  product_slug: string;
  status: string;
  created_at: string;
  notified_at: string | null;
  archived_at: string | null;
  /** The last change: status or archive flag (migration 005): what `expectedUpdatedAt` is compared with. */
  updated_at: string;
}

export interface KeywordLogRow {
  keyword: string;
  timestamp: string;
  result_count: number;
}

/** How many keyword_logs rows fall in each hour (`2026-03-01T14`), kept with them (migration 003). */
export interface KeywordLogHourRow {
  hour: string;
  entries: number;
}

/** Searches for one keyword in one hour (`hour` as in keyword_log_hours). */
export interface KeywordHourRow {
  hour: string;
  keyword: string;
  searches: number;
  zero_result_searches: number;
}

/** A client that searched a keyword that may be suggested, with results (migration 013). */
export interface KeywordClientRow {
  keyword: string;
  /** The client's address as a keyed hash (HMAC-SHA256, cut to 128 bits). */
  client: string;
  last_searched_at: string;
}

/** A keyword that may be suggested: how many clients of keyword_clients searched it, and how often. */
export interface KeywordSuggestionRow {
  keyword: string;
  clients: number;
  searches: number;
  last_searched_at: string;
}

/** The values of the outbox's `status` and `channel` columns (OutboxRow says what each means). */
export const MESSAGE_STATUSES = ['pending', 'sent', 'skipped', 'dead', 'superseded'] as const;
export const MESSAGE_CHANNELS = ['email', 'chat'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** One message to deliver (an email, a chat post), written in the same transaction as its cause. */
export interface OutboxRow {
  id: string;
  /** 'email' or 'chat' */
  channel: string;
  /** Who receives it: an email address, or the name of a configured webhook ('reservation', 'restock', 'public'). */
  destination: string;
  /** The rendered message as JSON. */
  payload: string;
  /** Sent with the delivery (the email API's Idempotency-Key), unique per message. */
  idempotency_key: string;
  /**
   * 'pending', 'sent', 'skipped' (its channel is not configured), 'dead' (given up after the last
   * attempt) or 'superseded' (no longer true of its record when it was due, so not sent; migration 014)
   */
  status: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  /** While set and in the future, one dispatcher holds the message. */
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** The record the message is about (migration 002), erased with it. */
  record_id: string | null;
  /**
   * When it was given up (`dead`; migration 008) or found superseded (migration 014), which its
   * retention counts from; null otherwise.
   */
  died_at: string | null;
  /** The id the provider gave the email when it took it (the email API's `id`, SMTP's Message-ID; migration 024), which its events name. */
  provider_message_id: string | null;
}

/** What the provider said happened to a sent email, or an SMTP server's refusal of its recipient (migration 024). */
export interface EmailEventRow {
  id: string;
  /** The signed event's own id (`svix-id`), unique; null for an event the service found itself. */
  webhook_id: string | null;
  /** The signed event's `svix-timestamp` (seconds), with which a replay of the same delivery is told from a retry. */
  webhook_timestamp: string | null;
  outbox_id: string;
  /** The recipient's canonical address (src/text/canonical-address.ts). */
  address: string;
  /** 'delivered', 'delayed', 'soft_bounce', 'hard_bounce' or 'complaint' */
  kind: string;
  occurred_at: string;
  recorded_at: string;
  /** The provider's words (a bounce's message), cut short. */
  detail: string | null;
}

/** An address the shop does not mail (migration 024). */
export interface EmailSuppressionRow {
  /** The canonical address, or `erased:` and its keyed hash once its customer was erased. */
  address: string;
  /** 'hard_bounce', 'complaint' or 'soft_bounces' */
  reason: string;
  since: string;
  /** When a message the customer's own action caused was let through once, a hard bounce being older than 30 days. */
  retried_at: string | null;
  lifted_at: string | null;
  /** The staff account that lifted it; null for the bearer token. */
  lifted_by: string | null;
  lift_reason: string | null;
}

/** A product's preorder campaign (migration 006); times are ISO strings, null for no bound or no limit. */
export interface PreorderRow {
  id: string;
  product_slug: string;
  opens_at: string | null;
  closes_at: string | null;
  capacity: number | null;
  per_customer_limit: number | null;
  ships_in: string | null;
  note: string | null;
  /** Its reservations that are not cancelled, kept with every change to them. */
  reserved: number;
  created_at: string;
  updated_at: string;
}

/** How many of a campaign's reservations that are not cancelled an address holds. */
export interface PreorderCustomerRow {
  preorder_id: string;
  /** The address in its canonical form (src/text/canonical-address.ts; migration 018). */
  email: string;
  reserved: number;
}

/** One saved version of a customer email's template (migration 007); rows are only ever added. */
export interface EmailTemplateVersionRow {
  /** One of the kinds of src/messaging/kinds.ts. */
  kind: string;
  /** 1, 2, 3… per kind, without gaps; the highest is the current template. */
  version: number;
  subject: string;
  body: string;
  /** 1 or 0 (an integer on both dialects). */
  enabled: number;
  created_at: string;
}

/** A public form's Idempotency-Key and the answer it was first given (migration 009). */
export interface IdempotencyKeyRow {
  /** The client's address (client-address.ts): keys are per client. */
  client: string;
  key: string;
  /** SHA-256 of the request as validated (src/idempotency/claim.ts): no name or address in plain text. */
  fingerprint: string;
  /** The id the first answer named, written with the claim (the column allows null; nothing writes one). */
  record_id: string;
  created_at: string;
  expires_at: string;
}

/**
 * One change of a reservation or subscription (migration 010), written in the change's transaction.
 * `action` 'change' is a status request (a move, a memo edit, or both: the status columns are set,
 * the notes ones only when the memo changed); 'archive' and 'unarchive' carry no more; 'retry' is
 * staff sending one of its given-up messages again (`message_id`, migration 015).
 */
export interface RecordHistoryRow {
  /** A UUID v7 (time-ordered). */
  id: string;
  record_id: string;
  at: string;
  /** 'staff' (the admin API and console), or 'customer' (their own page or unsubscribe link). */
  actor: string;
  action: string;
  from_status: string | null;
  to_status: string | null;
  /** 1 when the move queued the customer's email, 0 when it did not; null when the kind emails nothing. */
  customer_emailed: number | null;
  notes_before: string | null;
  notes_after: string | null;
  /** The message a 'retry' sent again; null on every other row. */
  message_id: string | null;
  /** The staff account that made the change (migration 020); null for the customer and for the bearer token. */
  staff_id: string | null;
}

/** The shop's own name and contact (migration 016): one row, id 1; '' for a field never set. */
export interface ShopSettingsRow {
  id: number;
  name: string;
  contact_email: string;
  phone: string;
  /** Lines separated by \n. */
  address: string;
  hours: string;
  /** The last save; null until the first. */
  updated_at: string | null;
}

/** A staff account (migration 019). Never deleted: disabled instead. */
export interface StaffRow {
  /** `stf_` and a UUID v7. */
  id: string;
  /** As typed (trimmed); one account per address, compared by lower(email). */
  email: string;
  name: string;
  /** 'owner' or 'staff'. */
  role: string;
  /** 1 or 0 (an integer on both dialects). */
  disabled: number;
  /** `$scrypt$ln=…,r=…,p=…$<salt>$<hash>` (src/staff/password.ts); never answered, never logged. */
  password_hash: string;
  created_at: string;
  last_sign_in_at: string | null;
}

/** A signed-in session (migration 019): it ends 12 hours after its last request, 7 days after it began at most. */
export interface StaffSessionRow {
  /** SHA-256 (hex) of the cookie's token. */
  id: string;
  staff_id: string;
  created_at: string;
  /** The last request's time, written at most once a minute. */
  last_seen_at: string;
}
