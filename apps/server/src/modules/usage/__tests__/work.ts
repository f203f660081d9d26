import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { outbound_orders, outbox_messages } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import { taipeiToday } from '../../../platform/calendar';
import { publishEvent } from '../../../platform/events';
import type { TTestContext } from '../../../test/harness';
import { ordersShipped } from '../../outbound';
import { createOrder, type TWorld, transition } from '../../outbound/__tests__/factories';

/** The work that usage charges for, done through the API as a seller does it (usage.int and statements.int). */

/** Ten-thousandths of a TWD, exactly (the tests' own arithmetic, independent of the database's). */
export const units = (money: string) => {
  const [whole = '0', frac = ''] = money.split('.');
  return Number(whole) * 10_000 + Number(frac.padEnd(4, '0').slice(0, 4));
};

/** Ten-thousandths of a TWD back to the API's decimal string (no trailing zeros). */
export const money = (u: number) => {
  const sign = u < 0 ? '-' : '';
  const a = Math.abs(u);
  const frac = String(a % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return `${sign}${Math.floor(a / 10_000)}${frac ? `.${frac}` : ''}`;
};

/** The 5 % business tax of a sum (ten-thousandths), in whole TWD rounded half up. */
export const taxOf = (sum: number) => Math.floor((sum * 5) / 100 / 10_000 + 0.5) * 10_000;

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

export interface TSeededOrder {
  id: string;
  number: string;
  units: number;
  closed_at: Date;
}

/**
 * `n` shipped orders of seller `w`, the cheap way: one order made through the API, copied `n - 1` times in the
 * database, all closed at their `closed_at`; their shipments told as the ship use case tells them — the
 * `outbound.orders-shipped` event through the outbox (in batches of 100, as a wave would), delivered to usage's
 * subscriber by `eventsDelivered`. Order i has `shape(i).units` units. The stock is not moved (storage is not what
 * these orders test).
 */
export async function seedShippedOrders(
  ctx: TTestContext,
  w: TWorld,
  n: number,
  shape: (i: number) => { units: number; closed_at: Date },
): Promise<TSeededOrder[]> {
  const db = ctx.deps.database.db;
  const template = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }]);
  const [row] = await db.select().from(outbound_orders).where(eq(outbound_orders.id, template.id));
  const orders = Array.from({ length: n }, (_, i) => ({
    id: i === 0 ? row!.id : randomUUID(),
    number: i === 0 ? row!.number : `${row!.number}-${i}`,
    ...shape(i),
  }));
  await withTx(db, async (tx) => {
    await tx
      .update(outbound_orders)
      .set({ status: 'closed', closed_at: orders[0]!.closed_at })
      .where(eq(outbound_orders.id, row!.id));
    for (let i = 1; i < n; i += 250)
      await tx.insert(outbound_orders).values(
        orders.slice(i, i + 250).map((o) => ({
          ...row!,
          id: o.id,
          number: o.number,
          status: 'closed',
          closed_at: o.closed_at,
          created_at: o.closed_at,
          updated_at: o.closed_at,
        })),
      );
    for (let i = 0; i < n; i += 100)
      await publishEvent(
        tx,
        ctx.deps.jobs,
        ordersShipped,
        {
          customer_id: w.customerId,
          orders: orders.slice(i, i + 100).map((o) => ({
            order_id: o.id,
            number: o.number,
            shipped_at: o.closed_at.toISOString(),
            units: o.units,
          })),
        },
        { customerId: w.customerId },
      );
  });
  return orders;
}
