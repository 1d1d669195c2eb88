import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import type { FieldError } from '../http/app-error.ts';
import type { EmailContent } from '../notifications/message.ts';
import { productPageUrl } from '../subscriptions/links.ts';
import { emailHeaders, LEGACY_KINDS, placeholderValues, type QueuedEmail } from './facts.ts';
import {
  DEFAULT_TEMPLATES,
  isTemplateKind,
  KIND_RULES,
  TEMPLATE_KINDS,
  type Placeholder,
  type TemplateKind,
  type TemplateText,
} from './kinds.ts';
import { templateProblems } from './placeholders.ts';
import { renderTemplate } from './render.ts';
import { currentVersion, currentVersions, findVersion, insertNextVersion, listVersions, type TemplateVersion } from './store.ts';

/** A template as the admin routes answer it (SPEC §6.2). */
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
  | { ok: false; reason: 'template-not-found' }
  | { ok: false; reason: 'version-not-found' }
  | { ok: false; reason: 'invalid'; details: FieldError[] };

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

/** Saves a new version from the current one and the given changes, when the result is valid. */
export async function updateTemplate(
  database: Database,
  change: { kind: string; subject?: string; body?: string; enabled?: boolean },
): Promise<{ ok: true; template: Template } | TemplateRefusal> {
  if (!isTemplateKind(change.kind)) return { ok: false, reason: 'template-not-found' };
  const kind = change.kind;
  return saveVersion(database, kind, (current) => ({
    subject: change.subject ?? current.subject,
    body: change.body ?? current.body,
    enabled: change.enabled ?? current.enabled,
  }));
}

/** A new version equal to an old one (its subject, body and enabled). */
export async function revertTemplate(
  database: Database,
  request: { kind: string; version: number },
): Promise<{ ok: true; template: Template } | TemplateRefusal> {
  if (!isTemplateKind(request.kind)) return { ok: false, reason: 'template-not-found' };
  const old = await findVersion(database.db, request.kind, request.version);
  if (!old) return { ok: false, reason: 'version-not-found' };
  return saveVersion(database, request.kind, () => ({ subject: old.subject, body: old.body, enabled: old.enabled }));
}

async function saveVersion(
  database: Database,
  kind: TemplateKind,
  next: (current: TemplateVersion) => { subject: string; body: string; enabled: boolean },
): Promise<{ ok: true; template: Template } | TemplateRefusal> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(async (trx) => {
        const template = next((await currentVersion(trx, kind))!);
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
  if (!isTemplateKind(kind)) return { ok: false, reason: 'template-not-found' };
  return { ok: true, versions: await listVersions(database.db, kind) };
}

/**
 * The given text (or the current one) rendered as a customer would receive it, with the values of
 * a real catalog product and a made-up reservation.
 */
export async function previewTemplate(
  deps: { database: Database; catalog: Catalog; publicBaseUrl: string },
  request: { kind: string; subject?: string; body?: string },
): Promise<{ ok: true; email: EmailContent } | TemplateRefusal> {
  if (!isTemplateKind(request.kind)) return { ok: false, reason: 'template-not-found' };
  const current = (await currentVersion(deps.database.db, request.kind))!;
  const text = { subject: request.subject ?? current.subject, body: request.body ?? current.body };
  const details = templateProblems(request.kind, text);
  if (details.length > 0) return { ok: false, reason: 'invalid', details };
  const email = sampleEmail(deps, request.kind);
  return { ok: true, email: renderTemplate(text, placeholderValues(email), emailHeaders(email)) };
}

/** An email of `kind` about a real product (one with a price, if any has) and a sample customer. */
export function sampleEmail(deps: { catalog: Catalog; publicBaseUrl: string }, kind: TemplateKind): Omit<QueuedEmail, 'version'> {
  const products = deps.catalog.entries.map((e) => e.product);
  const product = products.find((p) => p.price !== null) ?? products[0] ?? { name: 'サンプル商品', price: null, detailHref: null };
  const productUrl = productPageUrl(deps.publicBaseUrl, product);
  if (kind === 'restock-available') {
    return {
      template: kind,
      facts: {
        productName: product.name,
        productUrl,
        price: product.price,
        unsubscribeUrl: `${deps.publicBaseUrl}/api/notify/unsubscribe?token=sample`,
      },
    };
  }
  const reservationId = `res_${uuidV7()}`;
  return {
    template: kind,
    facts: {
      reservationId,
      name: '山田 太郎',
      createdAt: new Date().toISOString(),
      productName: product.name,
      productUrl,
      price: product.price,
      manageUrl: `${deps.publicBaseUrl}/reservations/manage?token=sample`,
    },
  };
}

/**
 * Renders queued emails at send time with the version they were queued with. Versions never
 * change, so each is read from the store once and kept.
 */
export function createEmailRenderer(database: Database): (email: QueuedEmail) => Promise<EmailContent> {
  const versions = new Map<string, Promise<TemplateText>>();
  const textOf = (kind: TemplateKind, version: number) => {
    const key = `${kind}/${version}`;
    let text = versions.get(key);
    if (!text) {
      text = findVersion(database.db, kind, version).then((v) => v ?? DEFAULT_TEMPLATES[kind]);
      text.catch(() => versions.delete(key));
      versions.set(key, text);
    }
    return text;
  };
  return async (email) => {
    // Emails queued before templates existed name the kind the old way and no version: the defaults.
    const kind = LEGACY_KINDS[email.template] ?? email.template;
    return renderTemplate(await textOf(kind, email.version ?? 1), placeholderValues(email), emailHeaders(email));
  };
}
