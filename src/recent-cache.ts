/**
 * Values used recently, up to a capacity, in two generations: new and found values go into the
 * young one; when it reaches half the capacity it becomes the old one, and the old one before it
 * is forgotten whole. A value found in the old generation moves back to the young one, so what is
 * used at least once in every half capacity of additions stays.
 *
 * Nearly what a least-recently-used list keeps, at a fixed cost per use: a Map whose first entry is
 * deleted and re-added on every use leaves a hole for each, which its iteration then walks past,
 * and that cost grew with the traffic (bench/search-load.ts).
 *
 * Each value weighs `weigh(value, key)` (1 by default) against the capacity; `forget` is told of every
 * value that leaves. With `keepOnSecondUse`, a value getOrCompute computes is kept only when its key
 * was asked for before (among the last `keepOnSecondUse` keys computed and not kept): a stream of
 * keys asked once each then fills nothing, and every value it would have kept, young when added,
 * no longer outlives V8's young generation to be copied and promoted by its collector.
 */
export class RecentCache<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();
  #youngWeight = 0;
  readonly #half: number;
  readonly #weigh: (value: V, key: K) => number;
  readonly #forget: ((value: V) => void) | undefined;
  readonly #askedOnce = new Set<K>();
  readonly #askedOnceMax: number;

  constructor(
    capacity: number,
    options: { weigh?: (value: V, key: K) => number; forget?: (value: V) => void; keepOnSecondUse?: number } = {},
  ) {
    this.#half = Math.max(1, capacity / 2);
    this.#weigh = options.weigh ?? (() => 1);
    this.#forget = options.forget;
    this.#askedOnceMax = options.keepOnSecondUse ?? 0;
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
    if (this.#askedOnceMax === 0 || this.#askedOnce.delete(key)) this.#add(key, value);
    else {
      if (this.#askedOnce.size >= this.#askedOnceMax) this.#askedOnce.clear();
      this.#askedOnce.add(key);
    }
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
