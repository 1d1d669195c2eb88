import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { builtCodeFile } from '../src/serving/bundle/load-bundle.ts';
import { serviceCode } from '../src/serving/bundle/service-manifest.ts';
import { PROJECT_ROOT } from '../src/serving/bundle/sources.ts';

// The last step of `npm run build`: starts the service just built once, on a throwaway store and
// compile cache, and keeps the code V8 compiled for its bundle beside it (built/load-bundle.ts), so
// that the first start after a build, and every start of a release built from it, finds it. Without
// it that start compiled every function it called: 263 against 167 ms to the first answer
// (docs/performance.md, Starting).

const code = serviceCode();
if (!code.bundle) {
  process.stderr.write(`keep-start-code: the bundle is not that of the sources (${code.why}): run npm run build\n`);
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'tenpo-keep-start-code-'));
try {
  const service = spawn(process.execPath, ['build/service/main.js'], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: `sqlite:${join(dir, 'start.db')}`,
      HOST: '127.0.0.1',
      PORT: '0',
      PREORDER_API_TOKEN: 'keep-start-code',
      NODE_COMPILE_CACHE: join(dir, 'compile-cache'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => service.once('exit', resolve));
  // Its first answer, as a start is timed: the code is kept once it has answered.
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    service.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      const listening = /"url":"([^"]+)"[^\n]*"msg":"tenpo is listening"/.exec(log);
      if (listening) resolve(listening[1]!);
    });
    void exited.then(() => reject(new Error(`the service exited before listening`)));
  });
  while ((await status(`${url}/healthz`)) !== 200) await new Promise((resolve) => setTimeout(resolve, 10));
  service.kill('SIGTERM');
  await exited;
  const kept = readdirSync(join(dir, 'compile-cache'), { recursive: true, encoding: 'utf8' }).find((name) =>
    basename(name).startsWith('tenpo-service-'),
  );
  if (kept === undefined) throw new Error('the start kept no code');
  copyFileSync(join(dir, 'compile-cache', kept), builtCodeFile(code.bundle, code.bundleHash));
  process.stdout.write(`service: the code of a start kept in ${basename(builtCodeFile(code.bundle, code.bundleHash))}\n`);
} catch (error) {
  process.stderr.write(`keep-start-code: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    request(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    })
      .on('error', () => resolve(0))
      .end();
  });
}
