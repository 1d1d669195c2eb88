import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadCatalog } from './catalog.ts';

const dir = mkdtempSync(join(tmpdir(), 'tenpo-catalog-'));
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const valid = {
  slug: 'kumo-vco',
  name: 'Kumo VCO',
  brand: 'kumo',
  description: 'VCO',
  imgSrc: '/i.webp',
  tags: ['vco'],
  spec: { width: '10HP' },
};

test('the sample catalog loads', () => {
  const catalog = loadCatalog('data/products.json');
  assert.ok(catalog.entries.length >= 60);
  assert.equal(catalog.bySlug.size, catalog.entries.length);
});

test('nullable fields may be left out and read as null; aspectRatio defaults to 100', () => {
  const [entry] = loadCatalog(write('minimal.json', [valid])).entries;
  assert.deepEqual(entry!.product, {
    ...valid,
    subtitle: null,
    detailHref: null,
    price: null,
    spec: { width: '10HP' },
    blurhash: null,
    aspectRatio: 100,
  });
});

test('a bad product is named with its field', () => {
  const path = write('bad.json', [valid, { ...valid, slug: 'second', price: 'free' }]);
  assert.throws(() => loadCatalog(path), /product #2 \("second"\): field "price"/);
  assert.throws(() => loadCatalog(write('width.json', [{ ...valid, spec: { width: '10 hp' } }])), /field "spec\.width"/);
  assert.throws(() => loadCatalog(write('slug.json', [{ ...valid, slug: 'Kumo VCO' }])), /field "slug"/);
});

test('a repeated slug, a non-array and broken JSON are refused', () => {
  assert.throws(() => loadCatalog(write('dupe.json', [valid, valid])), /slug "kumo-vco" appears twice/);
  assert.throws(() => loadCatalog(write('object.json', { products: [] })), /must be a JSON array/);
  assert.throws(() => loadCatalog(write('broken.json', '[{')), /broken\.json/);
  assert.throws(() => loadCatalog(join(dir, 'missing.json')), /missing\.json/);
});
