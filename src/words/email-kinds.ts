import type { TemplateKind } from '../messaging/kinds.ts';
import { labelOf, WEBHOOK_LABELS } from './labels.ts';

/** Staff's names for the customer emails, wherever a kind is shown: its tab, a record's history, the message log. */
export const TEMPLATE_KIND_LABELS: Record<TemplateKind, string> = {
  'reservation-received': '予約受付',
  'reservation-confirmed': '予約確定',
  'reservation-fulfilled': 'お渡し完了',
  'reservation-cancelled': 'キャンセル',
  'restock-available': '再入荷のお知らせ',
};

/** A message's kind in staff's words: the email's name, or the kind itself for one the console does not know. */
export function emailKindLabel(kind: string): string {
  return Object.hasOwn(TEMPLATE_KIND_LABELS, kind) ? TEMPLATE_KIND_LABELS[kind as TemplateKind] : kind;
}

/** A message's kind in staff's words, whatever its channel: the email's name, or the chat webhook's. */
export function messageKindLabel(message: { channel: string; kind: string }): string {
  return message.channel === 'email' ? emailKindLabel(message.kind) : labelOf(WEBHOOK_LABELS, message.kind);
}
