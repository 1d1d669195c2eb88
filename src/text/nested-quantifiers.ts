/**
 * Whether a regular expression repeats a group that itself holds an unbounded repetition, as in
 * `(a+)+`, `(?:x|y*){2,}` or `(.*a){11}`: the shape (star height above one) that can backtrack for
 * an exponential time on a near miss. A configured pattern is refused at start for it rather than
 * run against every Origin a stranger sends. Escapes and character classes are skipped; a lone `?`
 * or `{0,1}` repeats nothing.
 */
export function nestsQuantifiers(source: string): boolean {
  /** For each open group, whether it holds an unbounded quantifier so far. */
  const open: boolean[] = [];
  /** Whether the atom just read is a group that held one. */
  let heldByPrevious = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    const quantifier = quantifierAt(source, i);
    if (quantifier) {
      if (heldByPrevious && quantifier.repeats) return true;
      if (quantifier.unbounded && open.length > 0) open[open.length - 1] = true;
      i += quantifier.length - 1;
      heldByPrevious = false;
      continue;
    }
    heldByPrevious = false;
    if (char === '\\') i++;
    else if (char === '[') i = classEnd(source, i);
    else if (char === '(') open.push(false);
    else if (char === ')') {
      heldByPrevious = open.pop() ?? false;
      if (heldByPrevious && open.length > 0) open[open.length - 1] = true;
    }
  }
  return false;
}

interface Quantifier {
  length: number;
  /** More than one repetition allowed. */
  repeats: boolean;
  /** No upper bound. */
  unbounded: boolean;
}

function quantifierAt(source: string, i: number): Quantifier | undefined {
  const lazy = (length: number) => (source[i + length] === '?' ? length + 1 : length);
  const char = source[i];
  // A `?` right after `(` opens (?:…), (?=…) and the like: not a quantifier, and harmless read as one.
  if (char === '*' || char === '+') return { length: lazy(1), repeats: true, unbounded: true };
  if (char === '?') return { length: lazy(1), repeats: false, unbounded: false };
  if (char !== '{') return undefined;
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
  if (!braces) return undefined;
  const [text, low, comma, high] = braces;
  const unbounded = comma !== undefined && high === '';
  const most = unbounded ? Infinity : Number(comma === undefined ? low : high);
  return { length: lazy(text.length), repeats: most > 1, unbounded };
}

/** The index of the `]` closing the class opened at `start` (the last index when it never closes). */
function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']' && i > start + 1) return i;
  }
  return source.length - 1;
}
