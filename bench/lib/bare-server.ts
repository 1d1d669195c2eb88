import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, type ChildServer } from './child-server.ts';

// The baseline: a bare node:http server answering each recorded URL with the very bytes and headers
// tenpo sent.

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

/** The headers of a search answer the baseline sends as tenpo sent them. */
export const SEARCH_HEADERS = [
  'content-type',
  'content-length',
  'etag',
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-request-id',
];

/** An answer as the baseline replays it, with the headers named in `kept`. */
export async function recordResponse(response: Response, kept: string[]): Promise<RecordedResponse> {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => kept.includes(name)));
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
}

export function startBareServer(responses: Record<string, RecordedResponse>, port: number): Promise<ChildServer> {
  const file = join(tmpdir(), `tenpo-bare-${process.pid}-${port}.json`);
  writeFileSync(file, JSON.stringify(responses));
  return startChildServer(import.meta.filename, [file, String(port)], port);
}

if (process.argv[1] === import.meta.filename) {
  const { readFileSync } = await import('node:fs');
  const recorded = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, RecordedResponse>;
  const prepared = new Map(
    Object.entries(recorded).map(([url, r]) => [url, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') }]),
  );
  createServer((req, res) => {
    const hit = prepared.get(req.url ?? '');
    if (!hit) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(hit.status, hit.headers).end(hit.body);
  }).listen(Number(process.argv[3]), '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => process.exit(0));
}
