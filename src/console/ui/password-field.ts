import { h } from './dom.ts';

// A field for a new password: an account's first one or a reset, shown as typed since an owner makes
// it up to hand over; or one's own, hidden. The browser's autofill offers none of its saved ones.

/** What the service takes (the account's address is refused too, and said so by the service). */
export const PASSWORD_HINT = '12〜200文字。メールアドレスと同じものは使えません。';

export function newPasswordField(
  id: string,
  label: string,
  shown: 'shown' | 'hidden' = 'shown',
): { label: HTMLLabelElement; input: HTMLInputElement } {
  return {
    label: h('label', { for: id }, label),
    input: h('input', {
      type: shown === 'shown' ? 'text' : 'password',
      id,
      class: 'new-password',
      autocomplete: 'new-password',
      spellcheck: 'false',
      minlength: 12,
      maxlength: 200,
      required: true,
    }),
  };
}
