import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ENGINES, type Engine, type EngineName } from '../search-engines.ts';

// `node --expose-gc bench/lib/load-search-index.ts <engine> <file>`, run by bench/search-engines.ts:
// loads one engine's index file in a fresh process, as a start does, and prints the load time and
// what the loaded index holds in memory (heap and array buffers; the file itself not counted).

const [name, path] = process.argv.slice(2) as [EngineName, string];
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const memory = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;

function measure<Index>(engine: Engine<Index>, file: Buffer) {
  gc();
  const before = memory();
  const started = performance.now();
  const index = engine.load(file);
  const loadMs = performance.now() - started;
  gc();
  const heapBytes = memory() - before;
  return { loadMs, heapBytes, documents: engine.documents(index).length };
}

process.stdout.write(JSON.stringify(measure<unknown>(ENGINES[name] as Engine<unknown>, readFileSync(path))));
