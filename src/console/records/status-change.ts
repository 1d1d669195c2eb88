import { ApiError } from '../../client/tenpo-client.ts';
import { allowsMove } from '../../records/status-transitions.ts';
import { labelOf } from '../../words/labels.ts';
import { codeMessage, errorMessage } from '../api/errors.ts';
import { changeStatus, findActive, lastChangeBy, type ChangedBy } from '../api/records.ts';
import type { ScreenContext } from '../screen.ts';
import { confirmDialog } from '../ui/confirm-dialog.ts';
import { h } from '../ui/dom.ts';
import type { ActiveRecord, ArchivedRecord, CampaignEffect, Column, RecordKind, RowNote } from './record-kind.ts';
import { emailChoice, emailOutcome, type StatusEmail } from './status-email.ts';

// One record's status changed from its row or its page: the select offering the allowed moves, the
// confirmation, and what staff are told when someone (a colleague, the customer) changed the record first.

/** Who changed the record first, as the subject of staff's sentence: the customer, a colleague by name, or the admin token. */
function whoChanged(by: ChangedBy | undefined, noun: string): string {
  if (by?.actor === 'customer') return `お客様ご本人がこの${noun}を先に変更していました`;
  if (by?.staffName) return `${by.staffName}さんがこの${noun}を先に変更していました`;
  if (by) return `管理トークン（スクリプトやAPI）からこの${noun}が先に変更されていました`;
  return `この${noun}は先に変更されていました`;
}

/** What changed under the row, and who changed it, in staff's words: the status move, and the memo when it differs. */
function whatChanged<R extends ActiveRecord>(
  kind: Pick<RecordKind<R, ArchivedRecord>, 'statusLabels' | 'noun'>,
  shown: R,
  now: R,
  by: ChangedBy | undefined,
): string {
  const changes = [];
  if (shown.status !== now.status)
    changes.push(
      `ステータスが「${labelOf(kind.statusLabels, shown.status)}」から「${labelOf(kind.statusLabels, now.status)}」に変わっています`,
    );
  const memo = (record: R) => (record as Record<string, unknown>).notes;
  if (memo(shown) !== memo(now)) changes.push('メモが書き換えられています');
  const what = changes.length > 0 ? `（${changes.join('。')}）` : '';
  return `${whoChanged(by, kind.noun)}${what}。最新の内容を表示しています。あなたの変更は保存されていません。`;
}

/**
 * A status change that failed: when a colleague changed the record first, the row is reloaded and
 * says what changed; otherwise the row stays as it was and says why. Both in the row's own note.
 */
export async function refusedChange<R extends ActiveRecord>(
  kind: Pick<RecordKind<R, ArchivedRecord>, 'statusLabels' | 'noun' | 'endpoints'>,
  context: ScreenContext,
  record: R,
  error: unknown,
  update: (record: R, note?: RowNote) => void,
): Promise<void> {
  if (error instanceof ApiError && error.status === 401) return context.fail(error);
  const say = (target: R, text: string) => {
    context.announce(text, 'error');
    update(target, { text, tone: 'error' });
  };
  if (error instanceof ApiError && error.code === 'changed_by_someone_else') {
    try {
      const now = await findActive(context.api, kind.endpoints, record);
      if (now) return say(now, whatChanged(kind, record, now, await lastChangeBy(context.api, kind.endpoints, record.id)));
      return say(record, `他の担当者がこの${kind.noun}をアーカイブしました。一覧を再読み込みしてください。`);
    } catch (reloadError) {
      return say(record, errorMessage(reloadError));
    }
  }
  say(record, errorMessage(error));
}

/**
 * The status as a select offering only the moves the service allows from the current status. A
 * choice is saved at once, after a confirmation for the statuses that ask one (a cancellation); the
 * outcome is said under the row.
 */
export function statusColumn<R extends ActiveRecord>(
  kind: Pick<
    RecordKind<R, ArchivedRecord>,
    'statusTable' | 'statusLabels' | 'endpoints' | 'noun' | 'confirmStatuses' | 'customerEmail' | 'campaignEffect' | 'moveRefusal'
  >,
): Column<R> {
  return {
    label: 'ステータス',
    class: 'status',
    sort: 'status',
    cell(record, context, update) {
      const allowed = kind.statusTable.statuses.filter((status) => allowsMove(kind.statusTable, record.status, status));
      // A move the service would refuse for this record is not offered; why is said under the select.
      const refusals = allowed.flatMap((status) => kind.moveRefusal?.(record, status) ?? []);
      const choices = allowed.filter((status) => !kind.moveRefusal?.(record, status));
      const select: HTMLSelectElement = h(
        'select',
        {
          'aria-label': 'ステータスを変更',
          'data-status': record.status,
          onChange: async () => {
            const to = select.value;
            const label = labelOf(kind.statusLabels, to);
            select.disabled = true;
            const effects = await whatMoveDoes(kind, context, [record], to);
            select.disabled = false;
            if (effects === null) return void (select.value = record.status);
            const { email, campaign } = effects;
            const choice = email && emailChoice(email, 'お客様');
            if (kind.confirmStatuses.includes(to) || choice || campaign) {
              const message = h(
                'span',
                {},
                `この${kind.noun}のステータスを「${labelOf(kind.statusLabels, record.status)}」から「${label}」に変更します。`,
                campaign && h('span', { class: 'campaign-effect' }, campaign.before),
                choice && choice.element,
              );
              if (
                !(await confirmDialog({
                  title: `${kind.noun}を「${label}」にします`,
                  message,
                  confirm: `「${label}」にする`,
                  danger: kind.confirmStatuses.includes(to),
                }))
              )
                return void (select.value = record.status);
            }
            const notify = choice ? { notifyCustomer: choice.notify() } : {};
            select.disabled = true;
            try {
              const updated = await changeStatus(context.api, kind.endpoints, record, { status: to, ...notify });
              const text = `ステータスを「${labelOf(kind.statusLabels, updated.status)}」に変更しました。${emailOutcome(email, notify.notifyCustomer ?? false)}${campaign?.after ?? ''}`;
              context.announce(text, 'success');
              update(updated, { text, tone: 'success' });
            } catch (error) {
              await refusedChange(kind, context, record, error, update);
            }
          },
        },
        ...choices.map((status) => h('option', { value: status, selected: status === record.status }, labelOf(kind.statusLabels, status))),
      );
      if (refusals.length === 0) return select;
      return h(
        'span',
        { class: 'status-with-reason' },
        select,
        ...refusals.map((code) => h('small', { class: 'move-refused' }, codeMessage(code))),
      );
    },
  };
}

/**
 * What a move would do beyond the status: the customer email it sends (undefined: none) and its
 * effect on a campaign; null when it could not be found out, which has been reported.
 */
export async function whatMoveDoes<R extends ActiveRecord>(
  kind: Pick<RecordKind<R, ArchivedRecord>, 'customerEmail' | 'campaignEffect'>,
  context: ScreenContext,
  records: R[],
  status: string,
): Promise<{ email: StatusEmail | undefined; campaign: CampaignEffect | undefined } | null> {
  try {
    const [email, campaign] = await Promise.all([kind.customerEmail?.(context, status), kind.campaignEffect?.(context, records, status)]);
    return { email, campaign };
  } catch (error) {
    context.fail(error);
    return null;
  }
}
