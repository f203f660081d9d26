import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import {
  audit_logs,
  carrier_events,
  carrier_labels,
  inbound_receipts,
  integration_attempts,
  jobs,
  logistics_providers,
  outbound_order_lines,
  outbound_orders,
  outbound_pack_items,
  outbound_serials,
  retention_settings,
  return_receipt_lines,
  return_receipts,
  stock_balances,
  stock_movements,
  stock_reservations,
  stocktake_locations,
  stocktakes,
  store_orders,
  stores,
  users,
} from '../../../db/schema';
import { hashPassword } from '../../../platform/crypto';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { stockFactory } from '../../stock/__tests__/factories';
import { checkStockInvariants } from '../../stock/stock.invariants';
import { retentionSchedule } from '../retention.jobs';

const COMPANY = '清除測試商行';
const OLD = sql`now() - interval '14 months'`;
const RECENT = sql`now() - interval '2 months'`;

let ctx: TTestContext;
let a: Awaited<ReturnType<TTestContext['newCustomer']>>;
let b: Awaited<ReturnType<TTestContext['newCustomer']>>;

const db = () => ctx.deps.database.db;

/** A seller's documents: finished long ago (purged at 12 months), finished recently, and still open. */
async function seed(customerId: string, token: string) {
  const f = stockFactory(db(), customerId);
  const wh = await f.warehouse();
  const tag = randomUUID().slice(0, 6);
  const loc = await f.location(wh.id, { code: `R-${tag}` });
  const product = await f.product({ number: `RET-${tag}` });
  // Two real receipts through the API (ledger rows written by the stock engine): one is backdated.
  const receipts: string[] = [];
  for (const quantity of [10, 5]) {
    const res = await ctx.api.inboundRoutes.quickInbound({
      body: { warehouse_id: wh.id, code: product.number, quantity, location_code: loc.code },
      token,
    });
    expect(res.statusCode, res.body).toBe(201);
    receipts.push(res.json().id);
  }
  await db().update(inbound_receipts).set({ confirmed_at: OLD }).where(eq(inbound_receipts.id, receipts[0]!));
  const [pendingReceipt] = await db()
    .insert(inbound_receipts)
    .values({ customer_id: customerId, number: `IN-P-${tag}`, warehouse_id: wh.id, planned_date: '2024-01-01' })
    .returning();
  await db().execute(sql`update inbound_receipts set created_at = ${OLD} where id = ${pendingReceipt!.id}`);

  const order = async (n: string, status: string, at: typeof OLD | null) => {
    const [o] = await db()
      .insert(outbound_orders)
      .values({
        customer_id: customerId,
        number: `SO-${n}-${tag}`,
        recipient_name: `Recipient ${n}`,
        warehouse_id: wh.id,
        status,
        ...(status === 'cancelled' ? { cancelled_at: at ?? undefined } : {}),
        ...(status === 'closed' ? { closed_at: at ?? undefined } : {}),
      })
      .returning();
    await db()
      .insert(outbound_order_lines)
      .values({ customer_id: customerId, order_id: o!.id, line_no: 1, product_id: product.id, quantity: 1 });
    return o!;
  };
  const oldClosed = await order('OLDC', 'closed', OLD);
  await db()
    .insert(outbound_pack_items)
    .values({ customer_id: customerId, order_id: oldClosed.id, product_id: product.id, expected: 1, packed: 1 });
  await db()
    .insert(outbound_serials)
    .values({ customer_id: customerId, order_id: oldClosed.id, product_id: product.id, serial: `IMEI-${tag}` });
  await db()
    .insert(carrier_labels)
    .values({ order_id: oldClosed.id, customer_id: customerId, carrier: 'tcat', consignment_number: `CN-${tag}` });
  const [provider] = await db()
    .insert(logistics_providers)
    .values({ customer_id: customerId, code: `ECPAY-${tag}`, name: 'ECPay', carrier_type: 'ecpay' })
    .returning();
  await db()
    .insert(carrier_events)
    .values({
      customer_id: customerId,
      logistics_provider_id: provider!.id,
      order_id: oldClosed.id,
      carrier: 'ecpay',
      merchant_trade_no: `T-${tag}`,
      status_code: '3024',
    });
  const oldCancelled = await order('OLDX', 'cancelled', OLD);
  const [store] = await db()
    .insert(stores)
    .values({ customer_id: customerId, name: 'Store', short_url: `s-${tag}` })
    .returning();
  await db().insert(store_orders).values({ customer_id: customerId, store_id: store!.id, order_id: oldCancelled.id });
  // An old closed order still holding stock (reservation above zero; the balance's `reserved` says so): kept.
  const heldOld = await order('HELD', 'closed', OLD);
  const [balance] = await db().select().from(stock_balances).where(eq(stock_balances.customer_id, customerId));
  await db()
    .update(stock_balances)
    .set({ reserved: sql`${stock_balances.reserved} + 1` })
    .where(eq(stock_balances.id, balance!.id));
  await db().insert(stock_reservations).values({
    customer_id: customerId,
    balance_id: balance!.id,
    document_type: 'outbound',
    document_id: heldOld.id,
    document_number: heldOld.number,
    quantity: 1,
  });
  const recentClosed = await order('NEWC', 'closed', RECENT);
  const openOld = await order('OPEN', 'online', null);
  await db().execute(sql`update outbound_orders set created_at = ${OLD}, updated_at = ${OLD} where id = ${openOld.id}`);

  // A recent, pending return that names the old order: it stays, its link is emptied.
  const [pendingReturn] = await db()
    .insert(return_receipts)
    .values({
      customer_id: customerId,
      number: `RT-P-${tag}`,
      warehouse_id: wh.id,
      planned_date: '2026-10-01',
      order_id: oldClosed.id,
      order_number: oldClosed.number,
    })
    .returning();
  const [oldReturn] = await db()
    .insert(return_receipts)
    .values({
      customer_id: customerId,
      number: `RT-O-${tag}`,
      warehouse_id: wh.id,
      planned_date: '2025-01-01',
      status: 'confirmed',
      confirmed_at: OLD,
    })
    .returning();
  await db()
    .insert(return_receipt_lines)
    .values({ customer_id: customerId, receipt_id: oldReturn!.id, line_no: 1, product_id: product.id, quantity: 1 });

  const sheet = async (n: string, status: string, at: typeof OLD | null) => {
    const [s] = await db()
      .insert(stocktakes)
      .values({
        customer_id: customerId,
        number: `ST-${n}-${tag}`,
        warehouse_id: wh.id,
        name: `Count ${n}`,
        year: 2025,
        type: 'first',
        status,
        ...(status === 'closed' ? { closed_at: at ?? undefined } : {}),
      })
      .returning();
    await db()
      .insert(stocktake_locations)
      .values({ customer_id: customerId, stocktake_id: s!.id, location_id: loc.id });
    return s!;
  };
  const oldSheet = await sheet('OLD', 'closed', OLD);
  const openSheet = await sheet('OPEN', 'first', null);

  const [oldJob] = await db()
    .insert(jobs)
    .values({ customer_id: customerId, kind: 'product.import', state: 'succeeded', finished_at: OLD })
    .returning();
  const [recentJob] = await db()
    .insert(jobs)
    .values({ customer_id: customerId, kind: 'product.import', state: 'failed', finished_at: RECENT })
    .returning();
  const attempt = (at: typeof OLD) =>
    db()
      .insert(integration_attempts)
      .values({
        customer_id: customerId,
        provider: 'webhook',
        operation: 'test',
        method: 'POST',
        url: 'https://x.tw',
        created_at: at,
      })
      .returning();
  const [oldAttempt] = await attempt(OLD);
  const [recentAttempt] = await attempt(RECENT);
  return {
    receipts,
    pendingReceipt: pendingReceipt!,
    oldClosed,
    oldCancelled,
    heldOld,
    recentClosed,
    openOld,
    pendingReturn: pendingReturn!,
    oldReturn: oldReturn!,
    oldSheet,
    openSheet,
    oldJob: oldJob!,
    recentJob: recentJob!,
    oldAttempt: oldAttempt!,
    recentAttempt: recentAttempt!,
  };
}

let seedA: Awaited<ReturnType<typeof seed>>;
let seedB: Awaited<ReturnType<typeof seed>>;

beforeAll(async () => {
  ctx = await createTestContext();
  a = await ctx.newCustomer({ name: COMPANY });
  b = await ctx.newCustomer({ name: 'Other seller' });
  seedA = await seed(a.customerId, a.token);
  seedB = await seed(b.customerId, b.token);
}, 120_000);
afterAll(() => ctx?.close());

const EXPECTED_OLD = {
  outbound_orders: 2,
  inbound_receipts: 1,
  return_receipts: 1,
  stocktakes: 1,
  job_logs: 1,
  attempt_logs: 1,
};
const countsOf = (body: { counts: Array<{ kind: string; count: number }> }) =>
  Object.fromEntries(body.counts.map((c) => [c.kind, c.count]));

const exists = async (table: string, id: string | number) =>
  (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${sql.raw(table)} where id = ${id}`))[0]!
    .n === 1;

async function waitForJob(id: string, token: string) {
  ctx.deps.jobs.kick();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await ctx.api.jobRoutes.getJob({ params: { id }, token });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json();
    if (!['queued', 'running'].includes(job.state)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('/database-clean', () => {
  it('previews the counts per kind for a retention of 3/6/12/24 months (12 by default)', async () => {
    const res = await ctx.api.retentionRoutes.previewRetention({ token: a.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ months: 12, running_job: null });
    expect(countsOf(res.json())).toEqual(EXPECTED_OLD);
    const three = countsOf(
      (await ctx.api.retentionRoutes.previewRetention({ query: { months: '3' }, token: a.token })).json(),
    );
    // At 3 months the recent rows (2 months old) are still kept; the recently confirmed receipt is new.
    expect(three).toEqual(EXPECTED_OLD);
    const two = countsOf(
      (await ctx.api.retentionRoutes.previewRetention({ query: { months: '24' }, token: a.token })).json(),
    );
    expect(Object.values(two).every((n) => n === 0)).toBe(true);
    expect(
      (await ctx.api.retentionRoutes.previewRetention({ query: { months: '5' }, token: a.token })).statusCode,
    ).toBe(400);
  });

  it('exports what would be purged to Excel, per kind', async () => {
    const res = await ctx.api.retentionRoutes.exportRetention({
      query: { months: '12', kind: 'outbound_orders' },
      token: a.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const refs = ws.getColumn(1).values.slice(2).map(String).sort();
    expect(refs).toEqual([seedA.oldCancelled.number, seedA.oldClosed.number].sort());
  });

  it('a warehouse or office user gets 403; the confirmation must be the company name', async () => {
    for (const role of ['warehouse', 'office'] as const) {
      const email = `${role}-${randomUUID().slice(0, 6)}@t.tw`;
      await db()
        .insert(users)
        .values({
          customer_id: a.customerId,
          email,
          name: role,
          role: 'CUSTOMER',
          seller_role: role,
          password_hash: await hashPassword('pass-word-1'),
        });
      const { access } = await ctx.login(email, 'pass-word-1');
      for (const res of [
        await ctx.api.retentionRoutes.previewRetention({ token: access }),
        await ctx.api.retentionRoutes.exportRetention({ query: { kind: 'job_logs' }, token: access }),
        await ctx.api.retentionRoutes.purgeRetention({
          body: { months: 12, kinds: ['job_logs'], confirm_name: COMPANY },
          token: access,
        }),
      ]) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.error().code).toBe('PERMISSION_DENIED');
      }
    }
    const wrong = await ctx.api.retentionRoutes.purgeRetention({
      body: { months: 12, kinds: ['outbound_orders'], confirm_name: 'Other seller' },
      token: a.token,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.error().code).toBe('CONFIRM_NAME_MISMATCH');
    const queued = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.customer_id, a.customerId), eq(jobs.kind, 'retention.purge')));
    expect(queued).toEqual([]);
  });

  it('one purge at a time per seller (409 PURGE_RUNNING)', async () => {
    const [running] = await db()
      .insert(jobs)
      .values({ customer_id: b.customerId, kind: 'retention.purge', state: 'running' })
      .returning();
    const res = await ctx.api.retentionRoutes.purgeRetention({
      body: { months: 12, kinds: ['job_logs'], confirm_name: 'Other seller' },
      token: b.token,
    });
    expect(res.statusCode).toBe(409);
    expect(res.error().code).toBe('PURGE_RUNNING');
    expect((await ctx.api.retentionRoutes.previewRetention({ token: b.token })).json().running_job!.id).toBe(
      running!.id,
    );
    await db().delete(jobs).where(eq(jobs.id, running!.id));
  });

  it('purges in a job: old finished rows go with their children; open, recent and other sellers’ rows stay', async () => {
    const movementsBefore = await db().select().from(stock_movements);
    const res = await ctx.api.retentionRoutes.purgeRetention({
      body: {
        months: 12,
        kinds: [...Object.keys(EXPECTED_OLD)] as Array<keyof typeof EXPECTED_OLD>,
        confirm_name: ` ${COMPANY} `,
      },
      token: a.token,
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(res.json().id, a.token);
    expect(job.state, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.result).toMatchObject({ deleted: EXPECTED_OLD });
    expect(job.progress).toBe(7);
    expect(job.total).toBe(7);

    const after = countsOf((await ctx.api.retentionRoutes.previewRetention({ token: a.token })).json());
    expect(Object.values(after).every((n) => n === 0)).toBe(true);

    // Gone, with their children.
    for (const [table, id] of [
      ['outbound_orders', seedA.oldClosed.id],
      ['outbound_orders', seedA.oldCancelled.id],
      ['inbound_receipts', seedA.receipts[0]!],
      ['return_receipts', seedA.oldReturn.id],
      ['stocktakes', seedA.oldSheet.id],
      ['jobs', seedA.oldJob.id],
      ['integration_attempts', seedA.oldAttempt.id],
    ] as const)
      expect(await exists(table, id), `${table} ${id}`).toBe(false);
    for (const t of [outbound_order_lines, outbound_pack_items, outbound_serials, carrier_labels, carrier_events])
      expect(await db().select().from(t).where(eq(t.order_id, seedA.oldClosed.id))).toEqual([]);
    expect(await db().select().from(store_orders).where(eq(store_orders.order_id, seedA.oldCancelled.id))).toEqual([]);
    expect(
      await db().select().from(return_receipt_lines).where(eq(return_receipt_lines.receipt_id, seedA.oldReturn.id)),
    ).toEqual([]);
    expect(
      await db().select().from(stocktake_locations).where(eq(stocktake_locations.stocktake_id, seedA.oldSheet.id)),
    ).toEqual([]);

    // Kept: open documents, recent ones, the return that named a purged order (link emptied, number kept).
    for (const [table, id] of [
      ['outbound_orders', seedA.recentClosed.id],
      ['outbound_orders', seedA.heldOld.id],
      ['outbound_orders', seedA.openOld.id],
      ['inbound_receipts', seedA.receipts[1]!],
      ['inbound_receipts', seedA.pendingReceipt.id],
      ['stocktakes', seedA.openSheet.id],
      ['jobs', seedA.recentJob.id],
      ['integration_attempts', seedA.recentAttempt.id],
    ] as const)
      expect(await exists(table, id), `${table} ${id}`).toBe(true);
    const [ret] = await db().select().from(return_receipts).where(eq(return_receipts.id, seedA.pendingReturn.id));
    expect(ret).toMatchObject({ order_id: null, order_number: seedA.oldClosed.number });

    // The stock ledger and balances are untouched; the invariants hold.
    expect(await db().select().from(stock_movements)).toEqual(movementsBefore);
    expect(movementsBefore.some((m) => m.document_id === seedA.receipts[0])).toBe(true);
    expect(await checkStockInvariants(db())).toEqual([]);

    // The other seller's old rows are all still there.
    expect(countsOf((await ctx.api.retentionRoutes.previewRetention({ token: b.token })).json())).toEqual(EXPECTED_OLD);

    // Audited: the request and one row per batch with its count and numbers.
    const audits = await db().select().from(audit_logs).where(eq(audit_logs.customer_id, a.customerId));
    expect(audits.find((x) => x.action === 'purge_requested')).toMatchObject({ actor_id: a.userId, entity_id: job.id });
    const orders = audits.find((x) => x.action === 'purge' && x.entity === 'outbound_orders');
    expect(orders?.after).toMatchObject({ kind: 'outbound_orders', count: 2, job_id: job.id });
    expect((orders?.after as { numbers: string[] }).numbers.sort()).toEqual(
      [seedA.oldClosed.number, seedA.oldCancelled.number].sort(),
    );
  });

  it('deletes in batches of 500, one audit row per batch, with progress', async () => {
    await db().execute(sql`insert into integration_attempts (customer_id, provider, operation, method, url, created_at)
      select ${a.customerId}, 'webhook', 'bulk', 'POST', 'https://x.tw', now() - interval '13 months'
      from generate_series(1, 1201)`);
    const res = await ctx.api.retentionRoutes.purgeRetention({
      body: { months: 12, kinds: ['attempt_logs'], confirm_name: COMPANY },
      token: a.token,
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(res.json().id, a.token);
    expect(job).toMatchObject({ state: 'succeeded', progress: 1201, total: 1201 });
    expect(job.result).toMatchObject({ deleted: { attempt_logs: 1201 } });
    const batches = await db()
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.customer_id, a.customerId), eq(audit_logs.entity, 'integration_attempts')));
    const ofJob = batches.filter((x) => (x.after as { job_id: string }).job_id === job.id);
    expect(ofJob.map((x) => (x.after as { count: number }).count).sort((x, y) => x - y)).toEqual([201, 500, 500]);
    expect(await exists('integration_attempts', seedA.recentAttempt.id)).toBe(true);
  });

  it('the monthly schedule: off by default, saved per seller, runs the purge for due sellers once a month', async () => {
    const initial = await ctx.api.retentionRoutes.getRetentionSettings({ token: b.token });
    expect(initial.json()).toMatchObject({ schedule_enabled: false, months: 12, last_run_at: null });
    const put = await ctx.api.retentionRoutes.updateRetentionSettings({
      body: { schedule_enabled: true, months: 12, kinds: ['outbound_orders', 'job_logs'] },
      token: b.token,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ schedule_enabled: true, kinds: ['outbound_orders', 'job_logs'] });
    expect((await ctx.api.retentionRoutes.getRetentionSettings({ token: a.token })).json().schedule_enabled).toBe(
      false,
    );

    const runSchedule = async () => {
      await ctx.deps.jobs.enqueue(db(), retentionSchedule, {}, { customerId: null });
      ctx.deps.jobs.kick();
      await ctx.deps.jobs.whenIdle();
    };
    await runSchedule();
    const counts = countsOf((await ctx.api.retentionRoutes.previewRetention({ token: b.token })).json());
    expect(counts).toEqual({ ...EXPECTED_OLD, outbound_orders: 0, job_logs: 0 });
    const [setting] = await db()
      .select()
      .from(retention_settings)
      .where(eq(retention_settings.customer_id, b.customerId));
    expect(setting!.last_run_at).not.toBeNull();
    const purges = () =>
      db()
        .select()
        .from(jobs)
        .where(and(eq(jobs.customer_id, b.customerId), eq(jobs.kind, 'retention.purge')));
    expect(await purges()).toHaveLength(1);
    // Run again the next day: the last run is less than a month ago, nothing new is queued.
    await runSchedule();
    expect(await purges()).toHaveLength(1);
    // A month later it runs again.
    await db()
      .update(retention_settings)
      .set({ last_run_at: sql`now() - interval '32 days'` })
      .where(eq(retention_settings.customer_id, b.customerId));
    await runSchedule();
    expect(await purges()).toHaveLength(2);
    expect(await checkStockInvariants(db())).toEqual([]);
    // Seller A (schedule off) is left alone by the schedule.
    expect(await exists('outbound_orders', seedA.openOld.id)).toBe(true);
    expect(await exists('outbound_orders', seedB.openOld.id)).toBe(true);
  });
});
