// How the shop names itself and says how to reach it, the same everywhere: at the end of every
// email (the `shopSignature` placeholder), on the customer's reservation page and on the
// unsubscribe page. The console shows the same lines as the settings are typed, so this file
// imports nothing.

/** The shop's own details as staff set them; '' for one not set. */
export interface ShopContact {
  name: string;
  contactEmail: string;
  phone: string;
  /** One or more lines. */
  address: string;
  hours: string;
}

/**
 * The shop's details one per line, in this order: its name, its address (each of its lines), its
 * phone, its contact address and its hours, each set one labelled as a customer reads it; the unset
 * ones left out. None set: no lines.
 */
export function shopContactLines(shop: ShopContact): string[] {
  return [
    shop.name,
    ...shop.address.split('\n'),
    shop.phone && `TEL: ${shop.phone}`,
    shop.contactEmail && `メール: ${shop.contactEmail}`,
    shop.hours && `営業時間: ${shop.hours}`,
  ].filter((line) => line.trim() !== '');
}

/** What the console warns about while it is unset: what a customer needs to know who the shop is and reach it. */
export const REQUIRED_SHOP_FIELDS = ['name', 'contactEmail', 'address'] as const satisfies readonly (keyof ShopContact)[];

/** The required fields still unset. */
export function missingShopFields(shop: ShopContact): (typeof REQUIRED_SHOP_FIELDS)[number][] {
  return REQUIRED_SHOP_FIELDS.filter((field) => shop[field].trim() === '');
}
