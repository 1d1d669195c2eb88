import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coalesce } from './coalesce.ts';

/** A computation whose runs are counted and finished by hand. */
function controlled() {
  const runs: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  const compute = () => new Promise<number>((resolve, reject) => runs.push({ resolve, reject }));
  return { runs, compute };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

test('calls made while a run is under way share the next run, not the one that started before them', async () => {
  const { runs, compute } = controlled();
  const shared = coalesce(compute);
  const first = shared();
  const [second, third] = [shared(), shared()];
  assert.equal(runs.length, 1);
  runs[0]!.resolve(1);
  assert.equal(await first, 1);
  await tick();
  assert.equal(runs.length, 2, 'one more run for everyone who asked during the first');
  runs[1]!.resolve(2);
  assert.deepEqual(await Promise.all([second, third]), [2, 2]);
});

test('with nothing under way, each call runs', async () => {
  const { runs, compute } = controlled();
  const shared = coalesce(compute);
  const a = shared();
  runs[0]!.resolve(1);
  await a;
  const b = shared();
  assert.equal(runs.length, 2);
  runs[1]!.resolve(2);
  assert.equal(await b, 2);
});

test('a failed run fails its callers only; the next run goes ahead', async () => {
  const { runs, compute } = controlled();
  const shared = coalesce(compute);
  const failing = shared();
  const waiting = shared();
  runs[0]!.reject(new Error('database down'));
  await assert.rejects(failing, /database down/);
  await tick();
  runs[1]!.resolve(7);
  assert.equal(await waiting, 7);
});
