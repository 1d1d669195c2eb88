import type { TenpoClient } from '../../client/tenpo-client.ts';

export interface ProductOption {
  slug: string;
  name: string;
  /** null: the catalog gives no price (emails say 価格未定). */
  price: number | null;
}

/** The catalog's products by slug, read once per sign-in: the catalog only changes with a deployment. */
export async function loadProducts(api: TenpoClient): Promise<Map<string, ProductOption>> {
  const products = new Map<string, ProductOption>();
  for (let page = 1, pages = 1; page <= pages; page++) {
    const answer = await api.call('/api/products', { page: String(page), per_page: '200' });
    for (const product of answer.products) products.set(product.slug, { slug: product.slug, name: product.name, price: product.price });
    pages = answer.totalPages;
  }
  return products;
}

/** A product's name for display; the slug itself when the catalog no longer has it. */
export function productName(products: Map<string, ProductOption>, slug: string): string {
  return products.get(slug)?.name ?? slug;
}
