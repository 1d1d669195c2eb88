import { configVariables } from './config.ts';

// The configuration's two documents, written from the schema in config.ts by `npm run env:example`
// (a test fails when either is not current): `.env.example`, to copy, and docs/configuration.md, to read.

/** `.env.example`: every variable of the configuration, described, commented out at its default. */
export function envExample(): string {
  const header = [
    '# tenpo configuration: copy to .env (read at start from the working directory) and set what you need.',
    '# Empty values count as unset. Every variable is explained in docs/configuration.md.',
    '# Generated from src/config.ts by `npm run env:example`; do not edit.',
  ];
  const entries = configVariables().map(({ name, description, defaultValue, shownDefault }) => {
    const computed = shownDefault !== undefined && defaultValue === undefined ? ` Default: ${shownDefault}.` : '';
    return `${wrap(description + computed, '# ')}\n# ${name}=${defaultValue ?? ''}`;
  });
  return `${[header.join('\n'), ...entries].join('\n\n')}\n`;
}

/** docs/configuration.md: the same facts as `.env.example`, with what production requires first. */
export function configurationDoc(): string {
  const variables = configVariables();
  const summary = variables.map(({ name, shownDefault }) => `| [\`${name}\`](#${name.toLowerCase()}) | ${shownDefault ?? '—'} |`);
  const sections = variables.map(
    ({ name, description, shownDefault }) =>
      `### \`${name}\`\n\n${shownDefault ? `Default: ${shownDefault}.\n\n` : ''}${wrap(linked(description), '')}`,
  );
  return `${[
    '# Configuration',
    '<!-- Generated from src/config.ts by `npm run env:example`, with .env.example; do not edit. -->',
    wrap(
      'tenpo reads its configuration once, at start, from the environment, and from `.env` in the working directory if there is one (`.env.example` lists every variable commented out at its default). Empty values count as unset. Every bad value stops the start with one line per variable naming it (exit 1), and secret values are never echoed.',
      '',
    ),
    '| variable | default |\n|---|---|\n' + summary.join('\n'),
    '## Every variable',
    ...sections,
  ].join('\n\n')}\n`;
}

/** `docs/<page>#<anchor>` as a link from docs/. */
function linked(text: string): string {
  return text.replace(/docs\/([a-z-]+\.md(?:#[a-z0-9-]+)?)/g, (_, target: string) => `[${target.split('#')[0]}](${target})`);
}

/** Words joined into lines of at most 100 characters, each starting with `prefix`. */
function wrap(text: string, prefix: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && prefix.length + line.length + 1 + word.length > 100) {
      lines.push(prefix + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, prefix + line].join('\n');
}
