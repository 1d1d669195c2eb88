import { spawn } from 'node:child_process';

export interface ChildServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs a baseline server script as its own process (as tenpo runs), so both get a core of their
 * own: `node <script> ...args`, ready once it prints a line, listening on 127.0.0.1:`port`.
 */
export async function startChildServer(script: string, args: string[], port: number): Promise<ChildServer> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
