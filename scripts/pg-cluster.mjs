// Start a throw-away PostgreSQL cluster from the installed server binaries (initdb into a temp dir, random port).
// These machines run as root, and PostgreSQL refuses to run as root, so the cluster belongs to `postgres`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** pgbouncer's binary (Debian: /usr/sbin/pgbouncer), or null. */
export function findPgbouncer() {
  for (const p of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'])
    if (existsSync(p)) return p;
  return null;
}

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
  return { url, stop, halt, resume, dir, port, data, user, bin };
}

/** Wait until something accepts TCP connections on 127.0.0.1:`port` (up to `ms`). */
async function listening(port, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A temp directory the cluster's user can write (root: owned by postgres). */
function ownedDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  return dir;
}

/**
 * pgbouncer in front of the cluster at `clusterUrl`: transaction pooling, one wildcard database entry (`* =`: every
 * database of the cluster, as user postgres), trust auth for the postgres user (the cluster itself trusts it), the
 * admin console (`pgbouncer` database) open to postgres. Runs as the cluster's user. Returns { url, adminUrl, port,
 * stop } — `url` names the database `postgres`; swap the port of any cluster URL for `port` to go through pgbouncer.
 */
export async function startPgbouncer(clusterUrl, opts = {}) {
  const exe = findPgbouncer();
  if (!exe) throw new Error('pgbouncer is not installed (Debian: apt-get install pgbouncer)');
  const target = new URL(clusterUrl);
  const dir = ownedDir('wms-pgbouncer-');
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const users = path.join(dir, 'userlist.txt');
  writeFileSync(users, '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432} user=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      'max_client_conn = 2000',
      // More server connections per database than one app process's pools hold (main 20 + side 2 in the tests): a
      // transaction waiting on a statement of its own (ownStatement) never waits for a server connection.
      `default_pool_size = ${opts.poolSize ?? 40}`,
      'server_reset_query =',
      // SHOW STATS totals are refreshed every stats_period (default 60 s): every second, and no stats lines logged.
      'stats_period = 1',
      'log_stats = 0',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const user = process.getuid?.() === 0 ? 'postgres' : process.env.USER || 'postgres';
  runAs(user, exe, ['-d', ini]);
  await listening(port);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = () => {
    try {
      const pid = Number(readFileSync(path.join(dir, 'pgbouncer.pid'), 'utf8').trim());
      if (pid) process.kill(pid, 'SIGTERM');
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, adminUrl: `postgres://postgres@127.0.0.1:${port}/pgbouncer`, port, stop, dir };
}

/**
 * A streaming replica of a cluster from `startCluster` (which allows replication: wal_level replica is the default,
 * and its pg_hba trusts local replication): `pg_basebackup -R` into a second data directory, started on another port
 * in hot standby. Returns { url, stop }.
 */
export async function startReplica(cluster) {
  const dir = ownedDir('wms-pg-replica-');
  const data = path.join(dir, 'data');
  runAs(cluster.user, path.join(cluster.bin, 'pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(cluster.port),
    '-U',
    'postgres',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c hot_standby=on -c max_connections=300 -c fsync=off`;
  runAs(cluster.user, path.join(cluster.bin, 'pg_ctl'), [
    '-D',
    data,
    '-o',
    opts,
    '-l',
    path.join(dir, 'log'),
    '-w',
    'start',
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = () => {
    try {
      runAs(cluster.user, path.join(cluster.bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, stop, dir, port };
}
