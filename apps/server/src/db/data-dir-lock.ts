import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * One process per PGlite data directory: PGlite keeps its pages in memory and writes them back on its own, so two
 * processes on one directory each overwrite the other's confirmed writes. The first to open it writes
 * `wms.lock` ({pid, host}); another process finds it and refuses to start while that pid is alive on this host.
 * A lock left by a process that died (kill -9, power loss) is taken over.
 */
export class DataDirLockedError extends Error {}

export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'wms.lock');
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), started_at: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, mine);
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(file);
    if (holder && holderAlive(holder)) {
      throw new DataDirLockedError(
        `The data directory ${dir} is already open in process ${holder.pid} on ${holder.host}. ` +
          'PGlite serves one process: stop that process first, or use PostgreSQL (DATABASE_URL) for several processes.',
      );
    }
    try {
      unlinkSync(file); // stale: its process is gone
    } catch {
      // another starter removed it first; try again
    }
  }
  throw new DataDirLockedError(`The data directory ${dir} is being opened by another process; try again.`);
}

function readHolder(file: string): { pid: number; host: string } | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; host?: unknown };
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, host: String(parsed.host ?? '') } : null;
  } catch {
    return null; // half-written or unreadable: treated as stale
  }
}

function holderAlive(holder: { pid: number; host: string }): boolean {
  // On another host (a shared volume) the pid means nothing here: keep out to be safe.
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return true; // this process opened it already
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
