import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The token kept in `file`, or a new one from `generate` saved there (readable by its owner only).
 * Two processes starting at once agree: the file is created exclusively, and the one that loses
 * the race reads the winner's token.
 */
export function keptToken(file: string, generate: () => string): string {
  const existing = readToken(file);
  if (existing) return existing;
  mkdirSync(dirname(file), { recursive: true });
  const token = generate();
  try {
    writeFileSync(file, `${token}\n`, { flag: 'wx', mode: 0o600 });
    return token;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another start wrote it meanwhile, or an empty file was left behind: replace only the latter.
    const raced = readToken(file);
    if (raced) return raced;
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    return token;
  }
}

function readToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
