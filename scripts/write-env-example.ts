import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envExample } from '../src/env-example.ts';

// npm run env:example: writes .env.example from the configuration schema (src/config.ts).
writeFileSync(join(import.meta.dirname, '..', '.env.example'), envExample());
