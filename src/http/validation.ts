import type { z } from 'zod';
import type { FieldError } from './app-error.ts';

/** One entry per field at fault (its first problem), in the order the schema reported them. */
export function detailsFrom(issues: z.core.$ZodIssue[]): FieldError[] {
  const details = new Map<string, string>();
  for (const issue of issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
    if (!details.has(field)) details.set(field, issue.message);
  }
  return [...details].map(([field, message]) => ({ field, message }));
}
