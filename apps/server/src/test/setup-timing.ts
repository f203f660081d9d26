// Per-file set-up time of the server tests: what one test file pays before its first test — a new process (as vitest's
// fork per file) building the test app with createTestContext — measured N times after the run's global set-up.
//   npx tsx apps/server/src/test/setup-timing.ts [N]            (PGlite)
//   TEST_DATABASE_URL=postgres://… npx tsx apps/server/src/test/setup-timing.ts [N]
//   … setup-timing.ts N --no-jobs    (a file that starts no job workers: createTestContext({}, { jobs: false }))
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);

if (process.argv[2] === '--child') {
  const { createTestContext } = await import('./harness');
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const ctx = await createTestContext({}, { jobs: process.argv[3] !== '--no-jobs' });
  const setup = performance.now() - t0;
  const c = process.cpuUsage(c0);
  await ctx.close();
  // CPU time of this process (user + system): steadier than wall time on a shared machine (PostgreSQL's own
  // work happens in the server's processes and is not in it).
  console.log(JSON.stringify({ setup: Math.round(setup), cpu: Math.round((c.user + c.system) / 1000) }));
} else {
  const n = Number(process.argv[2] ?? 5);
  const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const { default: globalSetup } = await import('./global-setup');
  const t0 = performance.now();
  const teardown = await globalSetup();
  console.log(`${engine}: global set-up (once per run) ${Math.round(performance.now() - t0)} ms`);
  const times: number[] = [];
  const cpus: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const r = spawnSync(process.execPath, [...process.execArgv, self, '--child', ...process.argv.slice(3)], {
        encoding: 'utf8',
        env: process.env,
      });
      if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
      const { setup, cpu } = JSON.parse(r.stdout.trim().split('\n').pop()!) as { setup: number; cpu: number };
      times.push(setup);
      cpus.push(cpu);
      console.log(`${engine}: file ${i + 1}: createTestContext ${setup} ms wall, ${cpu} ms CPU`);
    }
  } finally {
    await teardown();
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  console.log(
    `${engine}: per-file set-up over ${n} files: median ${median(times)} ms wall, median ${median(cpus)} ms CPU`,
  );
}
