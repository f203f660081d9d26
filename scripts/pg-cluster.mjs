// Start a throw-away PostgreSQL cluster from the installed server binaries (initdb into a temp dir, random port).
// These machines run as root, and PostgreSQL refuses to run as root, so the cluster belongs to `postgres`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function findPgBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function runAs(user, cmd, args) {
  const isRoot = process.getuid?.() === 0;
  const full = isRoot ? ['runuser', ['-u', user, '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(full[0], full[1], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/**
 * Returns { url, stop, halt, resume } for a running cluster: `stop` ends it and removes its files; `halt` stops the
 * server as a crash would (immediate mode, files kept) and `resume` starts it again on the same port.
 */
export async function startCluster() {
  const bin = findPgBin();
  if (!bin) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql/*/bin');
  const dir = mkdtempSync(path.join(tmpdir(), 'wms-pg-'));
  chmodSync(dir, 0o777);
  const isRoot = process.getuid?.() === 0;
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const user = isRoot ? 'postgres' : process.env.USER || 'postgres';
  runAs(user, path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c shared_buffers=256MB`;
  runAs(user, path.join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = () => {
    try {
      runAs(user, path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const halt = (mode = 'immediate') => runAs(user, path.join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
  const resume = () =>
    runAs(user, path.join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']);
  return { url, stop, halt, resume, dir };
}
