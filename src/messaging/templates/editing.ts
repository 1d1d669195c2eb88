import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import type { FieldError } from '../../http/app-error.ts';
import { isTemplateKind, KIND_RULES, TEMPLATE_KINDS, type Placeholder, type TemplateKind } from '../kinds.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';
import { findTemplateProblems, templateProblems } from './placeholders.ts';
import { currentVersion, currentVersions, findVersion, insertNextVersion, listVersions, type TemplateVersion } from './store.ts';

// Staff's edits of the customer emails: every saved change is a new version, and old versions are kept.

/** A template as the admin routes answer it. */
export interface Template {
  kind: TemplateKind;
  subject: string;
  body: string;
  enabled: boolean;
  version: number;
  updatedAt: string;
  isDefault: boolean;
  placeholders: Placeholder[];
}

export type TemplateRefusal =
  | { ok: false; reason: 'templateNotFound' }
  | { ok: false; reason: 'versionNotFound' }
  | { ok: false; reason: 'invalid'; details: FieldError[] }
  | { ok: false; reason: 'changed' };

export function templateOf(version: TemplateVersion): Template {
  const defaults = DEFAULT_TEMPLATES[version.kind];
  return {
    kind: version.kind,
    subject: version.subject,
    body: version.body,
    enabled: version.enabled,
    version: version.version,
    updatedAt: version.created_at,
    isDefault: version.enabled && version.subject === defaults.subject && version.body === defaults.body,
    placeholders: KIND_RULES[version.kind].placeholders,
  };
}

/** Every kind's current template, in the contract's order. */
export async function listTemplates(database: Database): Promise<Template[]> {
  const byKind = new Map((await currentVersions(database.db)).map((v) => [v.kind, v]));
  return TEMPLATE_KINDS.map((kind) => templateOf(byKind.get(kind)!));
}

/**
 * Saves a new version from the current one and the given changes, when the result is valid and,
 * with `expectedVersion`, no other version was saved since the one the change was made from.
 */
export async function updateTemplate(
  database: Database,
  change: { kind: string; subject?: string; body?: string; enabled?: boolean; expectedVersion?: number },
): Promise<{ ok: true; template: Template } | TemplateRefusal> {
  if (!isTemplateKind(change.kind)) return { ok: false, reason: 'templateNotFound' };
  const kind = change.kind;
  return saveVersion(
    database,
    kind,
    (current) => ({
      subject: change.subject ?? current.subject,
      body: change.body ?? current.body,
      enabled: change.enabled ?? current.enabled,
    }),
    change.expectedVersion,
  );
}

/**
 * A new version equal to an old one (its subject, body and enabled). A version saved before a
 * placeholder became required (the restock email's first, from before the sender block the law asks
 * of an advertisement) gets each one it lacks as a paragraph of its own at the end of the body, so
 * every stored version restores to an email that can be sent.
 */
export async function revertTemplate(
  database: Database,
  request: { kind: string; version: number },
): Promise<{ ok: true; template: Template } | TemplateRefusal> {
  if (!isTemplateKind(request.kind)) return { ok: false, reason: 'templateNotFound' };
  const old = await findVersion(database.db, request.kind, request.version);
  if (!old) return { ok: false, reason: 'versionNotFound' };
  const missing = missingRequired(request.kind, old.body);
  const body = [old.body.trimEnd(), ...missing.map((name) => `{{${name}}}`)].join('\n\n');
  return saveVersion(database, request.kind, () => ({
    subject: old.subject,
    body: missing.length > 0 ? body : old.body,
    enabled: old.enabled,
  }));
}

/** The required placeholders of `kind` a body does not use, in the kind's order. */
export function missingRequired(kind: TemplateKind, body: string): string[] {
  return findTemplateProblems(kind, { subject: '-', body }).flatMap((problem) =>
    problem.type === 'missingPlaceholder' ? [problem.name] : [],
  );
}

async function saveVersion(
  database: Database,
  kind: TemplateKind,
  next: (current: TemplateVersion) => { subject: string; body: string; enabled: boolean },
  expectedVersion?: number,
): Promise<{ ok: true; template: Template } | TemplateRefusal> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(async (trx) => {
        const current = (await currentVersion(trx, kind))!;
        // A save between reading and inserting takes the same number: the unique index refuses it, and the retry sees it here.
        if (expectedVersion !== undefined && current.version !== expectedVersion) return { ok: false, reason: 'changed' } as const;
        const template = next(current);
        const details = templateProblems(kind, template);
        if (details.length > 0) return { ok: false, reason: 'invalid', details } as const;
        return { ok: true, template: templateOf(await insertNextVersion(trx, kind, template, new Date().toISOString())) } as const;
      });
    } catch (error) {
      // Another save took the same version number: count again from the new highest.
      if (attempt === 5 || !isUniqueViolation(error)) throw error;
    }
  }
}

export async function templateVersions(
  database: Database,
  kind: string,
): Promise<{ ok: true; versions: TemplateVersion[] } | TemplateRefusal> {
  if (!isTemplateKind(kind)) return { ok: false, reason: 'templateNotFound' };
  return { ok: true, versions: await listVersions(database.db, kind) };
}
