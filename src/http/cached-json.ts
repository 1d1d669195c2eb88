import { createHash } from 'node:crypto';
import type { Context } from 'hono';

/** A JSON body serialized once, with its strong validator. */
export interface CachedJson {
  bytes: Uint8Array;
  etag: string;
}

export function serializeJson(value: unknown): CachedJson {
  const bytes = Buffer.from(JSON.stringify(value));
  return { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"` };
}

/**
 * A bounded map from a normalised request to its serialized answer, for answers that depend on the
 * request alone. Least recently used entries leave first.
 */
export class JsonCache {
  readonly #entries = new Map<string, CachedJson>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  get(key: string, compute: () => unknown): CachedJson {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const entry = serializeJson(compute());
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, entry);
    return entry;
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Answers with the cached bytes, or 304 when the client already holds them (If-None-Match). */
export function sendCachedJson(c: Context, entry: CachedJson, headers: Record<string, string> = {}): Response {
  c.header('ETag', entry.etag);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (matchesEtag(c.req.header('if-none-match'), entry.etag)) return c.body(null, 304);
  c.header('Content-Type', 'application/json; charset=utf-8');
  return c.body(entry.bytes as Uint8Array<ArrayBuffer>, 200);
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
