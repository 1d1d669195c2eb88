import type { Screen, ScreenContext } from '../../screen.ts';
import { h, replace } from '../../ui/dom.ts';
import { newPasswordField, PASSWORD_HINT } from '../../ui/password-field.ts';
import { editedSince } from '../../ui/unsaved.ts';

/**
 * パスワード変更 (reached from one's name in the header): the signed-in account's own password. The
 * current one is asked first; the account's other sessions (other browsers) end, this one stays.
 */
export function openScreen(context: ScreenContext): Screen {
  return {
    show(container) {
      if (context.who.kind !== 'account') return;
      const { staff } = context.who;
      const current = h('input', { type: 'password', id: 'current-password', autocomplete: 'current-password', required: true });
      const next = newPasswordField('next-password', '新しいパスワード', 'hidden');
      const again = newPasswordField('next-password-again', '新しいパスワード（確認）', 'hidden');
      const button = h('button', { type: 'submit', class: 'primary' }, '変更する');
      context.unsaved.hold('password', { what: 'パスワードの変更', isDirty: editedSince([current, next.input, again.input]) });
      const form = h(
        'form',
        {
          class: 'password-change',
          novalidate: true,
          onSubmit: async (event: Event) => {
            event.preventDefault();
            if (next.input.value !== again.input.value) return context.announce('新しいパスワードが確認の入力と一致しません。', 'error');
            button.disabled = true;
            try {
              await context.api.call('/api/admin/staff/password', { current: current.value, next: next.input.value });
              form.reset();
              context.unsaved.changed();
              context.announce('パスワードを変更しました。ほかのブラウザでのログインは終了しました。', 'success');
            } catch (error) {
              context.fail(error);
            } finally {
              button.disabled = false;
            }
          },
        },
        h('p', {}, `${staff.name}（${staff.email}）`),
        h('label', { for: 'current-password' }, '現在のパスワード'),
        current,
        next.label,
        next.input,
        again.label,
        again.input,
        h('p', { class: 'hint' }, PASSWORD_HINT),
        h('div', { class: 'actions' }, button),
      );
      replace(container, h('div', { class: 'view-head' }, h('h1', {}, 'パスワード変更')), form);
    },
  };
}
