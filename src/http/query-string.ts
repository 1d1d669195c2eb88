/**
 * A query string's names and values, as URLSearchParams reads them: values are strings, or arrays
 * of strings when a name is repeated; names like `__proto__` are plain keys. Each part is decoded
 * with decodeURIComponent, which does in native code what URLSearchParams does byte by byte in
 * JavaScript (a search of the streams: 1.7–2.1 against 2.7 µs, docs/performance.md); a query it refuses (a
 * broken percent-escape, bytes that are not UTF-8) is read by URLSearchParams, which never throws.
 */
export function queryOf(url: string): Record<string, string | string[]> {
  const start = url.indexOf('?');
  if (start === -1) return Object.create(null) as Record<string, string | string[]>;
  const search = url.slice(start + 1);
  try {
    return fieldsOf(search);
  } catch {
    return fieldsOf(search, new URLSearchParams(search));
  }
}

function fieldsOf(search: string, params?: URLSearchParams): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  const add = (name: string, value: string) => {
    const previous = fields[name];
    fields[name] = previous === undefined ? value : [previous, value].flat();
  };
  if (params) params.forEach((value, name) => add(name, value));
  else for (const part of search.split('&')) if (part !== '') addPart(part, add);
  return fields;
}

/** One `name=value` of a query, decoded; throws what decodeURIComponent throws. */
function addPart(part: string, add: (name: string, value: string) => void): void {
  const equals = part.indexOf('=');
  const name = decoded(equals === -1 ? part : part.slice(0, equals));
  add(name, equals === -1 ? '' : decoded(part.slice(equals + 1)));
}

function decoded(component: string): string {
  const text = decodeURIComponent(component.includes('+') ? component.replaceAll('+', ' ') : component);
  // URLSearchParams reads a lone surrogate written as it is (not escaped) as U+FFFD.
  if (!text.isWellFormed()) throw new URIError('not well-formed');
  return text;
}
