import type { Database } from '../../db/database.ts';
import type { Logger } from '../../log.ts';
import { DeliveryFailure } from './delivery-failure.ts';
import type { QueuedMessage } from '../outbox/message.ts';
import { standingsOf, type Standing } from '../outbox/standing.ts';
import type { EmailEventCounts } from '../reputation/event-counts.ts';
import { recordRefusedRecipient } from '../reputation/suppression.ts';
import { claimDueMessages, markFailed, markSettled, type ClaimedMessage, type Settlement } from '../outbox/store.ts';
import { retryDelayMs } from './retry-delay.ts';

/** A sent email with the id its provider gave it, which the provider's later events name. */
export interface SentEmail {
  status: 'sent';
  providerMessageId: string;
}

/**
 * What delivering one message came to; a failure is thrown. `withdrawn`: not sent, because the
 * message was no longer queued for this dispatcher when it was about to go; `superseded`: not sent,
 * because it was no longer true of its record; `suppressed`: an email not sent, because its address
 * gets none (outbox/standing.ts).
 */
export type DeliveryOutcome = Settlement | SentEmail | 'withdrawn';
/** Every way an attempt can end: delivered, skipped, superseded, suppressed, withdrawn, failed and to be retried, or failed for the last time. */
export type AttemptOutcome = Settlement | 'withdrawn' | 'retry' | 'dead';
/**
 * Delivers one message. `standing` is asked right before the send, with nothing but the send after
 * its answer (an email's rendering, which reads the store, runs alongside it), on every attempt:
 * unless it answers `deliver`, the message must not be sent, and its answer is the outcome.
 */
export type Deliver = (message: QueuedMessage, standing: () => Promise<Standing>) => Promise<DeliveryOutcome>;

export interface DispatcherTimings {
  /** How often the outbox is looked at when nothing wakes the dispatcher (retries falling due, other instances' work). */
  pollIntervalMs: number;
  /** How long a claim holds a message; a holder that crashed lets it go after this long. */
  leaseMs: number;
  /** The first retry's delay; each further one doubles, up to `retryCapMs`, with jitter. */
  retryBaseMs: number;
  retryCapMs: number;
  /** Attempts before a message is given up (`dead`). */
  maxAttempts: number;
  /** Deliveries in flight at once. */
  concurrency: number;
  /**
   * The least time between two claims, and between two writes of delivered messages: a steady stream
   * of messages (a drop's confirmations) costs a few writes a second instead of two per message,
   * each a commit, on SQLite in the event loop's own thread. A message waits at most this long more.
   */
  gatherMs: number;
}

/**
 * The production timings. A message is tried for about two hours (16 attempts, the delay doubling
 * from 2 s to at most 15 min) before it is given up. The lease must outlast the slowest delivery
 * (senders time out after 15 s), or a slow message could be claimed again while still in flight.
 */
export const DEFAULT_DISPATCHER_TIMINGS: DispatcherTimings = {
  pollIntervalMs: 1_000,
  leaseMs: 60_000,
  retryBaseMs: 2_000,
  retryCapMs: 15 * 60_000,
  maxAttempts: 16,
  concurrency: 16,
  gatherMs: 50,
};

/** Longest kept `last_error`; provider answers can be long. */
const MAX_ERROR_LENGTH = 500;

/**
 * Delivers the outbox in the background of the process. It claims due messages under a lease,
 * delivers them in parallel, and settles each: sent (or skipped, or superseded: no longer true of its
 * record right before it would have gone), retried later with backoff (or
 * when the provider's Retry-After says), or given up, with an error line in the log, after the last
 * attempt or at once when the provider refused it for good (a DeliveryFailure that is permanent). Work left pending by a stop or a
 * crash is found again by the next claim, in this instance or another.
 */
export class Dispatcher {
  readonly #database: Database;
  readonly #deliver: Deliver;
  /** Keys the hash an erased customer's suppressed address is kept as (reputation/address-key.ts). */
  readonly #addressKeySecret: string;
  /** Hard bounces found here (an SMTP 5xx to RCPT) are counted with the provider's events, for /metrics. */
  readonly #emailEvents: EmailEventCounts;
  readonly #log: Logger;
  readonly #timings: DispatcherTimings;
  readonly #now: () => number;
  readonly #inFlight = new Set<Promise<void>>();
  #running = false;
  #claiming: Promise<void> | undefined;
  #claimAgain = false;
  /**
   * Whether more may be due: the last claim took as many messages as it had slots for, or a failed
   * delivery went back to the queue since. Only then does a finished delivery claim again; otherwise
   * the last claim emptied the queue of due messages, and what comes due later wakes the dispatcher
   * itself (a commit that queues one; the poll, for retries and other instances' work), so a claim
   * at each finish would find nothing.
   */
  #mayBeMore = false;
  #timer: NodeJS.Timeout | undefined;
  /** A claim put off until `gatherMs` after the last one began. */
  #claimLater: NodeJS.Timeout | undefined;
  #lastClaimAt = -Infinity;
  #lastSettledAt = -Infinity;
  /** Messages settled without a failure, waiting to be written, in one statement per claim. */
  #settled: { id: string; lease: string; status: Settlement; providerMessageId?: string }[] = [];
  #writingSettled: Promise<void> | undefined;
  /**
   * Deliveries about to send, asking where their message stands (still theirs, still true): one
   * question for all that ask in the same moment, asked on every attempt however soon it follows
   * the claim, so a message erased or made untrue in between is never sent.
   */
  #standingQuestions: { message: ClaimedMessage; answer: PromiseWithResolvers<Standing> }[] = [];
  /** Attempts since the start by channel and outcome, for /metrics. */
  readonly #attempts = new Map<string, { channel: string; outcome: AttemptOutcome; count: number }>();

  constructor(options: {
    database: Database;
    deliver: Deliver;
    addressKeySecret: string;
    emailEvents: EmailEventCounts;
    log: Logger;
    timings?: Partial<DispatcherTimings>;
    now?: () => number;
  }) {
    this.#database = options.database;
    this.#deliver = options.deliver;
    this.#addressKeySecret = options.addressKeySecret;
    this.#emailEvents = options.emailEvents;
    this.#log = options.log;
    this.#timings = { ...DEFAULT_DISPATCHER_TIMINGS, ...options.timings };
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#timer = setInterval(() => this.wake(), this.#timings.pollIntervalMs);
    this.wake();
  }

  /** Looks for due messages now, e.g. right after a transaction that queued some has committed. */
  wake(): void {
    if (!this.#running) return;
    if (this.#claiming) {
      this.#claimAgain = true;
      return;
    }
    if (this.#claimLater) return;
    const wait = this.#lastClaimAt + this.#timings.gatherMs - performance.now();
    if (wait > 0) {
      this.#claimLater = setTimeout(() => {
        this.#claimLater = undefined;
        this.wake();
      }, wait);
      return;
    }
    this.#lastClaimAt = performance.now();
    this.#claiming = this.#claimWhileDue().finally(() => (this.#claiming = undefined));
  }

  /** Stops claiming and waits for the deliveries in flight to be settled. Unclaimed messages stay pending. */
  async stop(): Promise<void> {
    this.#running = false;
    clearInterval(this.#timer);
    clearTimeout(this.#claimLater);
    this.#claimLater = undefined;
    await this.#claiming;
    await Promise.all(this.#inFlight);
    await this.#writeSettled();
  }

  /** Delivery attempts since the start, by channel and outcome. */
  attemptCounts(): { channel: string; outcome: AttemptOutcome; count: number }[] {
    return [...this.#attempts.values()].map((entry) => ({ ...entry }));
  }

  #count(channel: string, outcome: AttemptOutcome): void {
    const key = `${channel} ${outcome}`;
    const entry = this.#attempts.get(key);
    if (entry) entry.count += 1;
    else this.#attempts.set(key, { channel, outcome, count: 1 });
  }

  async #claimWhileDue(): Promise<void> {
    try {
      do {
        this.#claimAgain = false;
        const free = this.#timings.concurrency - this.#inFlight.size;
        if (free <= 0) return; // a finishing delivery wakes us
        const now = this.#now();
        const claimed = await claimDueMessages(this.#database.db, this.#database.dialect, {
          now: new Date(now).toISOString(),
          leaseUntil: new Date(now + this.#timings.leaseMs).toISOString(),
          limit: free,
        });
        for (const message of claimed) this.#track(this.#attempt(message));
        this.#mayBeMore = claimed.length === free;
        if (this.#mayBeMore) this.#claimAgain = true;
      } while (this.#claimAgain && this.#running);
    } catch (error) {
      this.#log.error({ err: error }, 'outbox: claiming messages failed');
    }
  }

  #track(delivery: Promise<void>): void {
    this.#inFlight.add(delivery);
    void delivery.finally(() => {
      this.#inFlight.delete(delivery);
      // Claim again once half the slots are free, rather than one statement per finished message.
      if (this.#mayBeMore && this.#inFlight.size <= this.#timings.concurrency / 2) this.wake();
    });
  }

  async #attempt(message: ClaimedMessage): Promise<void> {
    let outcome: DeliveryOutcome;
    try {
      outcome = await this.#deliver(message, () => this.#standing(message));
    } catch (error) {
      await this.#settleFailure(message, error);
      return;
    }
    const status = typeof outcome === 'string' ? outcome : outcome.status;
    this.#count(message.message.channel, status);
    // Erased, or another dispatcher's now: its row is not this one's to settle.
    if (status === 'withdrawn') return;
    const providerMessageId = typeof outcome === 'string' ? undefined : outcome.providerMessageId;
    this.#settled.push({ id: message.id, lease: message.lease, status, ...(providerMessageId ? { providerMessageId } : {}) });
    this.#writingSettled ??= new Promise<void>((resolve) => {
      const wait = this.#lastSettledAt + this.#timings.gatherMs - performance.now();
      if (wait > 0) setTimeout(resolve, wait);
      else setImmediate(resolve);
    }).then(() => this.#writeSettled());
    await this.#writingSettled;
  }

  #standing(message: ClaimedMessage): Promise<Standing> {
    const answer = Promise.withResolvers<Standing>();
    this.#standingQuestions.push({ message, answer });
    if (this.#standingQuestions.length === 1) setImmediate(() => void this.#askStandings());
    return answer.promise;
  }

  async #askStandings(): Promise<void> {
    const batch = this.#standingQuestions;
    this.#standingQuestions = [];
    try {
      const standings = await standingsOf(
        this.#database.db,
        batch.map(({ message }) => message),
        { secret: this.#addressKeySecret, now: new Date(this.#now()) },
      );
      for (const { message, answer } of batch) answer.resolve(standings.get(message.id) ?? 'withdrawn');
    } catch (error) {
      // Unknown is not yes: the delivery fails and is retried.
      for (const { answer } of batch) answer.reject(error);
    }
  }

  async #writeSettled(): Promise<void> {
    const batch = this.#settled;
    this.#settled = [];
    this.#writingSettled = undefined;
    if (batch.length === 0) return;
    this.#lastSettledAt = performance.now();
    try {
      const held = await markSettled(this.#database.db, batch, new Date(this.#now()).toISOString());
      if (held < batch.length)
        this.#log.warn({ lost: batch.length - held }, 'outbox: lease expired during delivery; the message may be sent again');
    } catch (error) {
      // The leases run out and the messages are claimed again: better twice than never.
      this.#log.error({ err: error, messages: batch.length }, 'outbox: recording deliveries failed');
    }
  }

  async #settleFailure(message: ClaimedMessage, error: unknown): Promise<void> {
    const reason = describe(error);
    const refused = error instanceof DeliveryFailure && error.permanent;
    const giveUp = refused || message.attempts >= this.#timings.maxAttempts;
    const now = this.#now();
    // The provider's own Retry-After (already bounded) wins over the backoff: it knows when it will take the message.
    const waitMs =
      error instanceof DeliveryFailure && error.retryAfterMs !== undefined
        ? error.retryAfterMs
        : retryDelayMs(message.attempts, { baseMs: this.#timings.retryBaseMs, capMs: this.#timings.retryCapMs });
    const retryAt = giveUp ? null : new Date(now + waitMs).toISOString();
    const line = { messageId: message.id, channel: message.message.channel, attempts: message.attempts, error: withoutAddresses(reason) };
    this.#count(message.message.channel, giveUp ? 'dead' : 'retry');
    if (refused) this.#log.error(line, 'outbox: message given up: the provider refused it for good');
    else if (giveUp) this.#log.error(line, 'outbox: message given up after its last attempt');
    else this.#log.warn({ ...line, retryAt }, 'outbox: delivery failed; will retry');
    try {
      const at = new Date(now).toISOString();
      const { message: outgoing } = message;
      if (error instanceof DeliveryFailure && error.hardBounce && outgoing.channel === 'email') {
        await this.#database.db.transaction().execute(async (trx) => {
          await recordRefusedRecipient(trx, { outboxId: message.id, to: outgoing.to, at, detail: reason });
          await markFailed(trx, message, { error: reason, at, retryAt });
        });
        this.#emailEvents.add('hard_bounce');
        return;
      }
      await markFailed(this.#database.db, message, { error: reason, at, retryAt });
      // Back in the queue, maybe due at once (a Retry-After of 0): claimed again as this delivery finishes.
      if (retryAt !== null) this.#mayBeMore = true;
    } catch (storeError) {
      this.#log.error({ err: storeError, messageId: message.id }, 'outbox: recording a failed delivery failed');
    }
  }
}

/**
 * A provider's words with any address in them (`550 <taro@example.com>: no such user`) replaced, for
 * the log, which no personal-data erasure reaches; the stored `last_error` keeps them and is erased
 * with its message. The `@` is found however the provider encoded it: in a URL (`%40`), a JSON or
 * JavaScript escape (`\u0040`, `\x40`), an HTML entity (`&#64;`, `&#x40;`, `&commat;`) or full width (`＠`).
 */
export function withoutAddresses(text: string): string {
  return text.replace(ADDRESS, '<address>');
}

const AT_SIGN = String.raw`(?:@|%40|\\u0040|\\x40|&#0*64;|&#x0*40;|&commat;|＠)`;
const ADDRESS_PART = String.raw`[^\s<>()[\]"',;:=@＠]+`;
const ADDRESS = new RegExp(`${ADDRESS_PART}${AT_SIGN}${ADDRESS_PART}`, 'gi');

function describe(error: unknown): string {
  // fetch() says only "fetch failed"; the cause says why (refused, timed out). Neither carries the URL's path.
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const text = (error instanceof Error ? error.message : String(error)) + cause;
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}
