import { configVariables } from './config.ts';

/** `.env.example`: every variable of the configuration, described, commented out at its default. */
export function envExample(): string {
  const header = [
    '# tenpo configuration: copy to .env (read at start from the working directory) and set what you need.',
    '# Empty values count as unset. Generated from src/config.ts by `npm run env:example`; do not edit.',
  ];
  const entries = configVariables().map(({ name, description, defaultValue }) => `# ${description}\n# ${name}=${defaultValue ?? ''}`);
  return `${[header.join('\n'), ...entries].join('\n\n')}\n`;
}
