import { statusEmailKind } from '../../messaging/kinds.ts';
import { h } from '../ui/dom.ts';
import { formatCount } from '../ui/format.ts';
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

/** A move that would email more customers than this at once asks for the number of emails to be typed. */
export const TYPED_EMAILS_ABOVE = 20;

/**
 * The part of a bulk move's confirmation for many emails: how many will go, stated, and a field
 * where staff type that number (as they type it: full-width digits and thousands separators too).
 * `shown` hides it while the email is switched off; `matches` says whether the number typed is it.
 */
export function typedEmailCount(
  count: number,
  email: StatusEmail,
): { element: HTMLElement; show(shown: boolean): void; matches(): boolean } {
  const typed = h('input', { type: 'text', id: 'typed-email-count', inputmode: 'numeric', autocomplete: 'off', maxlength: 20 });
  const element = h(
    'span',
    { class: 'typed-count' },
    h(
      'span',
      { class: 'warning' },
      'お客様に「',
      email.label,
      '」のメールが ',
      h('strong', {}, `${formatCount(count)} 通`),
      ' 送信されます。',
    ),
    h('label', { for: 'typed-email-count' }, `確認のため、送信するメールの件数（${formatCount(count)}）を入力してください`),
    typed,
  );
  return {
    element,
    show: (shown) => void (element.hidden = !shown),
    matches: () => typed.value.normalize('NFKC').replace(/[,\s]/g, '') === String(count),
  };
}
