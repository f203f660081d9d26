import { and, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { outbox_messages } from '../../../db/schema';
import { taipeiToday } from '../../../platform/calendar';
import type { TTestContext } from '../../../test/harness';
import { createOrder, type TWorld, transition } from '../../outbound/__tests__/factories';

/** The work that usage charges for, done through the API as a seller does it (usage.int and statements.int). */

/** Ten-thousandths of a TWD, exactly (the tests' own arithmetic, independent of the database's). */
export const units = (money: string) => {
  const [whole = '0', frac = ''] = money.split('.');
  return Number(whole) * 10_000 + Number(frac.padEnd(4, '0').slice(0, 4));
};

let consignment = 0;
/**
 * Create, export, scan every unit, set a consignment and ship one order of `quantity` plain units (as the seller).
 * `series` keeps consignment numbers of different test files apart (they share one PostgreSQL cluster).
 */
export async function shipOrder(ctx: TTestContext, w: TWorld, quantity: number, series: string) {
  const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity }]);
  expect((await transition(ctx, w.token, o.id, 'export')).statusCode).toBe(200);
  for (let i = 0; i < quantity; i++) {
    const res = await ctx.api.outboundRoutes.packScan({
      params: { id: o.id },
      body: { barcode: w.plain.barcode! },
      token: w.token,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  consignment += 1;
  const number = `${series}${String(Date.now() % 1e6).padStart(6, '0')}${String(consignment).padStart(3, '0')}`;
  const set = await ctx.api.outboundRoutes.setConsignment({
    params: { id: o.id },
    body: { consignment_number: number, piece_count: 1 },
    token: w.token,
    lang: 'en',
  });
  expect(set.statusCode, set.body).toBe(200);
  const shipped = await ctx.api.outboundRoutes.shipOrder({
    params: { id: o.id },
    body: {},
    token: w.token,
    lang: 'en',
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  return o;
}

/** Create and confirm a receipt of `planned` plain units of which `accepted` are accepted (as the seller). */
export async function receiveUnits(ctx: TTestContext, w: TWorld, planned: number, accepted: number) {
  const created = await ctx.api.inboundRoutes.createReceipt({
    body: {
      warehouse_id: w.wh.id,
      planned_date: taipeiToday(),
      lines: [{ product_id: w.plain.id, quantity: planned }],
    },
    token: w.token,
    lang: 'en',
  });
  expect(created.statusCode, created.body).toBe(201);
  const r = created.json();
  const confirmed = await ctx.api.inboundRoutes.confirmReceipt({
    params: { id: r.id },
    body: { lines: [{ line_id: r.lines[0]!.id, accepted_quantity: accepted, location_id: w.loc.B.id }] },
    token: w.token,
    lang: 'en',
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return r;
}

/**
 * Wait until no domain-event message is left to deliver, kicking the outbox's delivery (each try 100 ms): the work's
 * charges are written by the usage subscribers after commit.
 */
export async function eventsDelivered(ctx: TTestContext, tries = 300): Promise<void> {
  for (let i = 0; i < tries; i++) {
    const [row] = await ctx.deps.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox_messages)
      .where(and(sql`${outbox_messages.topic} like 'event.%'`, sql`${outbox_messages.state} <> 'delivered'`));
    if (Number(row!.n) === 0) return;
    ctx.deps.jobs.kick('outbox.deliver');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('events not delivered');
}
