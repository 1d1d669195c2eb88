import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configurationDoc, envExample } from '../src/env-example.ts';

// npm run env:example: writes .env.example and docs/configuration.md from the configuration schema (src/config.ts).
const root = join(import.meta.dirname, '..');
writeFileSync(join(root, '.env.example'), envExample());
writeFileSync(join(root, 'docs', 'configuration.md'), configurationDoc());
