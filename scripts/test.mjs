// `npm test`: typecheck, lint, module boundaries, unit tests, server integration tests on PGlite and on real PostgreSQL, then e2e.
// With TEST_DATABASE_URL the PostgreSQL run uses that server; otherwise a throw-away cluster is started when
// /usr/lib/postgresql/*/bin exists. That run goes through pgbouncer (transaction pooling) when it is installed;
// TEST_PGBOUNCER=0 runs it directly. Set E2E=0 to skip the browser suite locally (CI always runs it).
import { spawn, spawnSync } from 'node:child_process';
import { findPgBin, findPgbouncer, startCluster, startPgbouncer } from './pg-cluster.mjs';

const started = Date.now();
const results = [];
function step(name, cmd, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  results.push({ name, ok, seconds: (Date.now() - t0) / 1000 });
  if (!ok) {
    summary();
    process.exit(r.status ?? 1);
  }
}
/** Seconds as "m:ss" beside the seconds, so a phase's share of the run reads at a glance. */
function clock(seconds) {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds - m * 60);
  return `${String(seconds.toFixed(1)).padStart(7)}s ${String(m).padStart(3)}:${String(s).padStart(2, '0')}`;
}
/** The time of every phase run so far, and the whole run's: printed at the end, and on the first failure. */
function summary() {
  console.log('\n── test summary: time per phase ──');
  for (const r of results)
    console.log(`${r.ok ? '✓' : '✗'} ${r.name.padEnd(52)} ${r.skipped ? '   skipped' : clock(r.seconds)}`);
  console.log(`  ${'total'.padEnd(52)} ${clock((Date.now() - started) / 1000)}`);
}

/**
 * Several commands as one phase, `concurrency` at a time (tsc is single-threaded: two projects at once use both
 * cores); each command's output is printed when it ends, so outputs do not interleave.
 */
async function parallelStep(name, commands, concurrency = 2) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const queue = [...commands];
  let failed = 0;
  const run = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [cmd, ...args] = next;
      const code = await new Promise((resolve) => {
        const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        const out = [];
        child.stdout.on('data', (d) => out.push(d));
        child.stderr.on('data', (d) => out.push(d));
        child.on('close', (c) => {
          const text = Buffer.concat(out).toString();
          console.log(`${c === 0 ? '✓' : '✗'} ${next.join(' ')}${text.trim() ? `\n${text.trimEnd()}` : ''}`);
          resolve(c);
        });
      });
      if (code !== 0) failed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, run));
  results.push({ name, ok: failed === 0, seconds: (Date.now() - t0) / 1000 });
  if (failed) {
    summary();
    process.exit(1);
  }
}

const npx = 'npx';
// `npm run typecheck`'s five projects, two at a time, the two largest first.
await parallelStep(
  'typecheck (tsc --noEmit, 2 at a time)',
  ['apps/server', 'apps/web', 'e2e', 'bench', 'packages/contracts'].map((p) => [npx, 'tsc', '-p', p]),
);
step('lint (biome)', npx, ['biome', 'check', '.']);
step('boundaries (dependency-cruiser + baseline)', 'npm', ['run', '-s', 'check:boundaries']);
step('unit: contracts', npx, ['vitest', 'run', '--project', 'contracts']);
step('unit: web', npx, ['vitest', 'run', '--project', 'web']);

const serverEnv = { TEST_DATABASE_URL: '' };
step('server integration on PGlite', npx, ['vitest', 'run', '--project', 'server'], serverEnv);

let cluster = null;
let pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl && findPgBin()) {
  cluster = await startCluster();
  pgUrl = cluster.url;
  console.log(`\nstarted throw-away PostgreSQL cluster at ${pgUrl}`);
}
if (pgUrl) {
  // The PostgreSQL pass runs the app behind pgbouncer in transaction pooling (its admin work — the template, each
  // file's CREATE DATABASE — directly): with the PGlite pass, both engines and the pooler are covered in two passes.
  // TEST_PGBOUNCER=0 runs it directly.
  let bouncer = null;
  // A failed step exits the process at once (no finally): pgbouncer (a daemon) and the cluster are stopped on exit too.
  process.on('exit', () => {
    bouncer?.stop();
    cluster?.stop();
  });
  try {
    if (process.env.TEST_PGBOUNCER !== '0') {
      if (findPgbouncer()) {
        bouncer = await startPgbouncer(pgUrl);
        console.log(`started pgbouncer (transaction pooling) at ${bouncer.url}`);
      } else {
        console.log('\n(pgbouncer is not installed: the PostgreSQL pass runs directly; CI installs it)');
      }
    }
    const name = bouncer ? 'server integration on PostgreSQL behind pgbouncer' : 'server integration on PostgreSQL';
    step(name, npx, ['vitest', 'run', '--project', 'server'], {
      TEST_DATABASE_URL: pgUrl,
      TEST_PGBOUNCER_URL: bouncer?.url ?? '',
    });
  } finally {
    bouncer?.stop();
    cluster?.stop();
  }
} else {
  console.log('\n(no PostgreSQL available: the PostgreSQL run is skipped; CI installs it)');
  results.push({ name: 'server integration on PostgreSQL (no server)', ok: true, skipped: true, seconds: 0 });
}

if (process.env.E2E !== '0') {
  step('e2e (Playwright, Debian Chromium)', 'npm', ['run', '-s', 'test', '-w', 'e2e']);
} else {
  results.push({ name: 'e2e (E2E=0)', ok: true, skipped: true, seconds: 0 });
}
summary();
