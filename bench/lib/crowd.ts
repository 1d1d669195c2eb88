import { request } from 'node:http';

// An open crowd: requests sent at a fixed rate whatever the answers, each on a connection of its
// own (every customer arrives on their own, unlike autocannon's connections, which wait for an
// answer before sending again), with the time each was sent and answered; and /healthz asked beside
// it, as a load balancer does.

export interface CrowdRequest {
  /** The instance it goes to. */
  url: string;
  path: string;
  body: string;
  headers?: Record<string, string>;
}

export interface CrowdAnswer {
  /** Milliseconds from the crowd's start to the request's last byte written, and to its answer's last byte read. */
  sentMs: number;
  answeredMs: number;
  /** 0 when no answer came (the connection failed). */
  status: number;
  body: string;
}

/** Sends `requests` in order, `perSecond` of them a second, and answers each one's outcome, in the same order. */
export async function sendCrowd(requests: CrowdRequest[], perSecond: number): Promise<CrowdAnswer[]> {
  const start = performance.now();
  const answers: Promise<CrowdAnswer>[] = [];
  for (let i = 0; i < requests.length; i++) {
    const due = (i * 1000) / perSecond - (performance.now() - start);
    // Timers fire late on a busy machine: whatever is due goes at once, so the rate holds on average.
    if (due > 1) await new Promise((resolve) => setTimeout(resolve, due));
    answers.push(post(requests[i]!, start));
  }
  return Promise.all(answers);
}

function post(crowdRequest: CrowdRequest, start: number): Promise<CrowdAnswer> {
  return new Promise((resolve) => {
    let sentMs = 0;
    const failed = () => resolve({ sentMs, answeredMs: performance.now() - start, status: 0, body: '' });
    const outgoing = request(
      crowdRequest.url + crowdRequest.path,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...crowdRequest.headers } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ sentMs, answeredMs: performance.now() - start, status: response.statusCode ?? 0, body }));
        response.on('error', failed);
      },
    );
    outgoing.on('error', failed);
    outgoing.end(crowdRequest.body, () => (sentMs = performance.now() - start));
  });
}

/** Asks each url's /healthz every `everyMs` until stopped; answers the times taken, ms. */
export function probeHealth(urls: string[], everyMs: number): { stop(): Promise<number[]> } {
  const times: Promise<number>[] = [];
  const timer = setInterval(() => {
    for (const url of urls) times.push(timedGet(`${url}/healthz`));
  }, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      return Promise.all(times);
    },
  };
}

function timedGet(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = () => resolve(performance.now() - started);
    request(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', done);
    })
      .on('error', done)
      .end();
  });
}
