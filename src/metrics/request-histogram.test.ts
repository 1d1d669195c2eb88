import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { RequestHistogram } from './request-histogram.ts';

/** Exposition lines with each line's labels in name order, lines sorted: what a scraper parses, whatever the order. */
function canonical(text: string): string[] {
  return text
    .trim()
    .split('\n')
    .map((line) =>
      line.replace(
        /\{(.*)\}/,
        (_, labels: string) =>
          `{${labels
            .split(/,(?=\w+=")/)
            .sort()
            .join(',')}}`,
      ),
    )
    .sort();
}

test('exposes exactly what prom-client’s own Histogram would for the same observations', async () => {
  const buckets = [0.001, 0.01, 0.1, 1];
  const ours = new Registry();
  const theirs = new Registry();
  const histogram = new RequestHistogram({ name: 'requests_seconds', help: 'Requests.', buckets });
  ours.registerMetric(histogram as unknown as Histogram);
  const reference = new Histogram({
    name: 'requests_seconds',
    help: 'Requests.',
    labelNames: ['route', 'method', 'status'],
    buckets,
    registers: [theirs],
  });

  const observations: [string, string, number, number][] = [
    ['/api/products', 'GET', 200, 0.0004],
    ['/api/products', 'GET', 200, 0.001],
    ['/api/products', 'GET', 200, 0.0011],
    ['/api/products', 'HEAD', 200, 0.05],
    ['/api/reservation', 'POST', 429, 0.002],
    ['unmatched', 'GET', 404, 3],
    ['/api/products', 'GET', 304, 1],
  ];
  for (const [route, method, status, seconds] of observations) {
    histogram.observe(route, method, status, seconds);
    reference.observe({ route, method, status }, seconds);
  }
  assert.deepEqual(canonical(await ours.metrics()), canonical(await theirs.metrics()));
});
