import type { Input, Output } from '../../../client/tenpo-client.ts';
import { labelOf, SUPPRESSION_REASON_LABELS } from '../../../words/labels.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { h, replace } from '../../ui/dom.ts';
import { formatCount, formatDateTime } from '../../ui/format.ts';
import { listLoader, pagers, placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';
import { pageParam, writeParams } from '../../shell/url-state.ts';

type Suppression = Output<'/api/admin/email-suppressions/list'>['suppressions'][number];
type Reason = NonNullable<Input<'/api/admin/email-suppressions/list'>['reason']>;

const PAGE_SIZE = 50;
/** The longest reason the service keeps (the lift's `reason`: 1–500 characters). */
const MAX_REASON = 500;

/**
 * 配信停止: the addresses that get no email (新規メール停止中 after a spam complaint, 配信不能 after a
 * bounce), newest first, by reason; a bounce lifted with a reason when the customer says the mailbox
 * works again. A complaint has no 解除: mailing someone who reported the shop's mail as spam again is
 * what gets the shop's mail blocked.
 */
export function openScreen(context: ScreenContext): Screen {
  return {
    show(container, params) {
      const state = { reason: (params.get('reason') || undefined) as Reason | undefined, page: pageParam(params.get('page')) };
      const list = h('div', { class: 'list suppressions' });
      const remember = () => writeParams({ reason: state.reason, page: state.page > 1 ? state.page : undefined });

      const load = listLoader(list, context, async (isLatest) => {
        const answer = await context.api.call('/api/admin/email-suppressions/list', {
          reason: state.reason ?? '',
          page: state.page,
          pageSize: PAGE_SIZE,
        });
        if (!isLatest()) return;
        if (answer.suppressions.length === 0 && answer.total > 0) {
          state.page = Math.max(1, answer.totalPages);
          remember();
          return void load();
        }
        if (answer.suppressions.length === 0) return replace(list, placeholder('配信を止めているアドレスはありません。'));
        const pages = pagers(answer, state, () => (remember(), void load()));
        replace(list, pages.top, table(answer.suppressions), pages.bottom);
      });

      function table(suppressions: Suppression[]): HTMLTableElement {
        const headings = ['メールアドレス', '理由', '停止した日時', '操作'];
        const cell = (i: number, ...content: (Node | string | null)[]) => h('td', { 'data-label': headings[i]! }, ...content);
        return h(
          'table',
          { class: 'records suppressions' },
          h('thead', {}, h('tr', {}, ...headings.map((label) => h('th', {}, label)))),
          h(
            'tbody',
            {},
            ...suppressions.map((s) =>
              h(
                'tr',
                {},
                cell(0, s.erased ? '（削除済みのお客様）' : s.address),
                cell(1, h('span', { class: `suppression-reason ${s.reason}` }, labelOf(SUPPRESSION_REASON_LABELS, s.reason))),
                cell(2, formatDateTime(s.since)),
                cell(3, liftButton(s)),
              ),
            ),
          ),
        );
      }

      function liftButton(s: Suppression): HTMLElement | string {
        if (s.reason === 'complaint') return '解除できません';
        if (s.erased) return '—';
        return h('button', { type: 'button', class: 'lift', onClick: () => void lift(s) }, '解除…');
      }

      async function lift(s: Suppression): Promise<void> {
        const reason = h('textarea', { id: 'lift-reason', rows: 3, maxlength: MAX_REASON * 2 });
        const problem = h('p', { class: 'field-error', id: 'lift-reason-error', 'aria-live': 'polite', hidden: true });
        const valid = () => {
          const text = reason.value.trim();
          const length = [...text].length;
          problem.textContent =
            length > MAX_REASON ? `理由は${formatCount(MAX_REASON)}文字以内で入力してください（いま${formatCount(length)}文字）。` : '';
          problem.hidden = problem.textContent === '';
          return length > 0 && length <= MAX_REASON;
        };
        const confirmed = await confirmDialog({
          title: '配信停止の解除',
          message: h(
            'span',
            { class: 'lift-form' },
            `${s.address} にまたメールを送ります。お客様からメールボックスが使えるようになったと連絡があった場合などに解除してください。再び届かなければ、また自動で停止します。`,
            h('label', { for: 'lift-reason' }, '解除する理由（必須）'),
            reason,
            problem,
          ),
          confirm: '解除する',
          canConfirm: valid,
        });
        if (!confirmed) return;
        try {
          await context.api.call('/api/admin/email-suppressions/lift', { address: s.address, reason: reason.value.trim() });
          context.announce(`${s.address} の配信停止を解除しました。`, 'success');
        } catch (error) {
          context.fail(error);
        }
        await load();
      }

      const select = h(
        'select',
        {
          id: 'suppressions-reason',
          onChange: (event: Event) => {
            state.reason = ((event.target as HTMLSelectElement).value || undefined) as Reason | undefined;
            state.page = 1;
            remember();
            void load();
          },
        },
        h('option', { value: '' }, 'すべて'),
        ...Object.entries(SUPPRESSION_REASON_LABELS).map(([value, text]) => h('option', { value, selected: value === state.reason }, text)),
      );
      replace(
        container,
        h('div', { class: 'view-head' }, h('h1', {}, '配信停止')),
        h(
          'p',
          { class: 'hint' },
          '迷惑メールとして報告されたアドレス（新規メール停止中）と、届かなかったアドレス（配信不能）には、メールを送りません（送信履歴では「送信せず（配信停止中のアドレス）」）。配信不能は、お客様の連絡を受けて理由を添えて解除できます。迷惑メールの報告は解除できません。',
        ),
        h(
          'div',
          { class: 'filters' },
          h('span', { class: 'field' }, h('label', { for: 'suppressions-reason' }, '理由'), select),
          h('button', { type: 'button', onClick: () => void load() }, '再読み込み'),
        ),
        list,
      );
      void load();
    },
  };
}
