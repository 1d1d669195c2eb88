import { ApiError, createTenpoClient } from '../../../client/tenpo-client.ts';
import { errorMessage, WRONG_TOKEN } from '../../api/errors.ts';
import { h, replace } from '../../ui/dom.ts';
import { noteSignedIn, storeToken, type SignedIn } from '../../shell/session.ts';

/**
 * The sign-in page: a staff account's address and password, and below it the admin token, for its
 * holder (scripts' owner, and the first setup before any account exists). Neither form has an
 * action and the page's policy forbids form submissions, so a password or the token can never end
 * up in a URL even if a script fails.
 */
export function renderLogin(root: HTMLElement, options: { message?: string; onSignedIn: (who: SignedIn) => void }): void {
  const status = h('p', { class: options.message ? 'notice error' : 'notice', role: 'alert', hidden: !options.message }, options.message);

  function show(message: string): void {
    status.textContent = message;
    status.className = 'notice error';
    status.hidden = false;
  }

  /** Runs a sign-in with its button showing it is busy; a refusal is said and the button given back. */
  async function attempt(button: HTMLButtonElement, run: () => Promise<void>, refused: (error: unknown) => string): Promise<void> {
    const label = button.textContent;
    button.disabled = true;
    button.textContent = '確認中…';
    try {
      await run();
    } catch (error) {
      show(refused(error));
      button.disabled = false;
      button.textContent = label;
    }
  }

  const email = h('input', { type: 'email', id: 'sign-in-email', autocomplete: 'username', spellcheck: 'false', required: true });
  const password = h('input', { type: 'password', id: 'sign-in-password', autocomplete: 'current-password', required: true });
  const signIn = h('button', { type: 'submit', class: 'primary' }, 'ログイン');
  const accountForm = h(
    'form',
    {
      class: 'login',
      id: 'account-sign-in',
      novalidate: true,
      onSubmit: (event) => {
        event.preventDefault();
        if (email.value.trim() === '' || password.value === '') return show('メールアドレスとパスワードを入力してください。');
        void attempt(
          signIn,
          async () => {
            const { staff } = await createTenpoClient().call('/api/admin/session', { email: email.value.trim(), password: password.value });
            noteSignedIn();
            options.onSignedIn({ kind: 'account', staff });
          },
          (error) => (password.select(), errorMessage(error)),
        );
      },
    },
    h('label', { for: 'sign-in-email' }, 'メールアドレス'),
    email,
    h('label', { for: 'sign-in-password' }, 'パスワード'),
    password,
    signIn,
  );

  const token = h('input', { type: 'password', id: 'token', autocomplete: 'off', spellcheck: 'false', required: true });
  const tokenButton = h('button', { type: 'submit' }, 'トークンでログイン');
  const tokenForm = h(
    'form',
    {
      class: 'login token-sign-in',
      id: 'token-sign-in',
      novalidate: true,
      onSubmit: (event) => {
        event.preventDefault();
        const value = token.value.trim();
        if (value === '') return show('管理トークンを入力してください。');
        void attempt(
          tokenButton,
          async () => {
            // Only a token the service accepts is kept.
            await createTenpoClient({ token: () => value }).call('/api/admin/reservations/archives/list', { pageSize: 1 });
            storeToken(value);
            options.onSignedIn({ kind: 'token' });
          },
          (error) => (token.select(), error instanceof ApiError && error.status === 401 ? WRONG_TOKEN : errorMessage(error)),
        );
      },
    },
    h('label', { for: 'token' }, '管理トークン'),
    h(
      'p',
      { class: 'hint' },
      'スクリプト用のトークンの持ち主と、最初の設定（最初のオーナーの作成）のために。このタブを閉じると消去されます。',
    ),
    token,
    tokenButton,
  );

  replace(
    root,
    h('main', { class: 'login-page' }, h('div', { class: 'login-card' }, h('h1', {}, 'tenpo 管理画面'), status, accountForm, tokenForm)),
  );
  email.focus();
}
