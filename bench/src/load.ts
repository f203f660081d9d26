import autocannon from 'autocannon';
import type pg from 'pg';
import type { Executor } from '../../apps/server/src/db/client';
import { loadUserGrants } from '../../apps/server/src/platform/permissions.repository';
import { CallerGrants, requestGrants } from '../../apps/server/src/platform/request-grants';

export interface TLoadResult {
  name: string;
  engine: string;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The same SQL straight from Node `pg` at the same concurrency (PostgreSQL only): the machine's limit. */
  sql_rps?: number;
  sql_p95?: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i]! * 10) / 10;
}

/** Drive one endpoint with N connections for a few seconds; latency percentiles from every response time. */
export async function loadTest(opts: {
  name: string;
  engine: string;
  /** Several URLs (one per app process): autocannon spreads the connections over them. */
  url: string | string[];
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
  /** Vary path and body per request: taken in turn (wrapping round), shared by all connections. */
  requests?: Array<{ path: string; body: string }>;
}): Promise<TLoadResult> {
  let next = 0;
  const list = opts.requests;
  const times: number[] = [];
  const instance: autocannon.Instance = autocannon(
    {
      // autocannon takes an array of URLs at run time; its types name one.
      url: opts.url as string,
      method: opts.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) },
      body: opts.body,
      connections: opts.connections ?? 50,
      duration: opts.seconds ?? 10,
      ...(list
        ? {
            requests: [
              {
                setupRequest: (req: autocannon.Request) => {
                  const r = list[next++ % list.length]!;
                  return { ...req, path: r.path, body: r.body };
                },
              },
            ],
          }
        : {}),
    },
    () => undefined,
  );
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    times.push(responseTime);
  });
  const result = await new Promise<autocannon.Result>((resolve) => instance.on('done', resolve));
  times.sort((a, b) => a - b);
  return {
    name: opts.name,
    engine: opts.engine,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** One recorded statement as the server's driver sent it (named when the server keeps it prepared). */
export interface TRecordedStatement {
  text: string;
  values: unknown[];
  name?: string;
  /** The pool it went through (the server's read pool keeps generic plans: the replay sends it there too). */
  pool: pg.Pool;
}

/** The statements `run` sends through `pools` (the database's main and read pools; it must not use another). */
export async function recordStatements(
  pools: Array<pg.Pool | undefined>,
  run: () => Promise<unknown>,
): Promise<TRecordedStatement[]> {
  const seen: TRecordedStatement[] = [];
  const originals = new Map<pg.Pool, pg.Pool['query']>();
  for (const pool of pools) {
    if (!pool || originals.has(pool)) continue;
    const original = pool.query;
    originals.set(pool, original);
    // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; the recorder passes every call through
    (pool as any).query = function (this: pg.Pool, config: any, values?: unknown[]) {
      const text = typeof config === 'string' ? config : config.text;
      seen.push({ text, values: values ?? config?.values ?? [], pool, ...(config?.name ? { name: config.name } : {}) });
      // biome-ignore lint/suspicious/noExplicitAny: as above
      return (original as any).call(this, config, values);
    };
  }
  try {
    await run();
  } finally {
    for (const [pool, original] of originals) pool.query = original;
  }
  return seen;
}

/**
 * The limit beside an endpoint: its statements (one "request" = all of them in turn) sent straight from `pg` (each
 * through the pool the server's code sent it through) by `connections` workers for `seconds`, with no HTTP, no validation, no auth, no JSON.
 */
export async function sqlLimit(
  statements: TRecordedStatement[],
  opts: { connections?: number; seconds?: number } = {},
): Promise<{ rps: number; p95: number }> {
  const until = Date.now() + (opts.seconds ?? 10) * 1000;
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: opts.connections ?? 50 }, async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        for (const s of statements)
          await s.pool.query(
            s.name ? { name: s.name, text: s.text, values: s.values } : { text: s.text, values: s.values },
          );
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { rps: Math.round(times.length / (opts.seconds ?? 10)), p95: percentile(times, 95) };
}

/**
 * Run a service call as route() runs it for a signed-in user: the user's grants checked as the route does (with the
 * call's first statement on a `grants: 'first-statement'` route, else in a statement of their own after it) — so
 * `recordStatements` records what the server sends for one request.
 */
export async function asSignedIn<T>(db: Executor, userId: string, run: () => Promise<T>): Promise<T> {
  const caller = new CallerGrants(userId, undefined, (id) => loadUserGrants(db, id));
  const result = await requestGrants.run(caller, run);
  await caller.check();
  return result;
}
