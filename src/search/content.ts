import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseIso8601 } from '../text/iso-8601.ts';
import type { ContentSource } from './content-sources.ts';
import type { ContentDocument } from './index-fields.ts';
import { markdownToText } from './markdown-text.ts';

const CREATED_AT_MESSAGE = 'must be an ISO 8601 date, e.g. "2025-04-12"';

/** Front matter as written: `title` and `description` are plain text and are returned as they are. */
const FrontMatterSchema = z.object({
  title: z.string({ error: 'must be a non-empty string' }).refine((title) => title.trim() !== '', 'must be a non-empty string'),
  description: z.string({ error: 'must be a string' }),
  tags: z.array(z.string({ error: 'must be a list of strings' }).min(1, 'must not hold empty tags'), {
    error: 'must be a list of strings',
  }),
  createdAt: z.string({ error: CREATED_AT_MESSAGE }).refine((value) => parseIso8601(value) !== undefined, CREATED_AT_MESSAGE),
});

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Parses the sources (see content-sources.ts); throws an Error naming the file at fault. */
export function parseContent(sources: ContentSource[]): ContentDocument[] {
  return sources.map(parseDocument);
}

export function parseDocument({ path, contentType, fileSlug, text: source }: ContentSource): ContentDocument {
  const fail = (message: string) => new Error(`content ${path}: ${message}`);
  const match = FRONT_MATTER.exec(source);
  if (!match) throw fail('must start with front matter between --- lines');
  let raw: unknown;
  try {
    raw = parseYaml(match[1]!);
  } catch (error) {
    throw fail(`front matter is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const result = FrontMatterSchema.safeParse(raw ?? {});
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.join('.');
    throw fail(field ? `front matter field "${field}" ${issue.message}` : `front matter ${issue.message}`);
  }
  const id = `${contentType}/${fileSlug}`;
  return { id, slug: `/${id}`, ...result.data, body: markdownToText(source.slice(match[0].length)) };
}
