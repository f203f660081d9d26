/**
 * analysis: the time of each analysis screen's call (issue #18: ≤ 1 s each on the default data set, PostgreSQL), over
 * HTTP against the running server, as the first seller. Each call runs once cold, then three times; the figure is
 * the median of the three (the cold time is in the note). Runs after the other steps have added their orders.
 */

import type { TRouteResponse } from '@wms/contracts/client';
import type { TDatabase } from '../../apps/server/src/db/client';
import { httpClient, loginToken } from './client';
import type { TSellerData } from './generate';
import { figure } from './registry';

const log = (msg: string) => console.log(`[bench] ${msg}`);

async function timed(call: () => Promise<TRouteResponse<unknown>>, name: string): Promise<number> {
  const t0 = performance.now();
  const res = await call();
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${name}: ${res.statusCode}`);
  return performance.now() - t0;
}

export async function analysisBench(ctx: { database: TDatabase; url: string; sellers: TSellerData[] }): Promise<void> {
  const seller = ctx.sellers[0]!;
  const api = httpClient(ctx.url);
  const token = await loginToken(api, seller);
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() + 8 * 3600_000 - 364 * 86400_000).toISOString().slice(0, 10);
  const a = api.analysisRoutes;
  const calls: Array<[string, () => Promise<TRouteResponse<unknown>>]> = [
    ['purchase advice (30 days, first page)', () => a.purchaseAdvice({ query: { window: 30 }, token })],
    [
      'purchase advice (90 days, below safety)',
      () => a.purchaseAdvice({ query: { window: 90, below_safety: 'true' }, token }),
    ],
    ['product turnover (30 days)', () => a.productTurnover({ token })],
    [
      'product turnover (one year, dead stock)',
      () => a.productTurnover({ query: { date_from: yearAgo, date_to: today, only: 'dead' }, token }),
    ],
    ['stock age (product × warehouse, FIFO)', () => a.stockAge({ token })],
    ['stock age (per location)', () => a.stockAge({ query: { by: 'location' }, token })],
    ['deliver statistics (30 days, per day)', () => a.deliverStatistics({ token })],
    [
      'deliver statistics (one year, per week × channel)',
      () =>
        a.deliverStatistics({
          query: { date_from: yearAgo, date_to: today, period: 'week', dimension: 'channel' },
          token,
        }),
    ],
    ['location occupancy (per shelf)', () => a.locationOccupancy({ query: { group: 'shelf' }, token })],
    ['dashboard KPIs', () => a.dashboard({ token })],
  ];
  for (const [name, call] of calls) {
    const cold = await timed(call, name);
    const warm = [];
    for (let i = 0; i < 3; i++) warm.push(await timed(call, name));
    warm.sort((a, b) => a - b);
    const median = Math.round(warm[1]!);
    figure('analysis', name, median, 'ms', `median of 3; first call ${Math.round(cold)} ms`);
    log(`analysis: ${name}: ${median} ms (first call ${Math.round(cold)} ms)`);
  }
}
