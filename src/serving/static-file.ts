import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { matchesEtag } from './cached-json.ts';

/** A file served to browsers (a page, a script, a stylesheet), held in memory. */
export interface StaticFile {
  /** The name it is served under: with a content hash before the extension when `hashed`. */
  name: string;
  bytes: Buffer;
  contentType: string;
  etag: string;
  /** Named by its content, so it can be cached for good: a change makes a new name. */
  hashed: boolean;
  /** The gzip form, made on first request off the event loop (the reference's bundle is 1.7 MB). */
  gzipped?: Promise<Buffer>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Images are compressed already; everything textual is worth gzipping. */
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;

/** Files under this size are sent as they are: gzip saves less than its own overhead. */
const MIN_COMPRESSED_BYTES = 1024;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * A file for browsers. With `hashed`, `app.js` is served as `app.<hash>.js` and may be cached for a
 * year; without, it keeps its name and is revalidated on every use (ETag, 304).
 */
export function staticFile(name: string, content: string | Buffer, options: { hashed: boolean; contentType?: string }): StaticFile {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const hash = createHash('sha256').update(bytes).digest('hex');
  const dot = name.lastIndexOf('.');
  const extension = dot === -1 ? '' : name.slice(dot);
  const contentType = options.contentType ?? TYPES[extension];
  if (!contentType) throw new Error(`no content type known for ${name}`);
  return {
    name: options.hashed ? `${name.slice(0, dot)}.${hash.slice(0, 12)}${extension}` : name,
    bytes,
    contentType,
    etag: `"${hash.slice(0, 32)}"`,
    hashed: options.hashed,
  };
}

/** A file a build named by its content (`main.4KX7TQ2B.js`, bundle.ts): served as named, cached for good. */
export function builtFile(name: string, content: Buffer): StaticFile {
  return { ...staticFile(name, content, { hashed: false }), hashed: true };
}

/** A file's answer, as `sendStaticFile` (src/http/send-file.ts) sends it. */
export interface FileAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Buffer | null;
}

/**
 * The file with its caching headers, gzipped when the client accepts it, or 304 when the client's
 * copy is current. The gzip form has its own validator, as RFC 9110 asks of a different
 * representation.
 */
export async function fileAnswer(
  file: StaticFile,
  request: { acceptEncoding: string | undefined; ifNoneMatch: string | undefined },
  extraHeaders: Record<string, string> = {},
): Promise<FileAnswer> {
  const compressible = COMPRESSIBLE.test(file.contentType) && file.bytes.length >= MIN_COMPRESSED_BYTES;
  const useGzip = compressible && acceptsGzip(request.acceptEncoding);
  const etag = useGzip ? `${file.etag.slice(0, -1)}-gzip"` : file.etag;
  const headers: Record<string, string> = {
    'Cache-Control': file.hashed ? IMMUTABLE : REVALIDATE,
    ETag: etag,
    ...(compressible ? { Vary: 'Accept-Encoding' } : {}),
    ...extraHeaders,
  };
  if (matchesEtag(request.ifNoneMatch, etag)) return { status: 304, headers, body: null };
  if (!useGzip) return { status: 200, headers: { 'Content-Type': file.contentType, ...headers }, body: file.bytes };
  file.gzipped ??= gzip(file.bytes);
  return { status: 200, headers: { 'Content-Type': file.contentType, 'Content-Encoding': 'gzip', ...headers }, body: await file.gzipped };
}

/**
 * The best gzip of `bytes`, made off the event loop. node:zlib is loaded here, on the first gzip, not
 * at start: nothing a start serves is gzipped, and loading it is a few milliseconds of a start.
 */
function gzip(bytes: Buffer): Promise<Buffer> {
  const zlib = process.getBuiltinModule('node:zlib');
  return promisify(zlib.gzip)(bytes, { level: zlib.constants.Z_BEST_COMPRESSION });
}

/** Whether `Accept-Encoding` allows gzip (a `q=0` refuses it). */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
