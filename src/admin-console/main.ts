import { createTenpoClient } from '../client/tenpo-client.ts';
import { dashboardView } from './dashboard-view.ts';
import { emailTemplatesView } from './email-templates-view.ts';
import { renderLogin } from './login-view.ts';
import { messagesView } from './messages-view.ts';
import { personalDataView } from './personal-data-view.ts';
import { preordersView } from './preorders-view.ts';
import { reservationsView } from './reservations-view.ts';
import { forgetToken, storedToken } from './session.ts';
import { subscriptionsView } from './subscriptions-view.ts';
import { renderShell, type View } from './shell.ts';

// The console's entry: the sign-in form until the tab holds an accepted token, then the screens.

const VIEWS: View[] = [
  dashboardView,
  reservationsView,
  preordersView,
  subscriptionsView,
  emailTemplatesView,
  messagesView,
  personalDataView,
];

const root = document.getElementById('app')!;
const api = createTenpoClient({ token: storedToken });
let leaveShell: (() => void) | undefined;

function showLogin(message?: string): void {
  leaveShell?.();
  leaveShell = undefined;
  forgetToken();
  renderLogin(root, { message, onSignedIn: showConsole });
}

function showConsole(): void {
  leaveShell = renderShell(root, { api, views: VIEWS, onSignOut: showLogin });
}

if (storedToken()) showConsole();
else showLogin();
