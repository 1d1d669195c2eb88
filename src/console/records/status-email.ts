import { statusEmailKind } from '../../messaging/kinds.ts';
import { h } from '../ui/dom.ts';
import { TEMPLATE_KIND_LABELS } from '../../words/email-kinds.ts';
import type { ScreenContext } from '../screen.ts';

/** The customer email a move to a status would send: which one, and whether the shop has it turned on. */
export interface StatusEmail {
  label: string;
  enabled: boolean;
}

/**
 * The email a reservation's move to `status` sends (to confirmed, fulfilled or cancelled), read
 * from the templates as they are now, so the confirmation tells staff what will really happen.
 */
export async function reservationStatusEmail(context: ScreenContext, status: string): Promise<StatusEmail | undefined> {
  const kind = statusEmailKind(status);
  if (!kind) return undefined;
  const { templates } = await context.api.call('/api/admin/email-templates/list', {});
  return { label: TEMPLATE_KIND_LABELS[kind], enabled: templates.find((t) => t.kind === kind)?.enabled ?? true };
}

/**
 * The part of a move's confirmation about the customer's email: a switch, on by default, when the
 * email would go; a sentence saying none will when the shop has turned it off. `notify()` is what to
 * send as notifyCustomer: never true for an email staff were told is off, even if a colleague turns
 * it on meanwhile.
 */
export function emailChoice(email: StatusEmail, whom: string): { element: HTMLElement; notify(): boolean } {
  if (!email.enabled) {
    return {
      element: h(
        'span',
        { class: 'email-choice off' },
        `「${email.label}」のメールは送信しない設定のため、${whom}にメールは送信されません（メールテンプレート画面で変更できます）。`,
      ),
      notify: () => false,
    };
  }
  const box = h('input', { type: 'checkbox', id: 'notify-customer', checked: true });
  return {
    element: h(
      'label',
      { class: 'email-choice', for: 'notify-customer' },
      box,
      h('span', {}, `${whom}に「${email.label}」のメールを送信する`),
    ),
    notify: () => box.checked,
  };
}

/** What the notice after a move says about the email. */
export function emailOutcome(email: StatusEmail | undefined, notified: boolean): string {
  if (!email) return '';
  return notified ? `「${email.label}」のメールを送信します。` : 'お客様へのメールは送信していません。';
}
