import { hash } from 'node:crypto';
import { RecentCache } from './recent-cache.ts';

/** A JSON body serialized once, with its strong validator. */
export interface CachedJson {
  bytes: Uint8Array;
  etag: string;
}

/**
 * Encodes into an array of its own, exactly as long as the text. Buffer.from would slice Node's
 * shared 64 KiB pool, and a kept answer of 2 KB would then keep the whole 64 KiB alive: caches of
 * such answers held several megabytes of pool for a few hundred kilobytes of answers. Encoding
 * into a reused scratch array and copying out what was written costs less than half of
 * TextEncoder.encode (a few µs for a search's answer of some 2 KB); an answer that may not fit is
 * encoded on its own.
 */
const utf8 = new TextEncoder();
const scratch = new Uint8Array(64 * 1024);

export function serializeJson(value: unknown): CachedJson {
  const text = JSON.stringify(value);
  // At most 3 bytes for a UTF-16 unit.
  const bytes = text.length * 3 <= scratch.length ? scratch.slice(0, utf8.encodeInto(text, scratch).written) : utf8.encode(text);
  // The one-shot hash: a Hash object per answer cost an uncached search a few µs more.
  return { bytes, etag: `"${hash('sha256', bytes, 'base64url').slice(0, 32)}"` };
}

/**
 * A cache's weight for a serialized answer kept under `key`, for a cache of `entries` answers that
 * may hold `maxBytes` between them: one, or one for every `maxBytes / entries` bytes of the answer
 * and its key, so that small answers are bounded by their count and large ones by their bytes (a
 * client asking for many distinct large pages cannot fill the memory).
 */
export function answerWeight(entries: number, maxBytes: number): (json: CachedJson, key: string) => number {
  const unit = maxBytes / entries;
  return (json, key) => Math.max(1, Math.ceil((json.bytes.byteLength + key.length) / unit));
}

/** An answer made of bytes already serialized, and its own headers. */
export interface PlainAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/** The cached bytes, or a 304 when `ifNoneMatch` names them. */
export function cachedJsonAnswer(entry: CachedJson, ifNoneMatch: string | undefined, headers: Record<string, string> = {}): PlainAnswer {
  if (matchesEtag(ifNoneMatch, entry.etag)) return { status: 304, body: null, headers: { ETag: entry.etag, ...headers } };
  return { status: 200, body: entry.bytes, headers: { 'Content-Type': 'application/json; charset=utf-8', ETag: entry.etag, ...headers } };
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** JSON a route answered with, and its own headers (not those every answer carries). */
export interface SentJson {
  json: CachedJson;
  headers: Record<string, string>;
}

/** The answers of a route declared `keptByUrl` (src/http/route.ts), by the URL as sent, bounded as answerWeight bounds them. */
export function answersByUrl(bounds: { entries: number; bytes: number }): RecentCache<string, SentJson> {
  const weigh = answerWeight(bounds.entries, bounds.bytes);
  return new RecentCache(bounds.entries, { weigh: (sent, url) => weigh(sent.json, url) });
}
