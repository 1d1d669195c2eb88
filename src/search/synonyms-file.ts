import { parse as parseYaml } from 'yaml';
import { synonymWord } from './synonyms.ts';

/**
 * Reads synonyms.yaml: a YAML list of groups, each a list of at least two words
 * (`- [filter, フィルター, VCF]`). Throws an Error naming the file and the group at fault, so a
 * bad file stops the build and the start, as bad content does.
 */
export function parseSynonyms(text: string, path: string): string[][] {
  const fail = (message: string) => new Error(`synonyms ${path}: ${message}`);
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw fail(`not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw fail('must be a list of groups, each a list of words, e.g. "- [filter, フィルター, VCF]"');
  return raw.map((group: unknown, i) => {
    if (!Array.isArray(group) || group.length < 2) throw fail(`group ${i + 1} must be a list of at least two words`);
    const words = group.map((entry: unknown) => {
      const word = typeof entry === 'string' || typeof entry === 'number' ? synonymWord(String(entry)) : undefined;
      if (word === undefined)
        throw fail(`group ${i + 1}: ${JSON.stringify(entry)} must be one word (letters and digits, or one run of Japanese)`);
      return word;
    });
    return [...new Set(words)];
  });
}
