import type { ContentDocument } from '../../src/search/index-fields.ts';

/** A content page for search tests: `id` as its title and slug, empty fields unless given. */
export const contentDocument = (id: string, fields: Partial<ContentDocument>): ContentDocument => ({
  id,
  slug: `/${id}`,
  title: id,
  description: '',
  tags: [],
  createdAt: '2025-01-01',
  body: '',
  ...fields,
});
