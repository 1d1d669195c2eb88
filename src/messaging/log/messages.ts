import type { Database } from '../../db/database.ts';
import { DEFAULT_PAGE_SIZE, pageWindow, paging, type Paging } from '../../records/lists.ts';
import { loggedMessage, type LoggedMessage } from '../logged-message.ts';
import { listMessageRows, type MessageFilter } from './store.ts';

// The message log: what the outbox sent, is sending, skipped or gave up, as staff read it.

export interface MessagePage extends Paging {
  messages: LoggedMessage[];
}

/** One page of the log, newest first. */
export async function listMessages(
  database: Database,
  request: MessageFilter & { page?: number; pageSize?: number },
): Promise<MessagePage> {
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const { recordId, status, channel } = request;
  const { rows, total } = await listMessageRows(database.db, { recordId, status, channel }, pageWindow(page, pageSize));
  return { messages: rows.map(loggedMessage), ...paging(total, page, pageSize) };
}
