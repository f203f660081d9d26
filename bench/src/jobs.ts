import { z } from 'zod';
import { migrateDatabase, openDatabase, type TDatabase } from '../../apps/server/src/db/client';
import { withTx } from '../../apps/server/src/db/tx';
import { defineJob, JobQueue } from '../../apps/server/src/platform/jobs';
import { figure } from './registry';

const log = (msg: string) => console.log(`[bench] ${msg}`);

/**
 * The job queue (pg-boss 10 under our JobQueue): how soon a queued job starts, and how many no-op jobs per second
 * two app processes (two queues, each its own pool and 4 workers) get through on one PostgreSQL; the same pick-up
 * on PGlite. Figures only.
 */
async function pickup(database: TDatabase, label: string, samples: number): Promise<void> {
  let started: () => void = () => {};
  const ping = defineJob('bench.ping', z.object({ n: z.number() }), async () => {
    started();
    return null;
  });
  const queue = new JobQueue(database, [ping], { pollSeconds: 2 });
  await queue.start();
  const kicked: number[] = [];
  const polled: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      for (const [list, kick] of [
        [kicked, true],
        [polled, false],
      ] as const) {
        const t0 = performance.now();
        const done = new Promise<void>((r) => {
          started = r;
        });
        await withTx(database.db, (tx) => queue.enqueue(tx, ping, { n: i }, { customerId: null }));
        if (kick) queue.kick('bench.ping');
        await done;
        list.push(performance.now() - t0);
      }
    }
  } finally {
    await queue.stop();
  }
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
  figure(
    'jobs',
    `${label}: enqueue (commit) → handler starts, with kick()`,
    pct(kicked, 0.5).toFixed(1),
    'ms',
    `p95 ${pct(kicked, 0.95).toFixed(1)} ms, ${samples} samples`,
  );
  figure(
    'jobs',
    `${label}: enqueue → handler starts, by the 2 s poll (another process)`,
    pct(polled, 0.5).toFixed(0),
    'ms',
    `p95 ${pct(polled, 0.95).toFixed(0)} ms`,
  );
}

async function throughput(url: string, jobs: number): Promise<void> {
  const databases = [
    await openDatabase({ databaseUrl: url, poolSize: 8 }),
    await openDatabase({ databaseUrl: url, poolSize: 8 }),
  ];
  let done = 0;
  let finished: () => void = () => {};
  const all = new Promise<void>((r) => {
    finished = r;
  });
  const noop = defineJob(
    'bench.noop',
    z.object({ n: z.number() }),
    async () => {
      if (++done === jobs) finished();
      return null;
    },
    { concurrency: 4 },
  );
  const queues = databases.map((d) => new JobQueue(d, [noop], { pollSeconds: 0.5 }));
  await Promise.all(queues.map((q) => q.start()));
  try {
    const t0 = performance.now();
    for (let i = 0; i < jobs; i += 500)
      await withTx(databases[0]!.db, async (tx) => {
        for (let j = i; j < Math.min(jobs, i + 500); j++)
          await queues[0]!.enqueue(tx, noop, { n: j }, { customerId: null });
      });
    const queuedMs = performance.now() - t0;
    for (const q of queues) q.kick();
    await all;
    const s = (performance.now() - t0) / 1000;
    figure(
      'jobs',
      `PostgreSQL: ${jobs} no-op jobs, 2 processes × 4 workers`,
      (jobs / s).toFixed(0),
      'jobs/s',
      `enqueue ${(jobs / (queuedMs / 1000)).toFixed(0)}/s in 500-job transactions; total ${s.toFixed(1)} s`,
    );
  } finally {
    await Promise.all(queues.map((q) => q.stop()));
    for (const d of databases) await d.close();
  }
}

export async function jobsBench(ctx: { database: TDatabase; url: string; quick: boolean }): Promise<void> {
  log('jobs: pick-up latency and throughput');
  await pickup(ctx.database, 'PostgreSQL', ctx.quick ? 5 : 20);
  await throughput(ctx.url, ctx.quick ? 500 : 3000);
  const pglite = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateDatabase(pglite);
    await pickup(pglite, 'PGlite', ctx.quick ? 5 : 10);
  } finally {
    await pglite.close();
  }
}
