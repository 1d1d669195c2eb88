import { createTenpoClient } from '../client/tenpo-client.ts';
import { renderLogin } from './screens/login/login.ts';
import { forgetToken, storedToken } from './shell/session.ts';
import { h, replace } from './ui/dom.ts';

// The console's entry: the sign-in form until the tab holds an accepted token, then the shell and
// its screens, loaded only then (the sign-in form is all a first visit downloads).

const root = document.getElementById('app')!;
const api = createTenpoClient({ token: storedToken });
let closeShell: (() => void) | undefined;

function showLogin(message?: string): void {
  closeShell?.();
  closeShell = undefined;
  forgetToken();
  renderLogin(root, { message, onSignedIn: () => void showConsole() });
}

async function showConsole(): Promise<void> {
  try {
    const { renderShell } = await import('./shell/shell.ts');
    closeShell = renderShell(root, { api, onSignOut: showLogin });
  } catch {
    replace(
      root,
      h(
        'main',
        { class: 'login-page' },
        h('p', { class: 'notice error', role: 'alert' }, '管理画面を読み込めませんでした。ページを再読み込みしてください。'),
        h('button', { type: 'button', onClick: () => location.reload() }, '再読み込み'),
      ),
    );
  }
}

if (storedToken()) void showConsole();
else showLogin();
