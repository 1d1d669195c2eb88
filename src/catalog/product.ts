import { z } from 'zod';

/** Product slugs, as the catalog defines them and the public forms must quote them. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A catalog entry, exactly as the API returns it. In the snapshot file the nullable fields may be
 * left out (they read as null) and `aspectRatio` defaults to 100.
 */
export const ProductSchema = z
  .object({
    slug: z.string().regex(SLUG_PATTERN, 'must be lowercase letters and digits separated by single hyphens'),
    name: z.string().min(1),
    subtitle: z.string().nullable().default(null),
    brand: z.string().min(1),
    description: z.string(),
    imgSrc: z.string().min(1),
    detailHref: z.string().nullable().default(null),
    tags: z.array(z.string().min(1)),
    price: z.number().nonnegative().nullable().default(null).describe('Price in JPY'),
    spec: z.looseObject({
      width: z
        .string()
        .regex(/^\d+HP$/, "must look like '<n>HP'")
        .nullable()
        .default(null)
        .describe('Width in HP; null for non-eurorack products'),
    }),
    blurhash: z.string().nullable().default(null),
    aspectRatio: z.number().positive().default(100).describe('Image aspect ratio as a percentage; 100 is square'),
  })
  .meta({ id: 'Product' });

export type Product = z.output<typeof ProductSchema>;
