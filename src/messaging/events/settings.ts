import type { Catalog } from '../../catalog/catalog.ts';

/** What the events need to make their messages: the catalog, the bases and secret of their links, the daily cap. */
export interface MessagingSettings {
  catalog: Catalog;
  /** PUBLIC_BASE_URL: the base of the links to tenpo's own pages (unsubscribe, manage, the console). */
  publicBaseUrl: string;
  /** STOREFRONT_URL: the base of the links to a product's page, which the storefront serves. */
  storefrontUrl: string;
  /** Signs the links that name a record (UNSUBSCRIBE_SECRET). */
  linkSecret: string;
  /** Emails public forms may cause to one address in 24 hours (EMAILS_PER_ADDRESS_PER_DAY; 0: no cap). */
  emailsPerAddressPerDay: number;
}
