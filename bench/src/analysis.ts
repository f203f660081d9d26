/**
 * analysis: the time of each analysis screen's call (issue #18: ≤ 1 s each on the default data set, PostgreSQL), over
 * HTTP against the running server, as the first seller. Each call runs once cold, then three times; the figure is
 * the median of the three (the cold time is in the note). Runs after the other steps have added their orders.
 */
import type { TDatabase } from '../../apps/server/src/db/client';
import type { TSellerData } from './generate';
import { figure } from './registry';

const log = (msg: string) => console.log(`[bench] ${msg}`);

async function timed(url: string, token: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t0;
}

export async function analysisBench(ctx: { database: TDatabase; url: string; sellers: TSellerData[] }): Promise<void> {
  const seller = ctx.sellers[0]!;
  const login = await fetch(`${ctx.url}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: seller.email, password: seller.password }),
  });
  const { access } = (await login.json()) as { access: string };
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() + 8 * 3600_000 - 364 * 86400_000).toISOString().slice(0, 10);
  const calls: Array<[string, string]> = [
    ['purchase advice (30 days, first page)', '/api/purchase-advice/?window=30'],
    ['purchase advice (90 days, below safety)', '/api/purchase-advice/?window=90&below_safety=true'],
    ['product turnover (30 days)', '/api/product-turnover/'],
    [
      'product turnover (one year, dead stock)',
      `/api/product-turnover/?date_from=${yearAgo}&date_to=${today}&only=dead`,
    ],
    ['stock age (product × warehouse, FIFO)', '/api/stock-age/'],
    ['stock age (per location)', '/api/stock-age/?by=location'],
    ['deliver statistics (30 days, per day)', '/api/deliver-statistics/'],
    [
      'deliver statistics (one year, per week × channel)',
      `/api/deliver-statistics/?date_from=${yearAgo}&date_to=${today}&period=week&dimension=channel`,
    ],
    ['location occupancy (per shelf)', '/api/location-occupancy/?group=shelf'],
    ['dashboard KPIs', '/api/dashboard/'],
  ];
  for (const [name, path] of calls) {
    const cold = await timed(`${ctx.url}${path}`, access);
    const warm = [];
    for (let i = 0; i < 3; i++) warm.push(await timed(`${ctx.url}${path}`, access));
    warm.sort((a, b) => a - b);
    const median = Math.round(warm[1]!);
    figure('analysis', name, median, 'ms', `median of 3; first call ${Math.round(cold)} ms`);
    log(`analysis: ${name}: ${median} ms (first call ${Math.round(cold)} ms)`);
  }
}
