import type { EmailEventKind } from './store.ts';

/** Events recorded since the start, by kind, for /metrics (`tenpo_email_events_total`). */
export class EmailEventCounts {
  readonly #counts = new Map<EmailEventKind, number>();

  add(kind: EmailEventKind): void {
    this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + 1);
  }

  entries(): { kind: EmailEventKind; count: number }[] {
    return [...this.#counts].map(([kind, count]) => ({ kind, count }));
  }
}
