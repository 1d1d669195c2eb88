import { ApiError } from '../../client/tenpo-client.ts';
import { errorReason } from '../api/errors.ts';
import { BULK_BATCH, setArchived } from '../api/records.ts';
import type { ScreenContext } from '../screen.ts';
import { h, replace } from '../ui/dom.ts';
import { formatCount } from '../ui/format.ts';
import type { ActiveRecord, ArchivedRecord, RecordEndpoints, RecordKind } from './record-kind.ts';
import { recordLink } from './record-page.ts';

// What the bulk actions on selected records share: archiving in batches, the outcome said in a
// sentence, and each record an action could not change named with why.

/** A record a bulk action left as it was, and why, in staff's words. */
export interface Failure<T> {
  record: T;
  reason: string;
}

/**
 * Above the list after a bulk action: each record it could not change, by its number (a link to
 * its page) and whose it is, with why. The caller keeps exactly these selected: a record that has
 * left the filtered list meanwhile is still named here, and still counted in the selection.
 */
export function bulkFailures<R extends ActiveRecord, A extends ArchivedRecord>(
  kind: Pick<RecordKind<R, A>, 'noun' | 'idLabel' | 'shownId' | 'whose'>,
): { element: HTMLElement; show(failures: Failure<R | A>[], failedTo: string): void; clear(): void } {
  const element = h('section', { class: 'bulk-failures', role: 'alert', 'aria-labelledby': 'bulk-failures-heading', hidden: true });
  return {
    element,
    show(failures, failedTo) {
      element.hidden = failures.length === 0;
      replace(
        element,
        h('h2', { id: 'bulk-failures-heading' }, `${failedTo}${kind.noun} ${formatCount(failures.length)} 件（選択したままです）`),
        h(
          'ul',
          {},
          ...failures.map(({ record, reason }) =>
            h(
              'li',
              { 'data-id': record.id },
              `${kind.idLabel} `,
              recordLink(record.id, kind.shownId?.(record) ?? record.id),
              `（${kind.whose(record)}）: `,
              h('span', { class: 'reason' }, reason),
            ),
          ),
        ),
      );
    },
    clear() {
      element.hidden = true;
      replace(element);
    },
  };
}

/**
 * The notice after a bulk action: what was done, and how many could not be, which makes it an
 * error, so it stays shown; those are named in bulkFailures.
 */
export function bulkOutcome(done: string, failed: number, couldNot: string): { message: string; tone: 'success' | 'error' } {
  if (failed === 0) return { message: done, tone: 'success' };
  return {
    message: `${done}${formatCount(failed)} 件は${couldNot}（それぞれの理由を一覧の上に表示しています。選択したままです）。`,
    tone: 'error',
  };
}

/**
 * Archives (or restores) the records in batches the service takes (500), saying how far it got. A
 * batch that fails outright counts its records as failed, with why, and the next ones are still
 * sent. Undefined when the tab was signed out meanwhile (said as every refused session is).
 */
export async function setArchivedInBatches<T extends { id: string; productSlug: string }>(options: {
  endpoints: RecordEndpoints;
  context: ScreenContext;
  archived: boolean;
  records: T[];
  progress?: (done: number, total: number) => void;
}): Promise<{ done: number; failures: Failure<T>[] } | undefined> {
  const byId = new Map(options.records.map((record) => [record.id, record]));
  const failed: { id: string; reason: string }[] = [];
  let done = 0;
  for (let start = 0; start < options.records.length; start += BULK_BATCH) {
    const batch = options.records.slice(start, start + BULK_BATCH).map(({ id, productSlug }) => ({ id, productSlug }));
    options.progress?.(start, options.records.length);
    try {
      const outcome = await setArchived(options.context.api, options.endpoints, options.archived, batch);
      done += outcome.doneIds.length;
      failed.push(...outcome.errors);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return void options.context.fail(error);
      const reason = errorReason(error);
      failed.push(...batch.map(({ id }) => ({ id, reason })));
    }
  }
  return { done, failures: failed.flatMap(({ id, reason }) => (byId.has(id) ? [{ record: byId.get(id)!, reason }] : [])) };
}
