import type { Database } from '../../db/database.ts';
import type { ShopContact } from '../../shop/contact.ts';
import { readShop } from '../../shop/shop.ts';
import type { TemplateKind, TemplateText } from '../kinds.ts';
import type { EmailContent } from '../outbox/message.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';
import { emailHeaders, LEGACY_KINDS, placeholderValues, type QueuedEmail } from './facts.ts';
import { renderTemplate } from './render.ts';
import { findVersion } from './store.ts';

/**
 * Renders queued emails at send time with the version they were queued with, and the shop's own
 * details as they are at that moment (saved on any instance). Versions never change, so each is
 * read from the store once and kept; the shop's details are read for each email, one read shared
 * by the emails rendered at the same moment.
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
  let reading: Promise<ShopContact> | undefined;
  const shopNow = () => (reading ??= readShop(database.db).finally(() => (reading = undefined)));
  return async (email) => {
    // Emails queued before templates existed name the kind the old way and no version: the defaults.
    const kind = LEGACY_KINDS[email.template] ?? email.template;
    const [text, shop] = await Promise.all([textOf(kind, email.version ?? 1), shopNow()]);
    return renderTemplate(text, placeholderValues(email, shop), emailHeaders(email, shop));
  };
}
