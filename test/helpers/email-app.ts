import type { DispatcherTimings } from '../../src/messaging/delivery/dispatcher.ts';
import { startTestApp, type Dialect, type TestApp } from './app.ts';
import { startHttpReceiver, type HttpReceiver } from './http-receiver.ts';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts';

/** Delivery fast enough for a test: polls, retries and gives up in milliseconds. */
export const FAST_DISPATCH: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 100, leaseMs: 5_000 };

export interface EmailTestApp {
  app: TestApp;
  /** The email API (`/emails`) and, when asked for, the chat webhooks (`/hooks/<name>`). */
  api: HttpReceiver;
  close(): Promise<void>;
}

/**
 * The whole service on a fresh store of `dialect`, sending its emails to a real HTTP email API
 * receiver (EMAIL_API_URL `<receiver>/emails`), with links under https://shop.example.jp and no
 * rate limit. `webhooks` also points those chat webhooks at the receiver, as `/hooks/<name>`.
 */
export async function startEmailTestApp(options: {
  dialect: Dialect;
  dispatcher?: Partial<DispatcherTimings>;
  webhooks?: ('reservation' | 'restock' | 'public')[];
  env?: Record<string, string>;
}): Promise<EmailTestApp> {
  const api = await startHttpReceiver();
  const hooks = Object.fromEntries(
    (options.webhooks ?? []).map((name) => [`${name.toUpperCase()}_WEBHOOK_URL`, `${api.url}/hooks/${name}`]),
  );
  const app = await startTestApp({
    dialect: options.dialect,
    env: {
      RATE_LIMIT_PER_MINUTE: '0',
      EMAIL_PROVIDER_API_KEY: 're_test',
      EMAIL_API_URL: `${api.url}/emails`,
      PUBLIC_BASE_URL: 'https://shop.example.jp',
      ...hooks,
      ...options.env,
    },
    dispatcher: { ...FAST_DISPATCH, ...options.dispatcher },
  });
  return {
    app,
    api,
    close: async () => {
      await app.close();
      await api.close();
    },
  };
}

/**
 * The whole service on a fresh store of `dialect`, sending its emails over SMTP to a real receiver,
 * with no rate limit; `env` adds to that (the sender, links) and `dispatcher` sets the timings.
 */
export async function startSmtpTestApp(options: {
  dialect: Dialect;
  dispatcher: Partial<DispatcherTimings>;
  env: Record<string, string>;
}): Promise<{ app: TestApp; smtp: SmtpReceiver; close(): Promise<void> }> {
  const smtp = await startSmtpReceiver();
  const app = await startTestApp({
    dialect: options.dialect,
    env: { RATE_LIMIT_PER_MINUTE: '0', SMTP_URL: smtp.url, ...options.env },
    dispatcher: options.dispatcher,
  });
  return {
    app,
    smtp,
    close: async () => {
      await app.close();
      await smtp.close();
    },
  };
}
