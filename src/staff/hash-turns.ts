/**
 * Turns at the password hash: `atOnce` hashes run at a time (each holds a thread of libuv's pool
 * and 32 MiB), one of a lane at a time, and those waiting are served lane by lane in turn. A lane is
 * who asked (the client's address), so a client sending hundreds of sign-ins at once holds one turn,
 * and anyone else's sign-in waits for the hashes already running and no more.
 */
export class HashTurns {
  readonly #atOnce: number;
  #running = 0;
  #done = 0;
  readonly #busy = new Set<string>();
  /** Lanes with someone waiting, in the order they are served; a lane served moves to the back. */
  readonly #waiting = new Map<string, (() => void)[]>();

  constructor(atOnce: number) {
    this.#atOnce = atOnce;
  }

  /** Runs `hash` at the lane's next turn. */
  async run<T>(lane: string, hash: () => Promise<T>): Promise<T> {
    if (this.#running < this.#atOnce && !this.#busy.has(lane)) this.#start(lane);
    // The turn is handed over by #serve, already counted as running.
    else
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(lane);
        if (queue) queue.push(resolve);
        else this.#waiting.set(lane, [resolve]);
      });
    try {
      return await hash();
    } finally {
      this.#done++;
      this.#running--;
      this.#busy.delete(lane);
      this.#serve();
    }
  }

  /** Hashes finished since the start. */
  get done(): number {
    return this.#done;
  }

  /** The first lane waiting that is not hashing; at most `atOnce` are, so this looks at a few lanes only. */
  #nextLane(): string | undefined {
    for (const lane of this.#waiting.keys()) if (!this.#busy.has(lane)) return lane;
    return undefined;
  }

  #start(lane: string): void {
    this.#running++;
    this.#busy.add(lane);
  }

  #serve(): void {
    while (this.#running < this.#atOnce) {
      const lane = this.#nextLane();
      if (lane === undefined) return;
      const queue = this.#waiting.get(lane)!;
      this.#waiting.delete(lane);
      if (queue.length > 1) this.#waiting.set(lane, queue);
      this.#start(lane);
      queue.shift()!();
    }
  }
}
