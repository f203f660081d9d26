import { invalidInput } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { stockFactory } from '../../stock/__tests__/factories';
import { checkStockInvariants } from '../../stock/stock.invariants';

let ctx: TTestContext;
let seller: { customerId: string; userId: string; token: string };
let f: ReturnType<typeof stockFactory>;
let wh: { id: string; code: string };
let shelfA: string;
let shelfB: string;
let bad: string;
let plain: { id: string; number: string };
let fresh: { id: string; number: string };

beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
  seller = await ctx.newCustomer();
  f = stockFactory(ctx.deps.database.db, seller.customerId);
  wh = await f.warehouse();
  shelfA = (await f.location(wh.id, { code: 'A-01-01' })).id;
  shelfB = (await f.location(wh.id, { code: 'A-01-02' })).id;
  bad = (await f.location(wh.id, { code: 'BAD-01', kind: 'defective' })).id;
  plain = await f.product({ barcode: '4710000000011' });
  fresh = await f.product({ shelfLifeMonths: 12, sellableRuleMonths: 3 });
});
afterAll(() => ctx?.close());

async function createReceipt(lines: unknown[], extra: Record<string, unknown> = {}) {
  const res = await ctx.api.inboundRoutes.createReceipt({
    body: invalidInput({ warehouse_id: wh.id, planned_date: '2026-12-01', lines, ...extra }),
    token: seller.token,
    lang: 'en',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function onHand(productId: string, locationId: string) {
  const rows = await queryRows<{ on_hand: number }>(
    ctx.deps.database.db,
    sql`select coalesce(sum(on_hand), 0)::int as on_hand from stock_balances
        where product_id = ${productId} and location_id = ${locationId}`,
  );
  return Number(rows[0]!.on_hand);
}

describe(`inbound receipts (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('creates a pending receipt with a human-readable number, lists and finds it', async () => {
    const r = await createReceipt([{ product_id: plain.id, quantity: 10 }], { remark: 'first delivery' });
    expect(r).toMatchObject({
      status: 'pending',
      category: 'purchase',
      line_count: 1,
      total_quantity: 10,
      quick: false,
    });
    expect(r.number).toMatch(/^IN\d{8}\d{4}$/);
    expect(r.actions).toEqual(['edit', 'delete', 'confirm']);
    expect(r.lines[0]).toMatchObject({ product_number: plain.number, quantity: 10, accepted_quantity: null });
    const list = await ctx.api.inboundRoutes.listReceipts({
      query: { search: r.number },
      token: seller.token,
      lang: 'en',
    });
    expect(list.json()).toMatchObject({ count: 1, results: [{ id: r.id, total_quantity: 10 }] });
    const byProduct = await ctx.api.inboundRoutes.listReceipts({
      query: { product_id: plain.id, status: 'pending' },
      token: seller.token,
      lang: 'en',
    });
    expect(byProduct.json().results.map((x: { id: string }) => x.id)).toContain(r.id);
  });

  it('requires an expiry date for shelf-life products, refuses one for others, and whole positive quantities', async () => {
    const post = (lines: unknown[]) =>
      ctx.api.inboundRoutes.createReceipt({
        body: invalidInput({ warehouse_id: wh.id, planned_date: '2026-12-01', lines }),
        token: seller.token,
        lang: 'en',
      });
    const noExpiry = await post([{ product_id: fresh.id, quantity: 5 }]);
    expect(noExpiry.statusCode).toBe(400);
    expect(noExpiry.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'expiry_date', line: 1 } });
    expect(noExpiry.error().message).toBe('Expiry date is required');
    const expiryOnPlain = await post([{ product_id: plain.id, quantity: 5, expiry_date: '2027-01-01' }]);
    expect(expiryOnPlain.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'expiry_date' } });
    const kit = await f.kit([{ productId: plain.id, quantity: 2 }]);
    expect((await post([{ product_id: kit.id, quantity: 1 }])).error().code).toBe('PRODUCT_ABNORMAL');
    for (const quantity of [0, -3, 2.5]) {
      const res = await post([{ product_id: plain.id, quantity }]);
      expect(res.statusCode).toBe(400);
      expect(res.error()).toMatchObject({ code: 'ABNORMAL_QUANTITY', message: 'Abnormal quantity' });
    }
    const ok = await post([{ product_id: fresh.id, quantity: 5, expiry_date: '2027-10-31' }]);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().lines[0]).toMatchObject({ expiry_date: '2027-10-31', sellable_until: '2027-07-31' });
  });

  it('confirms accepted, defective and good per line into their locations, posting the ledger', async () => {
    const r = await createReceipt([
      { product_id: plain.id, quantity: 10 },
      { product_id: fresh.id, quantity: 6, expiry_date: '2027-08-31' },
    ]);
    const before = await onHand(plain.id, shelfA);
    const res = await ctx.api.inboundRoutes.confirmReceipt({
      params: { id: r.id },
      body: {
        lines: [
          {
            line_id: r.lines[0]!.id,
            accepted_quantity: 9,
            defective_quantity: 2,
            good_quantity: 7,
            location_id: shelfA,
            defective_location_id: bad,
          },
          { line_id: r.lines[1]!.id, accepted_quantity: 6, location_id: shelfB },
        ],
      },
      token: seller.token,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    const done = res.json();
    expect(done).toMatchObject({ status: 'confirmed', total_accepted: 15, total_good: 13, total_defective: 2 });
    expect(done.actions).toEqual(['cancel']);
    expect(done.lines[0]).toMatchObject({
      accepted_quantity: 9,
      good_quantity: 7,
      defective_quantity: 2,
      difference: -1,
      location_code: 'A-01-01',
      defective_location_code: 'BAD-01',
    });
    expect(await onHand(plain.id, shelfA)).toBe(before + 7);
    expect(await onHand(plain.id, bad)).toBeGreaterThanOrEqual(2);
    const ledger = await queryRows<{ quantity: number; reason: string; document_number: string }>(
      ctx.deps.database.db,
      sql`select quantity, reason, document_number from stock_movements where document_id = ${r.id} order by quantity`,
    );
    expect(ledger).toEqual([
      { quantity: 2, reason: 'inbound', document_number: r.number },
      { quantity: 6, reason: 'inbound', document_number: r.number },
      { quantity: 7, reason: 'inbound', document_number: r.number },
    ]);
    const audit = await queryRows<{ action: string }>(
      ctx.deps.database.db,
      sql`select action from audit_logs where entity = 'inbound_receipt' and entity_id = ${r.id} order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['create', 'confirm']);
  });

  it('answers abnormal quantities and wrong locations without posting anything', async () => {
    const r = await createReceipt([{ product_id: plain.id, quantity: 4 }]);
    const line = r.lines[0]!.id;
    const confirm = (l: Record<string, unknown>) =>
      ctx.api.inboundRoutes.confirmReceipt({
        params: { id: r.id },
        body: invalidInput({ lines: [{ line_id: line, location_id: shelfA, ...l }] }),
        token: seller.token,
        lang: 'en',
      });
    for (const l of [
      { accepted_quantity: -1 },
      { accepted_quantity: 2.5 },
      { accepted_quantity: 3, defective_quantity: 4, defective_location_id: bad },
      { accepted_quantity: 3, defective_quantity: 1, good_quantity: 3, defective_location_id: bad },
      { accepted_quantity: 3, defective_quantity: -1 },
    ]) {
      const res = await confirm(l);
      expect(res.statusCode, JSON.stringify(l)).toBe(400);
      expect(res.error().code).toBe('ABNORMAL_QUANTITY');
    }
    expect((await confirm({ accepted_quantity: 3, location_id: bad })).error()).toMatchObject({
      code: 'INVALID_FIELD',
      params: { field: 'location_id' },
    });
    expect(
      (await confirm({ accepted_quantity: 3, defective_quantity: 1, defective_location_id: shelfB })).error(),
    ).toMatchObject({
      code: 'INVALID_FIELD',
      params: { field: 'defective_location_id' },
    });
    expect((await confirm({ accepted_quantity: 3, location_id: null })).error()).toMatchObject({
      code: 'REQUIRED_FIELD',
      params: { field: 'location_id' },
    });
    const other = await f.warehouse();
    const elsewhere = await f.location(other.id);
    expect((await confirm({ accepted_quantity: 3, location_id: elsewhere.id })).error().code).toBe('INVALID_FIELD');
    const after = (
      await ctx.api.inboundRoutes.getReceipt({ params: { id: r.id }, token: seller.token, lang: 'en' })
    ).json();
    expect(after.status).toBe('pending');
    const [moves] = await queryRows<{ n: number }>(
      ctx.deps.database.db,
      sql`select count(*)::int as n from stock_movements where document_id = ${r.id}`,
    );
    expect(moves!.n).toBe(0);
  });

  it('walks the lifecycle: illegal moves answer 409, cancelling takes the stock back out, re-confirming works', async () => {
    const r = await createReceipt([{ product_id: plain.id, quantity: 5 }]);
    const body = { lines: [{ line_id: r.lines[0]!.id, accepted_quantity: 5, location_id: shelfB }] };
    expect(
      (
        await ctx.api.inboundRoutes.cancelConfirmation({ params: { id: r.id }, token: seller.token, lang: 'en' })
      ).error().code,
    ).toBe('INVALID_STATUS_TRANSITION');
    const start = await onHand(plain.id, shelfB);
    expect(
      (await ctx.api.inboundRoutes.confirmReceipt({ params: { id: r.id }, body, token: seller.token, lang: 'en' }))
        .statusCode,
    ).toBe(200);
    const again = await ctx.api.inboundRoutes.confirmReceipt({
      params: { id: r.id },
      body,
      token: seller.token,
      lang: 'en',
    });
    expect(again.statusCode).toBe(409);
    expect(again.error().code).toBe('INVALID_STATUS_TRANSITION');
    const edit = await ctx.api.inboundRoutes.updateReceipt({
      params: { id: r.id },
      body: {
        warehouse_id: wh.id,
        planned_date: '2026-12-02',
        lines: [{ product_id: plain.id, quantity: 1 }],
      },
      token: seller.token,
      lang: 'en',
    });
    expect(edit.statusCode).toBe(409);
    expect(
      (await ctx.api.inboundRoutes.deleteReceipt({ params: { id: r.id }, token: seller.token, lang: 'en' })).statusCode,
    ).toBe(409);
    expect(await onHand(plain.id, shelfB)).toBe(start + 5);

    const cancelled = await ctx.api.inboundRoutes.cancelConfirmation({
      params: { id: r.id },
      token: seller.token,
      lang: 'en',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', actions: ['edit', 'confirm'] });
    expect(await onHand(plain.id, shelfB)).toBe(start);
    // A cancelled confirmation can be corrected and confirmed again.
    const fixed = await ctx.api.inboundRoutes.updateReceipt({
      params: { id: r.id },
      body: {
        warehouse_id: wh.id,
        planned_date: '2026-12-02',
        lines: [{ product_id: plain.id, quantity: 4 }],
      },
      token: seller.token,
      lang: 'en',
    });
    expect(fixed.statusCode).toBe(200);
    const reconfirm = await ctx.api.inboundRoutes.confirmReceipt({
      params: { id: r.id },
      body: {
        lines: [{ line_id: fixed.json().lines[0]!.id, accepted_quantity: 4, location_id: shelfB }],
      },
      token: seller.token,
      lang: 'en',
    });
    expect(reconfirm.json().status).toBe('confirmed');
    expect(await onHand(plain.id, shelfB)).toBe(start + 4);

    const pending = await createReceipt([{ product_id: plain.id, quantity: 1 }]);
    expect(
      (await ctx.api.inboundRoutes.deleteReceipt({ params: { id: pending.id }, token: seller.token, lang: 'en' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await ctx.api.inboundRoutes.getReceipt({ params: { id: pending.id }, token: seller.token, lang: 'en' }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses to cancel a confirmation whose stock was moved or reserved (INVENTORY_SHORTAGE), changing nothing', async () => {
    const p = await f.product();
    const loc = await f.location(wh.id);
    const r = await createReceipt([{ product_id: p.id, quantity: 3 }]);
    await ctx.api.inboundRoutes.confirmReceipt({
      params: { id: r.id },
      body: {
        lines: [{ line_id: r.lines[0]!.id, accepted_quantity: 3, location_id: loc.id }],
      },
      token: seller.token,
      lang: 'en',
    });
    const [bal] = await queryRows<{ id: string }>(
      ctx.deps.database.db,
      sql`select id from stock_balances where product_id = ${p.id}`,
    );
    const moved = await ctx.api.stockRoutes.transfer({
      body: {
        balance_id: bal!.id,
        to_location_id: shelfA,
        quantity: 1,
      },
      token: seller.token,
      lang: 'en',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const res = await ctx.api.inboundRoutes.cancelConfirmation({
      params: { id: r.id },
      token: seller.token,
      lang: 'en',
    });
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({ code: 'INVENTORY_SHORTAGE', message: 'Inventory shortage' });
    expect(
      (await ctx.api.inboundRoutes.getReceipt({ params: { id: r.id }, token: seller.token, lang: 'en' })).json().status,
    ).toBe('confirmed');
    expect(await onHand(p.id, loc.id)).toBe(2);
  });

  it('quick inbound: scan a barcode or number, a quantity and a location code; created and confirmed at once', async () => {
    const res = await ctx.api.inboundRoutes.quickInbound({
      body: {
        code: '4710000000011',
        quantity: 12,
        location_code: 'A-01-02',
      },
      token: seller.token,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'confirmed', quick: true, total_good: 12, warehouse_id: wh.id });
    const byNumber = await ctx.api.inboundRoutes.quickInbound({
      body: {
        code: fresh.number,
        quantity: 2,
        location_code: 'A-01-01',
        expiry_date: '2027-12-31',
      },
      token: seller.token,
      lang: 'en',
    });
    expect(byNumber.json().lines[0]).toMatchObject({ expiry_date: '2027-12-31', location_code: 'A-01-01' });
    const noExpiry = await ctx.api.inboundRoutes.quickInbound({
      body: {
        code: fresh.number,
        quantity: 2,
        location_code: 'A-01-01',
      },
      token: seller.token,
      lang: 'en',
    });
    expect(noExpiry.error().code).toBe('REQUIRED_FIELD');
    expect(
      (
        await ctx.api.inboundRoutes.quickInbound({
          body: { code: 'NOPE', quantity: 1, location_code: 'A-01-01' },
          token: seller.token,
          lang: 'en',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await ctx.api.inboundRoutes.quickInbound({
          body: { code: plain.number, quantity: 0, location_code: 'A-01-01' },
          token: seller.token,
          lang: 'en',
        })
      ).error().code,
    ).toBe('ABNORMAL_QUANTITY');
    expect(
      (
        await ctx.api.inboundRoutes.quickInbound({
          body: { code: plain.number, quantity: 1, location_code: 'BAD-01' },
          token: seller.token,
          lang: 'en',
        })
      ).error().code,
    ).toBe('INVALID_FIELD');
    // The same location code in a second warehouse: the scan needs the warehouse.
    const wh2 = await f.warehouse();
    await f.location(wh2.id, { code: 'A-01-02' });
    expect(
      (
        await ctx.api.inboundRoutes.quickInbound({
          body: { code: plain.number, quantity: 1, location_code: 'A-01-02' },
          token: seller.token,
          lang: 'en',
        })
      ).error(),
    ).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'warehouse_id' } });
    const scoped = await ctx.api.inboundRoutes.quickInbound({
      body: {
        code: plain.number,
        quantity: 1,
        location_code: 'A-01-02',
        warehouse_id: wh2.id,
      },
      token: seller.token,
      lang: 'en',
    });
    expect(scoped.json().warehouse_id).toBe(wh2.id);
  });

  it('exports lines to Excel and counts receipts and units by status and product', async () => {
    const exp = await ctx.api.inboundRoutes.exportReceipts({
      query: { status: 'confirmed', product_id: plain.id },
      token: seller.token,
      lang: 'en',
    });
    expect(exp.statusCode).toBe(200);
    expect(exp.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exp.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('Receipt number');
    const statuses = new Set<string>();
    ws.eachRow((row, n) => {
      if (n > 1) statuses.add(String(row.getCell(3).value));
    });
    expect([...statuses]).toEqual(['Confirmed']);
    expect(ws.rowCount).toBeGreaterThan(2);

    const cnt = (
      await ctx.api.inboundRoutes.countReceipts({ query: { product_id: plain.id }, token: seller.token, lang: 'en' })
    ).json();
    const [all] = await queryRows<{ receipts: number; planned: number; good: number }>(
      ctx.deps.database.db,
      sql`select count(distinct r.id)::int as receipts, sum(l.quantity)::int as planned, coalesce(sum(l.good_quantity), 0)::int as good
          from inbound_receipts r join inbound_receipt_lines l on l.receipt_id = r.id
          where r.customer_id = ${seller.customerId} and l.product_id = ${plain.id}`,
    );
    expect(cnt.total).toMatchObject({ receipts: all!.receipts, planned_units: all!.planned, good_units: all!.good });
    expect(cnt.by_status.map((s: { status: string }) => s.status)).toEqual(
      ['pending', 'confirmed', 'cancelled'].filter((s) =>
        cnt.by_status.some((x: { status: string }) => x.status === s),
      ),
    );
    expect(cnt.by_status.reduce((s: number, x: { receipts: number }) => s + x.receipts, 0)).toBe(all!.receipts);
    expect(cnt.by_product).toMatchObject({
      count: 1,
      results: [{ product_id: plain.id, planned_units: all!.planned }],
    });
  });

  it('gives the data of the A4 print and the QR label', async () => {
    const r = await createReceipt([{ product_id: plain.id, quantity: 2 }]);
    const print = (
      await ctx.api.inboundRoutes.printReceipt({ params: { id: r.id }, token: seller.token, lang: 'en' })
    ).json();
    expect(print.receipt).toMatchObject({ number: r.number, lines: [{ product_barcode: '4710000000011' }] });
    expect(print.company.name).toBeTruthy();
    expect(print.number_barcode_svg).toMatch(/^<svg /);
    expect(print.line_barcodes).toMatchObject([{ line_id: r.lines[0]!.id, value: '4710000000011' }]);
    expect(print.line_barcodes[0]!.svg).toContain('<svg');
    const qr = (
      await ctx.api.inboundRoutes.receiptQrLabel({ params: { id: r.id }, token: seller.token, lang: 'en' })
    ).json();
    expect(qr).toMatchObject({ number: r.number, qr_text: r.number });
    expect(qr.qr_data_url).toMatch(/^data:image\/png;base64,/);
  });

  it("answers another seller's receipts, warehouses, products and locations with 404", async () => {
    const r = await createReceipt([{ product_id: plain.id, quantity: 2 }]);
    const intruder = await ctx.newCustomer();
    const as = { token: intruder.token, lang: 'en' };
    const rr = ctx.api.inboundRoutes;
    const params = { id: r.id };
    const body = { lines: [{ line_id: r.lines[0]!.id, accepted_quantity: 2, location_id: shelfA }] };
    const receipt = {
      warehouse_id: wh.id,
      planned_date: '2026-12-01',
      lines: [{ product_id: plain.id, quantity: 1 }],
    };
    for (const [name, send] of [
      ['getReceipt', () => rr.getReceipt({ params, ...as })],
      ['updateReceipt', () => rr.updateReceipt({ params, body: receipt, ...as })],
      ['deleteReceipt', () => rr.deleteReceipt({ params, ...as })],
      ['confirmReceipt', () => rr.confirmReceipt({ params, body, ...as })],
      ['cancelConfirmation', () => rr.cancelConfirmation({ params, ...as })],
      ['printReceipt', () => rr.printReceipt({ params, ...as })],
      ['receiptQrLabel', () => rr.receiptQrLabel({ params, ...as })],
      ['createReceipt', () => rr.createReceipt({ body: receipt, ...as })],
      [
        'quickInbound',
        () => rr.quickInbound({ body: { code: plain.number, quantity: 1, location_code: 'A-01-01' }, ...as }),
      ],
    ] as const) {
      const res = await send();
      expect(res.statusCode, name).toBe(404);
    }
    // The intruder's own receipt cannot point at this seller's product or location either.
    const ownWh = await stockFactory(ctx.deps.database.db, intruder.customerId).warehouse();
    const foreignProduct = await rr.createReceipt({ body: { ...receipt, warehouse_id: ownWh.id }, ...as });
    expect(foreignProduct.statusCode).toBe(404);
    expect((await rr.listReceipts(as)).body).not.toContain(r.id);
    expect((await rr.countReceipts(as)).body).not.toContain(r.id);
    expect((await rr.listReceipts(as)).json().count).toBe(0);
    expect(
      (await ctx.api.inboundRoutes.getReceipt({ params: { id: r.id }, token: seller.token, lang: 'en' })).json().status,
    ).toBe('pending');
  });

  it('keeps the stock invariants', async () => {
    expect(await checkStockInvariants(ctx.deps.database.db)).toEqual([]);
  });
});
