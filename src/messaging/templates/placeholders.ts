import type { FieldError } from '../../http/app-error.ts';
import { isStorable } from '../../records/storable-text.ts';
import { codePointLength } from '../../text/code-points.ts';
import { KIND_RULES, type TemplateKind } from '../kinds.ts';

// The template language: text with `{{name}}` markers (spaces inside the braces ignored), nothing
// else. Staff write templates, so a template can only name values, never run anything; a small
// parser is all it needs, and it lists every problem at once for the editor to show.

export type Segment = { text: string } | { placeholder: string };

/** A template's text in literal runs and placeholders, and what is wrong with it (empty when nothing). */
export function parseTemplate(source: string): { segments: Segment[]; problems: string[] } {
  const segments: Segment[] = [];
  const problems: string[] = [];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf('{{', at);
    if (open === -1) break;
    const close = source.indexOf('}}', open + 2);
    const reopen = source.indexOf('{{', open + 2);
    if (close === -1 || (reopen !== -1 && reopen < close)) {
      problems.push(`Unbalanced {{ at character ${codePointLength(source.slice(0, open)) + 1}: a placeholder must end with }}`);
      segments.push({ text: source.slice(at, open + 2) });
      at = open + 2;
      continue;
    }
    if (open > at) segments.push({ text: source.slice(at, open) });
    segments.push({ placeholder: source.slice(open + 2, close).trim() });
    at = close + 2;
  }
  if (at < source.length) segments.push({ text: source.slice(at) });
  return { segments, problems };
}

const LENGTHS = { subject: 200, body: 20_000 } as const;

/**
 * Every problem of a template of `kind`, each naming its field: lengths, a subject of
 * more than one line, unbalanced or unknown placeholders (names match exactly), a required one
 * missing from the body, and turning off a kind that must always be sent.
 */
export function templateProblems(kind: TemplateKind, template: { subject: string; body: string; enabled?: boolean }): FieldError[] {
  const rules = KIND_RULES[kind];
  const known = new Set(rules.placeholders.map((p) => p.name));
  const problems: FieldError[] = [];
  for (const field of ['subject', 'body'] as const) {
    const text = template[field];
    const length = codePointLength(text);
    if (length < 1 || length > LENGTHS[field])
      problems.push({ field, message: `${field} must be 1–${LENGTHS[field].toLocaleString('en')} characters (it has ${length})` });
    if (!isStorable(text)) problems.push({ field, message: `${field} must not contain NUL` });
    const parsed = parseTemplate(text);
    problems.push(...parsed.problems.map((message) => ({ field, message })));
    const unknown = new Set(parsed.segments.flatMap((s) => ('placeholder' in s && !known.has(s.placeholder) ? [s.placeholder] : [])));
    problems.push(...[...unknown].map((name) => ({ field, message: `Unknown placeholder: {{${name}}}` })));
    if (field === 'body') {
      const used = new Set(parsed.segments.flatMap((s) => ('placeholder' in s ? [s.placeholder] : [])));
      for (const p of rules.placeholders)
        if (p.required && !used.has(p.name)) problems.push({ field, message: `Missing required placeholder: {{${p.name}}}` });
    }
  }
  if (/[\r\n\u2028\u2029]/.test(template.subject)) problems.push({ field: 'subject', message: 'subject must be one line' });
  if (template.enabled === false && !rules.mayDisable) problems.push({ field: 'enabled', message: `${kind} cannot be disabled` });
  return problems;
}
