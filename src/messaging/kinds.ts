// The five customer emails the shop controls, in the table's order: their placeholders, whether
// staff may turn them off, and which status move sends which. The console's browser code reads this
// file too, so it imports nothing (their default texts are templates/defaults.ts).

export const TEMPLATE_KINDS = [
  'reservation-received',
  'reservation-confirmed',
  'reservation-fulfilled',
  'reservation-cancelled',
  'restock-available',
] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** The kinds sent about a reservation (status emails and the first one). */
export type ReservationTemplateKind = Exclude<TemplateKind, 'restock-available'>;

export interface Placeholder {
  name: string;
  required: boolean;
}

/** The placeholders whose values are links: in the HTML part they become `<a>` elements. */
export const URL_PLACEHOLDERS: ReadonlySet<string> = new Set(['productUrl', 'manageUrl', 'unsubscribeUrl']);

/**
 * The placeholders whose values may run over several lines: the shop's own words (its name and
 * contact, a campaign's note), never a customer's, which are kept on one line wherever they go.
 */
export const MULTILINE_PLACEHOLDERS: ReadonlySet<string> = new Set(['shopSignature', 'preorderNote']);

const RESERVATION_PLACEHOLDERS: Placeholder[] = [
  { name: 'name', required: false },
  { name: 'productName', required: false },
  { name: 'productUrl', required: false },
  { name: 'price', required: false },
  { name: 'reservationId', required: false },
  // What the customer quotes: 1001, 1002, …
  { name: 'reservationNumber', required: false },
  { name: 'reservedAt', required: false },
  { name: 'manageUrl', required: true },
  // The preorder campaign's (when it ships, the shop's note); '' for a reservation without one.
  { name: 'shipsIn', required: false },
  { name: 'preorderNote', required: false },
  // The shop's name, address, phone, contact address and hours, one per line, the unset ones left out.
  { name: 'shopSignature', required: false },
];

const RESTOCK_PLACEHOLDERS: Placeholder[] = [
  { name: 'productName', required: false },
  { name: 'productUrl', required: false },
  { name: 'price', required: false },
  { name: 'unsubscribeUrl', required: true },
  // Required: an advertising email must say who sends it, where they are and how to reach them.
  { name: 'shopSignature', required: true },
];

export interface KindRules {
  placeholders: Placeholder[];
  /** Whether staff may turn the email off (the receipt and the restock notice are always sent). */
  mayDisable: boolean;
}

export const KIND_RULES: Record<TemplateKind, KindRules> = {
  'reservation-received': { placeholders: RESERVATION_PLACEHOLDERS, mayDisable: false },
  'reservation-confirmed': { placeholders: RESERVATION_PLACEHOLDERS, mayDisable: true },
  'reservation-fulfilled': { placeholders: RESERVATION_PLACEHOLDERS, mayDisable: true },
  'reservation-cancelled': { placeholders: RESERVATION_PLACEHOLDERS, mayDisable: true },
  'restock-available': { placeholders: RESTOCK_PLACEHOLDERS, mayDisable: false },
};

/** The email a reservation's move to each status sends; a move back to pending sends none. */
const EMAIL_OF_STATUS: Readonly<Record<string, ReservationTemplateKind>> = {
  confirmed: 'reservation-confirmed',
  fulfilled: 'reservation-fulfilled',
  cancelled: 'reservation-cancelled',
};

/** The kind of email a move to `status` sends, if any. */
export function statusEmailKind(status: string): ReservationTemplateKind | undefined {
  return Object.hasOwn(EMAIL_OF_STATUS, status) ? EMAIL_OF_STATUS[status] : undefined;
}

/** The status an email about a reservation's move announces; undefined for the first one (`reservation-received`). */
export function statusAnnouncedBy(kind: ReservationTemplateKind): string | undefined {
  return Object.keys(EMAIL_OF_STATUS).find((status) => EMAIL_OF_STATUS[status] === kind);
}

export function isTemplateKind(kind: string): kind is TemplateKind {
  return (TEMPLATE_KINDS as readonly string[]).includes(kind);
}

export interface TemplateText {
  subject: string;
  body: string;
}
