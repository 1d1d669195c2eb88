import type { FieldError } from '../../http/app-error.ts';
import { isStorable } from '../../text/storable-text.ts';
import { codePointLength } from '../../text/code-points.ts';
import { KIND_RULES, type TemplateKind } from '../kinds.ts';

// The template language: text with `{{name}}` markers (spaces inside the braces ignored), nothing
// else. Staff write templates, so a template can only name values, never run anything; a small
// parser is all it needs, and it lists every problem at once for the editor to show.

export type Segment = { text: string } | { placeholder: string };

/**
 * A template's text in literal runs and placeholders, and where a `{{` is left unclosed (the
 * character's position, counted from 1; empty when none is). Linear in the text's length, whatever
 * it holds: each search resumes where the last one stopped, and positions are counted as it goes
 * (a body of 9,000 `{{` once took 378 ms).
 */
export function parseTemplate(source: string): { segments: Segment[]; unbalanced: number[] } {
  const segments: Segment[] = [];
  const unbalanced: number[] = [];
  let at = 0;
  let close = -2;
  // Code points before `counted`, so a position is counted once, not from the start each time.
  let counted = 0;
  let position = 0;
  const positionOf = (index: number) => {
    position += codePointLength(source.slice(counted, index));
    counted = index;
    return position + 1;
  };
  for (let open = source.indexOf('{{'); open !== -1; open = source.indexOf('{{', at)) {
    if (close !== -1 && close < open + 2) close = source.indexOf('}}', open + 2);
    const reopen = source.indexOf('{{', open + 2);
    if (close === -1 || (reopen !== -1 && reopen < close)) {
      unbalanced.push(positionOf(open));
      segments.push({ text: source.slice(at, open + 2) });
      at = open + 2;
      continue;
    }
    if (open > at) segments.push({ text: source.slice(at, open) });
    segments.push({ placeholder: source.slice(open + 2, close).trim() });
    at = close + 2;
  }
  if (at < source.length) segments.push({ text: source.slice(at) });
  return { segments, unbalanced };
}

const LENGTHS = { subject: 200, body: 20_000 } as const;

/** Unknown placeholder names a field's problems list at most. */
const MAX_UNKNOWN_REPORTED = 10;

/**
 * A problem of a template, as data, naming its field: the service says it in English in its 400's
 * details (problemText), and the console in Japanese from the same data, never from the English.
 */
export type TemplateProblem =
  | { field: 'subject' | 'body'; type: 'length'; max: number; length: number }
  | { field: 'subject' | 'body'; type: 'nul' }
  | { field: 'subject' | 'body'; type: 'unbalanced'; at: number }
  | { field: 'subject' | 'body'; type: 'unknownPlaceholder'; name: string }
  | { field: 'body'; type: 'missingPlaceholder'; name: string }
  | { field: 'subject'; type: 'multiline' }
  | { field: 'enabled'; type: 'alwaysSent'; kind: TemplateKind };

/**
 * Every problem of a template of `kind`: lengths, a subject of more than one line, unbalanced or
 * unknown placeholders (names match exactly), a required one missing from the body, and turning off
 * a kind that must always be sent.
 */
export function findTemplateProblems(
  kind: TemplateKind,
  template: { subject: string; body: string; enabled?: boolean },
): TemplateProblem[] {
  const rules = KIND_RULES[kind];
  const known = new Set(rules.placeholders.map((p) => p.name));
  const problems: TemplateProblem[] = [];
  for (const field of ['subject', 'body'] as const) {
    const text = template[field];
    const length = codePointLength(text);
    if (length < 1 || length > LENGTHS[field]) problems.push({ field, type: 'length', max: LENGTHS[field], length });
    if (!isStorable(text)) problems.push({ field, type: 'nul' });
    const parsed = parseTemplate(text);
    // The first unclosed `{{` of a field, and its first few unknown names: what staff can act on,
    // and an answer that stays small however many a text holds.
    if (parsed.unbalanced.length > 0) problems.push({ field, type: 'unbalanced', at: parsed.unbalanced[0]! });
    const unknown = new Set(parsed.segments.flatMap((s) => ('placeholder' in s && !known.has(s.placeholder) ? [s.placeholder] : [])));
    problems.push(...[...unknown].slice(0, MAX_UNKNOWN_REPORTED).map((name) => ({ field, type: 'unknownPlaceholder' as const, name })));
    if (field === 'body') {
      const used = new Set(parsed.segments.flatMap((s) => ('placeholder' in s ? [s.placeholder] : [])));
      for (const p of rules.placeholders)
        if (p.required && !used.has(p.name)) problems.push({ field, type: 'missingPlaceholder', name: p.name });
    }
  }
  if (/[\r\n\u2028\u2029]/.test(template.subject)) problems.push({ field: 'subject', type: 'multiline' });
  if (template.enabled === false && !rules.mayDisable) problems.push({ field: 'enabled', type: 'alwaysSent', kind });
  return problems;
}

/** The problems as the API's 400 `Invalid template` lists them: each field with an English sentence. */
export function templateProblems(kind: TemplateKind, template: { subject: string; body: string; enabled?: boolean }): FieldError[] {
  return findTemplateProblems(kind, template).map((problem) => ({ field: problem.field, message: problemText(problem) }));
}

function problemText(problem: TemplateProblem): string {
  switch (problem.type) {
    case 'length':
      return `${problem.field} must be 1–${problem.max.toLocaleString('en')} characters (it has ${problem.length})`;
    case 'nul':
      return `${problem.field} must not contain NUL`;
    case 'unbalanced':
      return `Unbalanced {{ at character ${problem.at}: a placeholder must end with }}`;
    case 'unknownPlaceholder':
      return `Unknown placeholder: {{${problem.name}}}`;
    case 'missingPlaceholder':
      return `Missing required placeholder: {{${problem.name}}}`;
    case 'multiline':
      return 'subject must be one line';
    case 'alwaysSent':
      return `${problem.kind} cannot be disabled`;
  }
}
