import { ApiError, createTenpoClient } from '../client/tenpo-client.ts';
import { errorMessage, SESSION_ENDED, SIGNED_OUT_ELSEWHERE, TOKEN_REJECTED } from './api/errors.ts';
import { renderLogin } from './screens/login/login.ts';
import { forgetToken, mayHaveSession, noteSignedOut, onOtherTabs, storedToken, type SignedIn } from './shell/session.ts';
import { h, replace } from './ui/dom.ts';

// The console's entry: the sign-in form until the tab is signed in (a staff account's session, kept
// by the browser for every tab, or the admin token, kept by this tab), then the shell and its
// screens, loaded only then (the sign-in form is all a first visit downloads).

const root = document.getElementById('app')!;
const api = createTenpoClient({ token: storedToken });
let closeShell: (() => void) | undefined;
/**
 * Ends the calls of the console shown when it is signed out: none still on its way answers into the
 * sign-in form (a refusal of the ended session would say it ended), and none is made afterwards.
 */
let endCalls: AbortController | undefined;
let stopListening: (() => void) | undefined;

function showLogin(message?: string): void {
  closeShell?.();
  closeShell = undefined;
  endCalls?.abort();
  forgetToken();
  // An account signed in in another tab signs this one in too.
  watchOtherTabs((change) => change === 'in' && void begin());
  renderLogin(root, { message, onSignedIn: (who) => void showConsole(who) });
}

async function showConsole(who: SignedIn): Promise<void> {
  // Another tab's sign-out ended the session this one shares.
  watchOtherTabs((change) => who.kind === 'account' && change === 'out' && showLogin(SIGNED_OUT_ELSEWHERE));
  try {
    const { renderShell } = await import('./shell/shell.ts');
    const calls = new AbortController();
    endCalls = calls;
    // The screens' client: the same credentials, each call ended with the console it was made from.
    const screensApi = createTenpoClient({ token: storedToken, fetch: (input, init) => fetch(input, { ...init, signal: calls.signal }) });
    closeShell = renderShell(root, { api: screensApi, who, signOut: () => signOut(who), onRefused: () => signedOutBy(who) });
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

function watchOtherTabs(callback: (change: 'in' | 'out') => void): void {
  stopListening?.();
  stopListening = onOtherTabs(callback);
}

/**
 * Signing out on purpose: the console goes first, its calls ended, so none answers into the sign-in
 * form; then an account's session ends on the service, for every tab and instance.
 */
async function signOut(who: SignedIn): Promise<void> {
  showLogin();
  if (who.kind === 'account') {
    await api.call('/api/admin/session/end').catch(() => undefined);
    noteSignedOut();
  }
}

/** The service refused the tab's credential (401): the session ended, its account was disabled, or the token changed. */
function signedOutBy(who: SignedIn): void {
  if (who.kind === 'account') noteSignedOut();
  showLogin(who.kind === 'account' ? SESSION_ENDED : TOKEN_REJECTED);
}

/** Shows the console as whoever this tab is signed in as, or the sign-in form. */
async function begin(): Promise<void> {
  if (storedToken()) return showConsole({ kind: 'token' });
  if (!mayHaveSession()) return showLogin();
  try {
    const { staff } = await api.call('/api/admin/session/get');
    if (staff) return showConsole({ kind: 'account', staff });
    showLogin();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      noteSignedOut();
      return showLogin(SESSION_ENDED);
    }
    showLogin(errorMessage(error));
  }
}

void begin();
