import type { Catalog } from '../../catalog/catalog.ts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { replyJson } from '../../http/reply.ts';
import { defineRoute, INVALID_PARAMETERS, refusedAs, type Route } from '../../http/route.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { SendEmail } from '../delivery/delivery.ts';
import {
  INVALID_TEMPLATE,
  ListBody,
  ListResponse,
  PreviewBody,
  PreviewResponse,
  RevertBody,
  TemplateResponse,
  TestSendBody,
  TestSendResponse,
  UpdateBody,
  VersionsBody,
  VersionsResponse,
} from './schemas.ts';
import { testSendTemplate } from './test-send.ts';
import { listTemplates, revertTemplate, templateVersions, updateTemplate, type TemplateRefusal } from './editing.ts';
import { previewTemplate } from './preview.ts';

const TAG = 'Admin: email templates';

/** The answer to a refused template request: 404 for an unknown kind or version, 400 with every problem. */
function refusal(refused: TemplateRefusal): AppError {
  switch (refused.reason) {
    case 'templateNotFound':
      return new AppError('template_not_found', 'Template not found');
    case 'versionNotFound':
      return new AppError('version_not_found', 'Version not found');
    case 'invalid':
      return new AppError('invalid_template', INVALID_TEMPLATE, { details: refused.details });
    case 'changed':
      return new AppError('changed_by_someone_else', 'Template was changed by someone else');
  }
}

/** The customer emails' templates: list, edit, preview, versions and revert, and the staff's test send. */
export function emailTemplateRoutes(deps: {
  database: Database;
  catalog: Catalog;
  publicBaseUrl: string;
  storefrontUrl: string;
  sendEmail: SendEmail;
}): Route[] {
  const { database } = deps;
  const common = { method: 'POST', tag: TAG, cors: 'any', admin: true, invalid: refusedAs('invalid_template', INVALID_TEMPLATE) } as const;
  return [
    defineRoute({
      ...common,
      path: '/api/admin/email-templates/list',
      summary: 'List the customer email templates, current versions',
      description:
        '`{}` → `{success, templates:[{kind, subject, body, enabled, version, updatedAt, isDefault, placeholders:[{name, required}]}]}`: the five kinds in this order: `reservation-received`, `reservation-confirmed`, `reservation-fulfilled`, `reservation-cancelled`, `restock-available` ([operations.md](operations.md#email-templates)).',
      body: ListBody,
      responses: {
        200: { description: 'The five kinds, in the contract’s order', schema: ListResponse },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c) => replyJson(c, 200, { success: true, templates: await listTemplates(database) }),
    }),
    defineRoute({
      ...common,
      path: '/api/admin/email-templates/update',
      errors: ['template_not_found', 'changed_by_someone_else'],
      summary: 'Save a new version of a template',
      description:
        'Absent fields keep the current version’s. Every problem is listed in `details`, each naming its field. With `expectedVersion` (the version the edit was made from), a version saved since → 409 `changed_by_someone_else` and nothing saved.' +
        ' Body `{kind, subject?, body?, enabled?, expectedVersion?}` → `{success, template}`, a new version. Unknown kind `404 Template not found`; `400 Invalid template` with every problem in `details`, each naming `subject`, `body` or `enabled`: `Unknown placeholder: {{foo}}` (names match exactly), `Missing required placeholder: {{manageUrl}}`, `Unbalanced {{ at character n…`, lengths (subject 1–200, body 1–20,000 characters), `subject must be one line`, `<kind> cannot be disabled`.',
      body: UpdateBody,
      responses: { 200: { description: 'The new version', schema: TemplateResponse }, ...errorResponses(400, 401, 404, 409, 413, 500) },
      handle: async (c, { body }) => {
        const result = await updateTemplate(database, body);
        if (!result.ok) throw refusal(result);
        return replyJson(c, 200, { success: true, template: result.template });
      },
    }),
    defineRoute({
      ...common,
      path: '/api/admin/email-templates/preview',
      errors: ['template_not_found'],
      summary: 'Render a template with sample values',
      description:
        'The given subject and body (or the current ones) rendered as a customer would receive them, about a real catalog product.' +
        " Body `{kind, subject?, body?}` → `{success, subject, text, html}`: the product is the catalog's first with a price, with a sample reservation (number 1000, which the shop never gives: numbers start at 1001); the same 400s as the update.",
      body: PreviewBody,
      responses: { 200: { description: 'Subject, text and HTML', schema: PreviewResponse }, ...errorResponses(400, 401, 404, 413, 500) },
      handle: async (c, { body }) => {
        const result = await previewTemplate(deps, body);
        if (!result.ok) throw refusal(result);
        const { subject, text, html } = result.email;
        return replyJson(c, 200, { success: true, subject, text, html });
      },
    }),
    defineRoute({
      ...common,
      path: '/api/admin/email-templates/versions',
      errors: ['template_not_found'],
      summary: 'A template’s saved versions, newest first',
      description:
        '`{kind}` → `{success, versions:[{version, subject, body, enabled, createdAt}]}`, newest first. Unknown kind `404 Template not found`.',
      body: VersionsBody,
      responses: { 200: { description: 'Every version', schema: VersionsResponse }, ...errorResponses(400, 401, 404, 413, 500) },
      handle: async (c, { body }) => {
        const result = await templateVersions(database, body.kind);
        if (!result.ok) throw refusal(result);
        const versions = result.versions.map((v) => ({
          version: v.version,
          subject: v.subject,
          body: v.body,
          enabled: v.enabled,
          createdAt: v.created_at,
        }));
        return replyJson(c, 200, { success: true, versions });
      },
    }),
    defineRoute({
      ...common,
      path: '/api/admin/email-templates/revert',
      errors: ['template_not_found', 'version_not_found'],
      summary: 'Save a new version equal to an old one',
      description:
        'Restores the old version’s subject, body and enabled as the next version. A version from before a placeholder became required (the restock email’s first, without `{{shopSignature}}`) gets each it lacks as a paragraph at the end of the body, so every stored version restores to a template that can be sent.' +
        ' Body `{kind, version}` → `{success, template}`; an unknown version `404 Version not found`.',
      body: RevertBody,
      responses: { 200: { description: 'The new version', schema: TemplateResponse }, ...errorResponses(400, 401, 404, 413, 500) },
      handle: async (c, { body }) => {
        const result = await revertTemplate(database, body);
        if (!result.ok) throw refusal(result);
        return replyJson(c, 200, { success: true, template: result.template });
      },
    }),
    defineRoute({
      ...common,
      path: '/api/admin/email-templates/test-send',
      summary: 'Send a template, rendered as the preview, to an address now',
      description:
        'For the console’s 「テスト送信」: the given (or current) text with the preview’s sample values (reservation number 1000, which the shop never gives), marked as a test (`【テスト送信】` before the subject, a first line saying no customer received it), sent at once through the configured email provider (not queued, not kept in the message log), so the provider’s refusal is the answer: 502 `Email not sent: <the provider’s reason>`. Without a provider the email is logged and `status` is `skipped`. A bad `to` or a wrong type is 400 `Invalid parameters`; template problems are the preview’s 400 `Invalid template`.' +
        " Body `{kind, to, subject?, body?}` → `{success, status:'sent'|'skipped'}` (an extension). `to` is trimmed and validated as the public forms validate an address. The 502 comes when the provider refuses or does not answer (e.g. `HTTP 422: …`, an SMTP refusal), nothing retried. Unknown kind `404 Template not found`.",
      body: TestSendBody,
      invalid: refusedAs('invalid_parameters', INVALID_PARAMETERS),
      errors: ['template_not_found', 'invalid_template', 'email_not_sent'],
      responses: {
        200: { description: 'Sent (or skipped: no provider)', schema: TestSendResponse },
        ...errorResponses(400, 401, 404, 413, 500, 502),
      },
      handle: async (c, { body }) => {
        const result = await testSendTemplate(deps, body);
        if (!result.ok)
          throw result.reason === 'providerFailed' ? new AppError('email_not_sent', `Email not sent: ${result.message}`) : refusal(result);
        return replyJson(c, 200, { success: true, status: result.status });
      },
    }),
  ];
}
