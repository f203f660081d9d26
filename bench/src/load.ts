import autocannon from 'autocannon';

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
  url: string;
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
      url: opts.url,
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
