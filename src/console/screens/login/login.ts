import { ApiError, createTenpoClient } from '../../../client/tenpo-client.ts';
import { errorMessage, WRONG_TOKEN } from '../../api/errors.ts';
import { h, replace } from '../../ui/dom.ts';
import { storeToken } from '../../shell/session.ts';

/**
 * The sign-in form. The token is checked with a cheap admin call before it is kept. The form has
 * no action and its field no name, and the page's policy forbids form submissions, so the token can
 * never end up in a URL even if a script fails.
 */
export function renderLogin(root: HTMLElement, options: { message?: string; onSignedIn: () => void }): void {
  const input = h('input', { type: 'password', id: 'token', autocomplete: 'off', spellcheck: 'false', required: true });
  const status = h('p', { class: options.message ? 'notice error' : 'notice', role: 'alert', hidden: !options.message }, options.message);
  const button = h('button', { type: 'submit', class: 'primary' }, 'ログイン');

  const form = h(
    'form',
    {
      class: 'login',
      novalidate: true,
      onSubmit: async (event) => {
        event.preventDefault();
        const token = input.value.trim();
        if (token === '') return show('管理トークンを入力してください。');
        button.disabled = true;
        button.textContent = '確認中…';
        try {
          // Only a token the service accepts is kept.
          await createTenpoClient({ token: () => token }).call('/api/admin/reservations/archives/list', { pageSize: 1 });
          storeToken(token);
          options.onSignedIn();
        } catch (error) {
          show(error instanceof ApiError && error.status === 401 ? WRONG_TOKEN : errorMessage(error));
          button.disabled = false;
          button.textContent = 'ログイン';
          input.select();
        }
      },
    },
    h('h1', {}, 'tenpo 管理画面'),
    h('label', { for: 'token' }, '管理トークン'),
    input,
    h('p', { class: 'hint' }, 'トークンはこのタブを閉じると消去されます。'),
    status,
    button,
  );

  function show(message: string): void {
    status.textContent = message;
    status.className = 'notice error';
    status.hidden = false;
  }

  replace(root, h('main', { class: 'login-page' }, form));
  input.focus();
}
