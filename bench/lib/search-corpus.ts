import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentDocument } from '../../src/search/index-fields.ts';

// A larger site made of the sample's own material: every generated page takes its sentences,
// titles, descriptions and tags from the sample, recombined at random, so term frequencies (and so
// posting-list lengths, the cost of a query) stay those of real shop content. Seeded: every run
// builds the same corpus and the same queries.

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: T[]): T => items[Math.floor(random() * items.length)]!;

/** Sentences of the sample bodies: Japanese ones end in 。！？, English ones in . ! ?, lines end too. */
function sentences(documents: ContentDocument[]): string[] {
  return documents
    .flatMap((d) => d.body.split('\n').flatMap((line) => line.match(/[^。！？.!?]+[。！？.!?]?/g) ?? []))
    .map((s) => s.trim())
    .filter((s) => s.length >= 8);
}

/** Writes `count` markdown pages under `<dir>/articles` and `<dir>/guides`; returns the directory. */
export function writeCorpus(dir: string, sample: ContentDocument[], count: number): string {
  const random = seededRandom(20260301);
  const pool = sentences(sample);
  const titleParts = sample.flatMap((d) =>
    d.title
      .split(/[：―:]/)
      .map((part) => part.trim())
      .filter(Boolean),
  );
  const tags = [...new Set(sample.flatMap((d) => d.tags))];
  for (const type of ['articles', 'guides']) mkdirSync(join(dir, type), { recursive: true });
  for (let i = 0; i < count; i++) {
    const title = `${pick(random, titleParts)}：${pick(random, titleParts)}`;
    const paragraphs: string[] = [];
    const sections = 2 + Math.floor(random() * 4);
    for (let s = 0; s < sections; s++) {
      paragraphs.push(`## ${pick(random, titleParts)}`);
      const length = 2 + Math.floor(random() * 5);
      paragraphs.push(Array.from({ length }, () => pick(random, pool)).join(''));
    }
    const frontMatter = [
      '---',
      `title: ${JSON.stringify(title)}`,
      `description: ${JSON.stringify(pick(random, pool))}`,
      `tags: ${JSON.stringify([pick(random, tags), pick(random, tags)].filter((t, n, all) => all.indexOf(t) === n))}`,
      `createdAt: "2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}"`,
      '---',
    ];
    const type = i % 2 === 0 ? 'articles' : 'guides';
    writeFileSync(join(dir, type, `page-${String(i).padStart(5, '0')}.md`), `${frontMatter.join('\n')}\n\n${paragraphs.join('\n\n')}\n`);
  }
  return dir;
}

const toHiragana = (text: string) => text.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));

/** The sample's words a shopper would type: katakana words, kanji compounds, English words of 4 letters or more. */
function wordsByScript(sample: ContentDocument[]): { katakana: string[]; kanji: string[]; english: string[] } {
  const text = sample.map((d) => `${d.title}\n${d.description}\n${d.body}`).join('\n');
  return {
    katakana: [...new Set(text.match(/[\u30a1-\u30fa\u30fc]{3,10}/g) ?? [])],
    kanji: [...new Set(text.match(/\p{sc=Han}{2,4}/gu) ?? [])],
    english: [...new Set((text.match(/[A-Za-z]{4,}/g) ?? []).map((w) => w.toLowerCase()))],
  };
}

/** Every word of wordsByScript, whatever its script. */
export function contentWords(sample: ContentDocument[]): string[] {
  const { katakana, kanji, english } = wordsByScript(sample);
  return [...katakana, ...kanji, ...english];
}

/**
 * `count` distinct queries of the kinds shoppers type: katakana words and their hiragana spelling,
 * kanji compounds and single kanji, English words, prefixes and one-letter typos of them, and
 * two-word and mixed-script combinations.
 */
export function makeQueries(sample: ContentDocument[], count: number, seed = 7): string[] {
  const random = seededRandom(seed);
  const { katakana, kanji, english } = wordsByScript(sample);
  const typo = (word: string) => {
    const at = 1 + Math.floor(random() * (word.length - 2));
    return word.slice(0, at) + word.slice(at + 1);
  };
  const makers: (() => string)[] = [
    () => pick(random, katakana),
    () => toHiragana(pick(random, katakana)),
    () => pick(random, kanji),
    () => pick(random, kanji)[0]!,
    () => pick(random, english),
    () => pick(random, english).slice(0, 3 + Math.floor(random() * 2)),
    () =>
      typo(
        pick(
          random,
          english.filter((w) => w.length >= 6),
        ),
      ),
    () => `${pick(random, katakana)} ${pick(random, kanji)}`,
    () => `${pick(random, english)}${pick(random, katakana)}`,
    () => `${pick(random, english)} ${pick(random, english)}`,
  ];
  const queries = new Set<string>();
  while (queries.size < count) queries.add(makers[queries.size % makers.length]!());
  return [...queries];
}

/**
 * Queries of the shapes that cost most per query (a query's words past the first 10 are ignored, which bounds them), `count` distinct ones of
 * each: lone Japanese characters apart, by spaces (~110 ms each before that bound) or by ・; long
 * words, fuzzy up to 3 edits each; one word as long as a query can be; many two-letter prefixes;
 * many whole words of the content; lone characters glued to prefixes.
 */
export function makeCostlyQueries(sample: ContentDocument[], count: number, seed = 13): Record<string, string[]> {
  const random = seededRandom(seed);
  const text = sample.map((d) => `${d.title}\n${d.description}\n${d.body}`).join('\n');
  const characters = [...new Set(text.match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/gu) ?? [])];
  const words = [...new Set((text.match(/[A-Za-z]{4,}/g) ?? []).map((w) => w.toLowerCase()))];
  const letters = [...'abcdefghijklmnopqrstuvwxyz'];
  const times = (n: number, make: () => string, separator: string) => Array.from({ length: n }, make).join(separator);
  const shapes: Record<string, () => string> = {
    '100 lone kanji/kana, spaced': () => times(100, () => pick(random, characters), ' '),
    '100 lone kanji/kana, by ・': () => times(100, () => pick(random, characters), '・'),
    '10 random 19-letter words': () => times(10, () => times(19, () => pick(random, letters), ''), ' '),
    'one 200-letter word': () => times(200, () => pick(random, letters), ''),
    '66 two-letter prefixes': () => times(66, () => pick(random, words).slice(0, 2), ' '),
    '30 words of the content': () => times(30, () => pick(random, words), ' '),
    '50 kanji+prefix pairs': () => times(50, () => pick(random, characters) + pick(random, words).slice(0, 2), ' '),
  };
  return Object.fromEntries(
    Object.entries(shapes).map(([shape, make]) => {
      const queries = new Set<string>();
      while (queries.size < count) queries.add(make());
      return [shape, [...queries]];
    }),
  );
}

/**
 * `count` distinct queries of the site's own words, as shoppers who know what they want type them:
 * one to three words of one page (Japanese runs of 2 to 8 characters, a fifth of them in hiragana;
 * Latin words), so most find something, and a stream of them repeats words but seldom a query.
 */
export function makeWordQueries(sample: ContentDocument[], count: number, seed = 23): string[] {
  const random = seededRandom(seed);
  const pages = sample.map((d) => {
    const text = `${d.title}\n${d.description}\n${d.tags.join(' ')}\n${d.body}`;
    return {
      japanese: [...new Set(text.match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]{2,8}/gu) ?? [])],
      latin: [...new Set((text.match(/[A-Za-z][A-Za-z0-9]{2,}/g) ?? []).map((w) => w.toLowerCase()))],
    };
  });
  return distinct(count, () => {
    const page = pick(random, pages);
    const word = () => {
      if (page.japanese.length === 0 || (page.latin.length > 0 && random() < 0.45)) return pick(random, page.latin);
      const run = pick(random, page.japanese);
      return random() < 0.2 ? toHiragana(run) : run;
    };
    return Array.from({ length: 1 + Math.floor(random() * 3) }, word).join(' ');
  });
}

/**
 * `count` distinct queries whose words are nearly all new to a running service: slices of a
 * page's Japanese text from any offset, 2 to 6 characters long (so they cut across words), and
 * Latin words of the page with one letter changed; one or two of them a query.
 */
export function makeNewWordQueries(sample: ContentDocument[], count: number, seed = 29): string[] {
  const random = seededRandom(seed);
  const pages = sample.map((d) => {
    const text = `${d.title}\n${d.description}\n${d.body}`;
    return {
      japanese: text.match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]{2,}/gu) ?? [],
      latin: [...new Set((text.match(/[A-Za-z]{4,}/g) ?? []).map((w) => w.toLowerCase()))],
    };
  });
  const letters = [...'abcdefghijklmnopqrstuvwxyz'];
  return distinct(count, () => {
    const page = pick(random, pages);
    const word = () => {
      if (page.japanese.length === 0 || (page.latin.length > 0 && random() < 0.5)) {
        const latin = pick(random, page.latin);
        const at = Math.floor(random() * latin.length);
        return (
          latin.slice(0, at) +
          pick(
            random,
            letters.filter((letter) => letter !== latin[at]),
          ) +
          latin.slice(at + 1)
        );
      }
      const chars = Array.from(pick(random, page.japanese));
      const length = Math.min(chars.length, 2 + Math.floor(random() * 5));
      const from = Math.floor(random() * (chars.length - length + 1));
      return chars.slice(from, from + length).join('');
    };
    return Array.from({ length: 1 + Math.floor(random() * 2) }, word).join(' ');
  });
}

function distinct(count: number, make: () => string): string[] {
  const queries = new Set<string>();
  for (let tries = 0; queries.size < count; tries++) {
    if (tries > count * 20) throw new Error(`only ${queries.size} distinct queries of ${count}`);
    queries.add(make());
  }
  return [...queries];
}
