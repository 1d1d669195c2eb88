import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { createJsonPoster } from './http-post.ts';

// The receiver runs in a worker thread, so it keeps time while this thread is busy. It answers each
// request with 200 and drops a connection idle for 100 ms without saying so beforehand (no
// Keep-Alive header, as many proxies do), and counts the requests and connections it saw.
function runReceiver(): void {
  const { createServer } = process.getBuiltinModule('node:net');
  const { parentPort } = process.getBuiltinModule('node:worker_threads');
  let requests = 0;
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    let text = '';
    let idle: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: *(\d+)/i.exec(text)?.[1] ?? 0);
      if (head < 0 || text.length < head + 4 + length) return;
      text = text.slice(head + 4 + length);
      requests++;
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
      clearTimeout(idle);
      idle = setTimeout(() => socket.destroy(), 100);
    });
  });
  server.listen(0, '127.0.0.1', () => parentPort!.postMessage({ port: (server.address() as { port: number }).port }));
  parentPort!.on('message', () => parentPort!.postMessage({ requests, connections }));
}

test('a post on a kept-open connection the receiver closed while this process was busy goes again on a new one, once', async () => {
  const receiver = new Worker(`(${runReceiver})()`, { eval: true });
  try {
    const [{ port }] = (await once(receiver, 'message')) as [{ port: number }];
    const poster = createJsonPoster();
    const url = `http://127.0.0.1:${port}/hook`;
    await poster.post(url, { n: 1 });
    // Busy past the receiver's idle timeout: the connection's close has not been read when the next post goes out on it.
    const until = Date.now() + 400;
    while (Date.now() < until);
    await poster.post(url, { n: 2 });
    poster.close();
    receiver.postMessage('count');
    const [seen] = (await once(receiver, 'message')) as [{ requests: number; connections: number }];
    assert.deepEqual(seen, { requests: 2, connections: 2 });
  } finally {
    await receiver.terminate();
  }
});
