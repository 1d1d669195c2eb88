import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { createLogger } from '../src/log.ts';
import { createStaff } from '../src/staff/accounts.ts';
import { CreateBody } from '../src/staff/schemas.ts';

// npm run staff:create-owner -- --email owner@example.jp --name '店長 一郎'
//
// Creates an owner account in the store the service's configuration names (DATABASE_URL, from the
// environment or .env, as `npm start` reads it), for the first setup, or to let an owner in again.
// The password is read from the terminal without echo (asked twice), or, when stdin is not a
// terminal, as the first line of stdin: never from the command line, where it would be kept in the
// shell's history and shown to every user of the machine in the process list.

const USAGE = "usage: npm run staff:create-owner -- --email <address> --name '<name>'  (the password from the terminal or stdin)";

function fail(message: string): never {
  process.stderr.write(`tenpo: ${message}\n`);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } } });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();
if (values.email === undefined || values.name === undefined) fail(USAGE);

if (existsSync('.env')) process.loadEnvFile('.env');
const config = (() => {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(`configuration error: ${error.message}`);
    throw error;
  }
})();

const password = process.stdin.isTTY ? await askTwice() : await firstLineOfStdin();
const checked = CreateBody.safeParse({ email: values.email, name: values.name, role: 'owner', password });
if (!checked.success) fail(checked.error.issues.map((issue) => issue.message).join('; '));

const database = await openDatabase(config.database, createLogger('warn'));
try {
  const result = await createStaff(database, checked.data, new Date());
  if (result.outcome === 'emailExists') fail(`a staff account with the address ${checked.data.email} exists already`);
  process.stdout.write(`tenpo: owner ${result.staff.email} created (${result.staff.id}); sign in at ${config.publicBaseUrl}/admin\n`);
} finally {
  await database.close();
}

async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? '';
}

async function askTwice(): Promise<string> {
  const first = await askHidden('Password (12-200 characters, not shown): ');
  const second = await askHidden('The same password again: ');
  if (first !== second) fail('the two passwords differ');
  return first;
}

/** Reads one line from the terminal in raw mode, showing nothing of it. */
function askHidden(prompt: string): Promise<string> {
  process.stdout.write(prompt);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve) => {
    let typed = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\u0003') {
          stdin.setRawMode(false);
          process.stdout.write('\n');
          process.exit(130);
        } else if (char === '\r' || char === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stdout.write('\n');
          return resolve(typed);
        } else if (char === '\u007f' || char === '\b') {
          typed = [...typed].slice(0, -1).join('');
        } else {
          typed += char;
        }
      }
    };
    stdin.on('data', onData);
  });
}
