import { hash } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';
import { reply } from './reply.ts';
import { requestHeader } from './request.ts';

/** A JSON body serialized once, with its strong validator. */
export interface CachedJson {
  bytes: Uint8Array;
  etag: string;
}

export function serializeJson(value: unknown): CachedJson {
  const bytes = Buffer.from(JSON.stringify(value));
  // The one-shot hash: a Hash object per answer cost an uncached search a few µs more.
  return { bytes, etag: `"${hash('sha256', bytes, 'base64url').slice(0, 32)}"` };
}

/** A bounded map; the least recently used entry leaves first. */
export class LruCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  get(key: string): V | undefined {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, value);
  }

  getOrCompute(key: string, compute: () => V): V {
    let value = this.get(key);
    if (value === undefined) this.set(key, (value = compute()));
    return value;
  }
}

/** Answers with the cached bytes, or 304 when the client already holds them (If-None-Match). */
export function sendCachedJson(c: Context<AppEnv>, entry: CachedJson, headers: Record<string, string> = {}): Response {
  if (matchesEtag(requestHeader(c, 'if-none-match'), entry.etag)) return reply(c, 304, null, { ETag: entry.etag, ...headers });
  return reply(c, 200, entry.bytes, { 'Content-Type': 'application/json; charset=utf-8', ETag: entry.etag, ...headers });
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
