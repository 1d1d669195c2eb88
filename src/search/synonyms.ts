import { normalize } from '../text/normalize.ts';
import { textRuns } from '../text/tokenize.ts';

/**
 * Groups of words that mean the same to a shopper (`[filter, フィルター, VCF]`), from
 * `<CONTENT_DIR>/synonyms.yaml` (synonyms-file.ts). A query word in a group also finds the pages
 * with the group's other words, ranked below those with the word itself (query.ts). Words are kept
 * normalised and are each one run of the tokenizer (a word, or a Japanese run), as a query's
 * words are, so a query word is looked up as it is.
 */
export type SynonymGroups = readonly (readonly string[])[];

const byIndex = new WeakMap<SynonymGroups, Map<string, string[]>>();

/** The other words of every group that holds `word` (a query run, normalised), in file order. */
export function synonymsOf(groups: SynonymGroups, word: string): string[] {
  let byWord = byIndex.get(groups);
  if (!byWord) {
    byWord = new Map();
    for (const group of groups) {
      for (const member of group) {
        const others = byWord.get(member) ?? [];
        for (const other of group) if (other !== member && !others.includes(other)) others.push(other);
        byWord.set(member, others);
      }
    }
    byIndex.set(groups, byWord);
  }
  return byWord.get(word) ?? [];
}

/** An entry of the file as a synonym word (normalised), or undefined when it is not exactly one word. */
export function synonymWord(entry: string): string | undefined {
  const runs = textRuns(normalize(entry));
  return runs.length === 1 ? runs[0]!.text : undefined;
}
