/** Senders give up on a request after this long; the dispatcher's lease must outlast it. */
export const SEND_TIMEOUT_MS = 15_000;

/** Longest part of an error answer kept in the failure message. */
const MAX_ANSWER_EXCERPT = 200;

/**
 * POSTs JSON and resolves on a 2xx answer. Anything else throws, so the dispatcher retries. The
 * error names the status and the start of the answer, never the URL (webhook URLs are secrets).
 */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  const answer = await response.text().catch(() => '');
  if (!response.ok) throw new Error(`HTTP ${response.status}${answer ? `: ${answer.slice(0, MAX_ANSWER_EXCERPT)}` : ''}`);
}
