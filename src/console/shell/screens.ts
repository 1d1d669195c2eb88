import type { ScreenModule } from '../screen.ts';

/** A screen the shell shows: its hash, its name, who may open it, and its module, loaded on its first visit. */
export interface ScreenEntry {
  /** The location hash that shows it; the screen may keep its filters, page and view after it (url-state.ts). */
  hash: string;
  label: string;
  /** `owners`: owners and the token holder only, hidden from `staff` accounts; `accounts`: a signed-in account only (not the token). */
  audience?: 'owners' | 'accounts';
  /** False for a screen reached from the header rather than the navigation. */
  inNavigation?: false;
  load(): Promise<ScreenModule>;
}

/** The screens, in the navigation's order; the first is shown for an unknown hash. */
export const SCREENS: ScreenEntry[] = [
  { hash: '#/dashboard', label: 'ダッシュボード', load: () => import('../screens/dashboard/dashboard.ts') },
  { hash: '#/reservations', label: '予約', load: () => import('../screens/reservations/reservations.ts') },
  { hash: '#/preorders', label: '予約受付', load: () => import('../screens/preorders/preorders.ts') },
  { hash: '#/subscriptions', label: '再入荷通知', load: () => import('../screens/subscriptions/subscriptions.ts') },
  { hash: '#/email-templates', label: 'メールテンプレート', load: () => import('../screens/email-templates/email-templates.ts') },
  { hash: '#/messages', label: '送信履歴', load: () => import('../screens/messages/messages.ts') },
  { hash: '#/suppressions', label: '配信停止', load: () => import('../screens/suppressions/suppressions.ts') },
  {
    hash: '#/personal-data',
    label: '個人情報',
    audience: 'owners',
    load: () => import('../screens/personal-data/personal-data.ts'),
  },
  { hash: '#/shop', label: '店舗情報', audience: 'owners', load: () => import('../screens/shop/shop.ts') },
  { hash: '#/staff', label: '担当者', audience: 'owners', load: () => import('../screens/staff/staff.ts') },
  {
    hash: '#/password',
    label: 'パスワード変更',
    audience: 'accounts',
    inNavigation: false,
    load: () => import('../screens/password/password.ts'),
  },
];
