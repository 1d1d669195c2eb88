import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { deserializeSearchIndex } from '../../src/search/index-file-format.ts';

// `node bench/lib/load-search-index.ts <file> <fingerprint>`, run by bench/search.ts: loads a search
// index file in a fresh process, as a start does, and prints the load time and what the loaded
// index holds in memory (heap and array buffers, the file itself not counted). In the benchmark's
// own process the heap would also hold, or free at any moment, what building the index left.

const [path, fingerprint] = process.argv.slice(2) as [string, string];
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const memory = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;

const file = readFileSync(path);
gc();
const before = memory();
const started = performance.now();
const index = deserializeSearchIndex(file, fingerprint);
const loadMs = performance.now() - started;
gc();
const heapBytes = memory() - before;
if (!index) throw new Error(`${path} is not a search index built with this fingerprint`);
process.stdout.write(JSON.stringify({ loadMs, heapBytes, terms: index.miniSearch.termCount }));
