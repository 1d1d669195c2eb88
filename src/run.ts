import { existsSync } from 'node:fs';
import { ConfigError, generateToken, loadConfig, type Config } from './config.ts';
import { keptToken } from './kept-token.ts';
import { createLogger } from './log.ts';
import type { ServiceCode } from './serving/bundle/service-manifest.ts';
import { startServer } from './server.ts';

// The service as a process: configuration → store → app → listen, and a graceful stop on
// SIGTERM/SIGINT. Started by main.ts, from the bundle `npm run build` made of this file when it is
// current, else from here (`code` says which).

export async function run(code: ServiceCode): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');

  let config: Config;
  try {
    // oxlint-disable-next-line node/no-process-env -- the one place the environment is read; config.ts gets it from here
    config = loadConfig(process.env, {
      keptToken: (file) => {
        try {
          return keptToken(file, generateToken);
        } catch (error) {
          throw new ConfigError(
            `PREORDER_API_TOKEN is unset and the generated token cannot be kept in ${file}: ${(error as Error).message}`,
          );
        }
      },
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) process.stderr.write(`tenpo: configuration error: ${problem}\n`);
    process.exit(1);
  }

  const log = createLogger(config.logLevel);

  // An error that escapes every handler leaves the process in a state nobody can vouch for: it is
  // logged with its stack, and the process exits with 1 so that its supervisor starts a clean one.
  // Nothing is lost by exiting: a reservation and its messages are committed before it is answered,
  // and messages not yet delivered wait in the outbox for the next process (or another instance).
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (error) => {
      log.fatal({ err: error, event }, 'uncaught error: exiting');
      process.exitCode = 1;
      // The log is written asynchronously: exit once it is out, or after a second if it cannot be.
      log.flush(() => process.exit(1));
      setTimeout(() => process.exit(1), 1_000).unref();
    });
  }

  if (config.adminTokenGenerated) {
    // A secret, if a generated one: shown only to a developer at a terminal, never through the log
    // or a stdout that a log collector may keep; anywhere else the start names the file holding it.
    const kept = config.adminTokenFile ? `kept in ${config.adminTokenFile}` : 'for this run';
    if (config.appEnv === 'development' && process.stdout.isTTY) {
      process.stdout.write(`tenpo: no PREORDER_API_TOKEN set; admin token ${kept}: ${config.adminToken}\n`);
    } else {
      log.info({ file: config.adminTokenFile }, `no PREORDER_API_TOKEN set; admin token ${kept}`);
    }
  }

  try {
    const server = await startServer(config, log);
    log.info(
      {
        url: server.url,
        publicBaseUrl: config.publicBaseUrl,
        storefrontUrl: config.storefrontUrl,
        environment: config.appEnv,
        database: config.database.dialect,
        code: code.bundle ? 'build/service' : 'src',
      },
      'tenpo is listening',
    );
    if (code.why) log.info({ why: code.why }, 'running from src/, not its bundle (npm run build makes it): it starts slower');

    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down');
      await server.close();
      log.info('stopped');
      log.flush();
      process.exitCode = 0;
    };
    process.on('SIGTERM', (signal) => void stop(signal));
    process.on('SIGINT', (signal) => void stop(signal));
  } catch (error) {
    log.fatal({ err: error }, 'cannot start');
    log.flush();
    process.stderr.write(`tenpo: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
