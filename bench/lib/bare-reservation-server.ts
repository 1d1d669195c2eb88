import { createServer } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import { uuidV7 } from '../../src/db/time-ordered-id.ts';
import { startChildServer, type ChildServer } from './child-server.ts';

// The baseline for POST /api/reservation: bare node:http that parses the same JSON and inserts the
// same row with node:sqlite, one transaction per request, and nothing else: no framework, no
// validation beyond types, no outbox. `synchronous` FULL gives
// it tenpo's durability (the commit is on disk before the answer); NORMAL does not wait for the disk.

export function startBareReservationServer(databasePath: string, port: number, synchronous: 'FULL' | 'NORMAL'): Promise<ChildServer> {
  return startChildServer(import.meta.filename, [databasePath, String(port), synchronous], port);
}

if (process.argv[1] === import.meta.filename) {
  const db = new DatabaseSync(process.argv[2]!);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${process.argv[4] === 'FULL' ? 'FULL' : 'NORMAL'}`);
  db.exec(`create table if not exists reservations (id text primary key, name text not null, email text not null, product_slug text not null,
    status text not null, notes text not null default '', created_at text not null, responded_at text, archived_at text)`);
  const insert = db.prepare('insert into reservations (id, name, email, product_slug, status, created_at) values (?, ?, ?, ?, ?, ?)');
  createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      if (typeof body.name !== 'string' || typeof body.email !== 'string' || typeof body.productSlug !== 'string') {
        res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' }).end('{"success":false}');
        return;
      }
      const id = `res_${uuidV7()}`;
      insert.run(id, body.name.trim(), body.email.toLowerCase(), body.productSlug, 'pending', new Date().toISOString());
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ success: true, reservationId: id }));
    });
  }).listen(Number(process.argv[3]), '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => process.exit(0));
}
