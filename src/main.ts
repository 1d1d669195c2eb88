import { SUPPORTED_NODE } from './node-versions.ts';

// The process entry (`npm start` runs it as built into build/service/main.js; `node src/main.ts` as it
// is). It checks the Node it runs on before anything else is loaded, and imports nothing but the list
// of versions: the service's modules use what only a supported Node has (Node 20 cannot even link
// them), so on another the start would die with a SyntaxError naming none of this. Then start.ts
// runs the service.

const found = process.versions.node;
if (!SUPPORTED_NODE.includes(Number(found.split('.')[0]))) {
  process.stderr.write(`tenpo: Node ${found} found; tenpo runs on Node ${SUPPORTED_NODE.join(' or ')}\n`);
  process.exit(1);
}
await import('./start.ts');
