/**
 * Values used recently, up to a capacity, in two generations: new and found values go into the young
 * one; at half the capacity it becomes the old one and the old one before it is forgotten whole; a
 * value found in the old one moves back. Nearly an LRU at a fixed cost per use (a Map re-added on
 * every use leaves holes its iteration walks past). Each value weighs `weigh(value, key)`; `forget`
 * hears of every value that leaves. With `keepOnSecondUse`, a computed value is kept only when its key
 * was asked for before (remembered by hash in a fixed table, KeysSeen): keys asked once fill nothing,
 * and leave V8's collector nothing to promote (docs/performance.md, Memory).
 */ export class RecentCache<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();
  #youngWeight = 0;
  readonly #half: number;
  readonly #weigh: (value: V, key: K) => number;
  readonly #forget: ((value: V) => void) | undefined;
  readonly #asked: KeysSeen | undefined;

  constructor(
    capacity: number,
    options: {
      weigh?: (value: V, key: K) => number;
      forget?: (value: V) => void;
      keepOnSecondUse?: K extends string ? number : never;
    } = {},
  ) {
    this.#half = Math.max(1, capacity / 2);
    this.#weigh = options.weigh ?? (() => 1);
    this.#forget = options.forget;
    this.#asked = options.keepOnSecondUse ? new KeysSeen(options.keepOnSecondUse) : undefined;
  }

  get(key: K): V | undefined {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    const old = this.#old.get(key);
    if (old === undefined) return undefined;
    this.#old.delete(key);
    this.#add(key, old);
    return old;
  }

  set(key: K, value: V): void {
    const young = this.#young.get(key);
    if (young !== undefined) this.#youngWeight -= this.#weigh(young, key);
    const old = this.#old.get(key);
    if (old !== undefined) this.#old.delete(key);
    const replaced = young ?? old;
    if (replaced !== undefined && replaced !== value) this.#forget?.(replaced);
    this.#add(key, value);
  }

  getOrCompute(key: K, compute: () => V): V {
    let value = this.get(key);
    if (value !== undefined) return value;
    value = compute();
    if (!this.#asked || this.#asked.seenBefore(key as K & string)) this.#add(key, value);
    return value;
  }

  #add(key: K, value: V): void {
    this.#young.set(key, value);
    this.#youngWeight += this.#weigh(value, key);
    if (this.#youngWeight < this.#half) return;
    if (this.#forget) for (const dropped of this.#old.values()) this.#forget(dropped);
    this.#old = this.#young;
    this.#young = new Map();
    this.#youngWeight = 0;
  }
}

/**
 * Up to `max` distinct strings, remembered by a 32-bit hash in an open-addressed table at most half
 * full, and forgotten together when it reaches `max`. Two strings of the same hash count as one,
 * about once in a million: a value is then kept on its first use, which costs only its room.
 */
export class KeysSeen {
  readonly #slots: Uint32Array;
  readonly #max: number;
  #count = 0;

  constructor(max: number) {
    this.#max = max;
    this.#slots = new Uint32Array(2 ** Math.ceil(Math.log2(2 * max + 1)));
  }

  /** True when `key` was seen since the table was last forgotten; otherwise remembers it. */
  seenBefore(key: string): boolean {
    const hash = hashString(key);
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    for (let found = this.#slots[slot]!; found !== 0; found = this.#slots[slot]!) {
      if (found === hash) return true;
      slot = (slot + 1) & mask;
    }
    if (this.#count >= this.#max) {
      this.#slots.fill(0);
      this.#count = 0;
      slot = hash & mask;
    }
    this.#slots[slot] = hash;
    this.#count += 1;
    return false;
  }
}

/** FNV-1a over the UTF-16 units, then mixed so that its low bits (the slot) depend on every unit; never 0. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0 || 1;
}
