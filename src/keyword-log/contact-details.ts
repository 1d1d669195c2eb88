/**
 * What a shopper may paste into the search box that the public keyword log must not publish: a word
 * that looks like an email address (something@something) or a phone number (7 or more digits, with
 * or without `-`, spaces or `+` between them) is replaced by `＊`. Keywords come NFKC-normalised
 * (search.ts), so full-width digits and `＠` are caught too.
 */
export function maskContactDetails(keyword: string): string {
  return keyword
    .split(' ')
    .map((word) => (EMAIL_LIKE.test(word) ? MASK : word))
    .join(' ')
    .replace(PHONE_LIKE, (run) => (digitCount(run) >= 7 ? MASK : run));
}

export const MASK = '＊';

const EMAIL_LIKE = /[^@]@[^@]/;

/** A run of digits, `-`, spaces and `+` that starts with a digit or `+` and ends with a digit, not inside a word. */
const PHONE_LIKE = /(?<![\p{L}\p{N}])[+\d][\d\- +]*\d(?![\p{L}\p{N}])/gu;

function digitCount(text: string): number {
  let count = 0;
  for (const character of text) if (character >= '0' && character <= '9') count++;
  return count;
}
