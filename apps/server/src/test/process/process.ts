import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const serverRoot = path.resolve(import.meta.dirname, '../../..');

export interface TServerProcess {
  child: ChildProcess;
  port: number;
  /** Every pino line the process wrote (parsed), and the lines that were not JSON. */
  logs: Array<Record<string, unknown>>;
  other: string[];
  exited: Promise<number | null>;
}

/**
 * The real server as a child process (`src/main.ts` through tsx, as `npm start` runs it; or the compiled
 * `main.js` of `compiledDir`) on its own PGlite directory, JSON logs; resolves once it listens.
 */
export async function startServerProcess(opts: {
  dataDir: string;
  env?: Record<string, string>;
  /** The compiled server's directory (scripts/build-server.mjs output): run `<dir>/main.js` with plain node. */
  compiledDir?: string;
}): Promise<TServerProcess> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: opts.dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    SEED_DEMO: '0',
    ...opts.env,
  };
  const args = opts.compiledDir
    ? [path.join(opts.compiledDir, 'main.js')]
    : ['--import', 'tsx', path.join(serverRoot, 'src/main.ts')];
  const child = spawn(process.execPath, args, { cwd: serverRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: Array<Record<string, unknown>> = [];
  const other: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf('\n');
        if (!line.trim()) continue;
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (entry.msg === 'server listening') resolve(entry.port as number);
        } catch {
          other.push(line);
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => other.push(chunk.toString('utf8')));
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening: ${other.join('\n')}`)));
  });
  return { child, port, logs, other, exited };
}
