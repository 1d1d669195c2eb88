import { ApiError, type Output } from '../../../client/tenpo-client.ts';
import { errorMessage } from '../../api/errors.ts';
import { placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { h, replace } from '../../ui/dom.ts';
import { formatDateTime } from '../../ui/format.ts';
import { newPasswordField, PASSWORD_HINT } from '../../ui/password-field.ts';
import { editedSince } from '../../ui/unsaved.ts';

type Account = Output<'/api/admin/staff/list'>['staff'][number];
type Role = Account['role'];

const ROLE_LABELS: Record<Role, string> = { owner: 'オーナー', staff: 'スタッフ' };
/** This screen's fields, as a refusal names them. */
const FIELDS = { name: '名前', email: 'メールアドレス', password: 'パスワード' };

/**
 * 担当者 (owners only): every staff account, and inviting a new one with a first password to hand
 * over; per account, its role, disabling (its open consoles are signed out at their next action)
 * or enabling it, and setting it a new password. With no account yet, the token holder creates the
 * first owner here.
 */
export function openScreen(context: ScreenContext): Screen {
  const { api } = context;
  const ownId = context.who.kind === 'account' ? context.who.staff.id : undefined;
  /** A refused change, said with this screen's field names; a refused session signs out as anywhere. */
  const refused = (error: unknown) =>
    error instanceof ApiError && error.status === 401 ? context.fail(error) : context.announce(errorMessage(error, FIELDS), 'error');

  return {
    async show(container) {
      const list = h('div', { class: 'staff-list' }, h('p', { class: 'loading' }, '読み込み中…'));
      const firstSetup = h(
        'p',
        { class: 'notice first-owner', hidden: true },
        'まだ担当者のアカウントがありません。下の「担当者を追加」で最初のオーナーを作成してください。作成したメールアドレスとパスワードで、ログインできるようになります。',
      );
      const invite = inviteForm(async () => void (await reload()));
      replace(container, h('div', { class: 'view-head' }, h('h1', {}, '担当者')), firstSetup, list, invite.form);

      async function reload(): Promise<void> {
        try {
          const { staff } = await api.call('/api/admin/staff/list');
          firstSetup.hidden = staff.length > 0;
          if (staff.length === 0) invite.role.value = 'owner';
          replace(list, staff.length === 0 ? placeholder('担当者はいません。') : table(staff));
        } catch (error) {
          context.fail(error);
          replace(list);
        }
      }
      await reload();

      function table(accounts: Account[]): HTMLTableElement {
        const headings = ['名前', 'メールアドレス', '役割', '状態', '最終ログイン', '操作'];
        return h(
          'table',
          { class: 'records staff' },
          h('thead', {}, h('tr', {}, ...headings.map((label) => h('th', {}, label)))),
          h(
            'tbody',
            {},
            ...accounts.map((account) =>
              h(
                'tr',
                { class: account.disabled ? 'disabled' : undefined, 'data-staff': account.email },
                h('td', { 'data-label': '名前' }, account.name, account.id === ownId && h('span', { class: 'muted' }, '（あなた）')),
                h('td', { 'data-label': 'メールアドレス' }, account.email),
                h('td', { 'data-label': '役割' }, roleSelect(account)),
                h('td', { 'data-label': '状態' }, account.disabled ? '無効' : '有効'),
                h('td', { 'data-label': '最終ログイン' }, account.lastSignInAt ? formatDateTime(account.lastSignInAt) : 'なし'),
                h('td', { 'data-label': '操作' }, h('div', { class: 'row-actions' }, ...accountActions(account))),
              ),
            ),
          ),
        );
      }

      function accountActions(account: Account): HTMLButtonElement[] {
        const reset = h(
          'button',
          { type: 'button', class: 'reset-password', onClick: () => void resetPassword(account) },
          'パスワード再設定…',
        );
        const enable = () => void update(account, { disabled: false }, 'を有効にしました');
        return [
          reset,
          account.disabled
            ? h('button', { type: 'button', onClick: enable }, '有効にする')
            : h('button', { type: 'button', class: 'danger', onClick: () => void disable(account) }, '無効にする…'),
        ];
      }

      function roleSelect(account: Account): HTMLSelectElement {
        const select = h(
          'select',
          {
            'aria-label': `${account.name}の役割`,
            onChange: () =>
              void update(account, { role: select.value as Role }, `の役割を${ROLE_LABELS[select.value as Role]}にしました`).then(
                (done) => done || (select.value = account.role),
              ),
          },
          ...(['owner', 'staff'] as const).map((role) => h('option', { value: role, selected: role === account.role }, ROLE_LABELS[role])),
        );
        return select;
      }

      async function disable(account: Account): Promise<void> {
        const confirmed = await confirmDialog({
          title: '担当者を無効にする',
          message: `${account.name}（${account.email}）を無効にします。ログインできなくなり、開いている管理画面も次の操作でログアウトされます。履歴に残る名前はそのままです。「有効にする」で戻せます。`,
          confirm: '無効にする',
          danger: true,
        });
        if (confirmed) await update(account, { disabled: true }, 'を無効にしました');
      }

      async function resetPassword(account: Account): Promise<void> {
        const field = newPasswordField('reset-password', '新しいパスワード');
        // While the dialog is open, a reload or the browser's back asks before the typed password goes.
        context.unsaved.hold('staff-reset', { what: `${account.name}の新しいパスワード`, isDirty: editedSince([field.input]) });
        const confirmed = await confirmDialog({
          title: 'パスワードの再設定',
          message: h(
            'span',
            { class: 'reset-message' },
            `${account.name}（${account.email}）に新しいパスワードを設定します。このアカウントのログインはすべて終了します。新しいパスワードは本人に直接伝えてください。`,
            field.label,
            field.input,
            h('span', { class: 'hint' }, PASSWORD_HINT),
          ),
          confirm: '設定する',
        });
        context.unsaved.release('staff-reset');
        context.unsaved.changed();
        if (confirmed) await update(account, { password: field.input.value }, 'のパスワードを再設定しました');
      }

      /** Applies a change to an account; true when the service took it. */
      async function update(
        account: Account,
        change: { role?: Role; disabled?: boolean; password?: string },
        said: string,
      ): Promise<boolean> {
        try {
          await api.call('/api/admin/staff/update', { id: account.id, ...change });
          context.announce(`${account.name}${said}。`, 'success');
          await reload();
          return true;
        } catch (error) {
          refused(error);
          return false;
        }
      }

      function inviteForm(done: () => Promise<void>) {
        const name = h('input', { type: 'text', id: 'staff-name', maxlength: 100, autocomplete: 'off', required: true });
        const email = h('input', { type: 'email', id: 'staff-email', maxlength: 254, autocomplete: 'off', required: true });
        const role = h(
          'select',
          { id: 'staff-role' },
          ...(['staff', 'owner'] as const).map((value) => h('option', { value }, ROLE_LABELS[value])),
        );
        const password = newPasswordField('staff-password', '最初のパスワード');
        const button = h('button', { type: 'submit', class: 'primary' }, '追加する');
        // The role is left out: the first setup sets it for staff (owner), and it is no typed work.
        context.unsaved.hold('staff-invite', { what: '担当者の追加', isDirty: editedSince([name, email, password.input]) });
        const form = h(
          'form',
          {
            class: 'staff-invite',
            novalidate: true,
            onSubmit: async (event: Event) => {
              event.preventDefault();
              button.disabled = true;
              try {
                const { staff } = await api.call('/api/admin/staff/create', {
                  name: name.value,
                  email: email.value,
                  role: role.value as Role,
                  password: password.input.value,
                });
                context.announce(
                  `${staff.name}（${staff.email}）を${ROLE_LABELS[staff.role]}として追加しました。最初のパスワードを本人に直接伝えてください。`,
                  'success',
                );
                form.reset();
                context.unsaved.changed();
                await done();
              } catch (error) {
                refused(error);
              } finally {
                button.disabled = false;
              }
            },
          },
          h('h2', {}, '担当者を追加'),
          h(
            'p',
            { class: 'hint' },
            'オーナーはすべての操作ができます。スタッフは、個人情報・担当者・店舗情報の画面を除くすべてを使えます。本人はログイン後、右上の名前からパスワードを変更できます。',
          ),
          h('label', { for: 'staff-name' }, '名前（履歴に表示されます）'),
          name,
          h('label', { for: 'staff-email' }, 'メールアドレス（ログインに使います）'),
          email,
          h('label', { for: 'staff-role' }, '役割'),
          role,
          password.label,
          password.input,
          h('p', { class: 'hint' }, PASSWORD_HINT),
          h('div', { class: 'actions' }, button),
        );
        return { form, role };
      }
    },
  };
}
