import { readFileSync } from 'node:fs';
import { normalize } from '../text/normalize.ts';
import { ProductSchema, type Product } from './product.ts';

/** A product with what the filter needs, computed once: the catalog never changes while we run. */
export interface CatalogEntry {
  product: Product;
  /** Normalised name, subtitle, brand, tags and description, one per line so no word spans two. */
  text: string;
  tags: ReadonlySet<string>;
}

export interface Catalog {
  entries: CatalogEntry[];
  bySlug: ReadonlyMap<string, Product>;
  /** Every tag in the catalog, unique and sorted. */
  availableTags: string[];
}

/** Reads and validates the snapshot. Throws an Error naming the product and field at fault. */
export function loadCatalog(path: string): Catalog {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`catalog ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!Array.isArray(raw)) throw new Error(`catalog ${path}: must be a JSON array of products`);
  return buildCatalog(
    raw.map((entry, index) => parseProduct(path, entry, index)),
    path,
  );
}

function parseProduct(path: string, entry: unknown, index: number): Product {
  const result = ProductSchema.safeParse(entry);
  if (result.success) return result.data;
  const slug = typeof entry === 'object' && entry !== null && 'slug' in entry ? ` (${JSON.stringify(entry.slug)})` : '';
  const issue = result.error.issues[0]!;
  throw new Error(`catalog ${path}: product #${index + 1}${slug}: field "${issue.path.join('.')}" ${issue.message}`);
}

export function buildCatalog(products: Product[], source = 'catalog'): Catalog {
  const bySlug = new Map<string, Product>();
  for (const product of products) {
    if (bySlug.has(product.slug)) throw new Error(`${source}: slug "${product.slug}" appears twice`);
    bySlug.set(product.slug, product);
  }
  const entries = products.map((product) => ({
    product,
    text: [product.name, product.subtitle ?? '', product.brand, ...product.tags, product.description].map(normalize).join('\n'),
    tags: new Set(product.tags),
  }));
  const availableTags = [...new Set(products.flatMap((p) => p.tags))].sort();
  return { entries, bySlug, availableTags };
}
