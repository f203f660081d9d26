import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { sqlState, withTx } from '../../../db/tx';
import { AppError } from '../../../platform/errors';
import { createTestContext, type TTestContext } from '../../../test/harness';
import * as engine from '../stock.engine';
import { checkStockInvariants } from '../stock.invariants';
import { stockFactory } from './factories';

let ctx: TTestContext;
let who: engine.TStockActor;
let f: ReturnType<typeof stockFactory>;
let whId: string;

beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
  const c = await ctx.newCustomer();
  who = { customerId: c.customerId, userId: c.userId };
  f = stockFactory(ctx.deps.database.db, c.customerId);
  whId = (await f.warehouse()).id;
});
afterAll(() => ctx?.close());

const db = () => ctx.deps.database.db;
const doc = (type = 'test'): engine.TStockDocument => ({
  type,
  id: randomUUID(),
  number: `T-${randomUUID().slice(0, 6)}`,
});
const inbound = (lines: engine.TInboundLine[]) =>
  withTx(db(), (tx) => engine.postInbound(tx, who, { document: doc('inbound'), lines }));

async function balance(productId: string, locationId: string, expiry: string | null = null) {
  const rows = await queryRows<{ id: string; on_hand: number; reserved: number }>(
    db(),
    sql`select id, on_hand, reserved from stock_balances where product_id = ${productId} and location_id = ${locationId}
        and expiry_date is not distinct from ${expiry}::date`,
  );
  return rows[0] ? { id: rows[0].id, onHand: Number(rows[0].on_hand), reserved: Number(rows[0].reserved) } : null;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  return 'NO_ERROR';
}

describe(`stock engine (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('posts inbound stock: balance and ledger in one go, repeated inbound adds up', async () => {
    const p = await f.product();
    const loc = await f.location(whId);
    const m1 = await inbound([{ productId: p.id, locationId: loc.id, expiryDate: null, quantity: 5 }]);
    const m2 = await inbound([{ productId: p.id, locationId: loc.id, expiryDate: null, quantity: 7 }]);
    expect(m1[0]).toMatchObject({ quantity: 5, onHandAfter: 5, reason: 'inbound', warehouseId: whId });
    expect(m2[0]).toMatchObject({ quantity: 7, onHandAfter: 12 });
    expect(await balance(p.id, loc.id)).toMatchObject({ onHand: 12, reserved: 0 });
    const ledger = await queryRows<{ quantity: number; user_id: string }>(
      db(),
      sql`select quantity, user_id from stock_movements where product_id = ${p.id} order by id`,
    );
    expect(ledger.map((r) => r.quantity)).toEqual([5, 7]);
    expect(ledger[0]!.user_id).toBe(who.userId);
  });

  it('enforces the lot rule, whole positive quantities and the tenant', async () => {
    const shelfLife = await f.product({ shelfLifeMonths: 12 });
    const plain = await f.product();
    const kit = await f.kit([{ productId: plain.id, quantity: 2 }]);
    const loc = await f.location(whId);
    const line = { locationId: loc.id, quantity: 1 };
    expect(await codeOf(inbound([{ ...line, productId: shelfLife.id, expiryDate: null }]))).toBe('REQUIRED_FIELD');
    expect(await codeOf(inbound([{ ...line, productId: plain.id, expiryDate: '2027-01-01' }]))).toBe('INVALID_FIELD');
    expect(await codeOf(inbound([{ ...line, productId: kit.id, expiryDate: null }]))).toBe('PRODUCT_ABNORMAL');
    for (const quantity of [0, -1, 1.5])
      expect(await codeOf(inbound([{ ...line, quantity, productId: plain.id, expiryDate: null }]))).toBe(
        'ABNORMAL_QUANTITY',
      );
    const other = await ctx.newCustomer();
    const foreign = stockFactory(db(), other.customerId);
    const foreignLoc = await foreign.location((await foreign.warehouse()).id);
    expect(
      await codeOf(inbound([{ productId: plain.id, locationId: foreignLoc.id, expiryDate: null, quantity: 1 }])),
    ).toBe('NOT_FOUND');
    expect(await balance(plain.id, loc.id)).toBeNull();
  });

  it('allocates FEFO and honours the sellable-date rule', async () => {
    // 12 months shelf life, sellable until 2 months before expiry; "today" is 2027-01-10.
    const p = await f.product({ shelfLifeMonths: 12, sellableRuleMonths: 2 });
    const [a, b, c] = [await f.location(whId), await f.location(whId), await f.location(whId)];
    await inbound([
      { productId: p.id, locationId: a.id, expiryDate: '2027-03-05', quantity: 10 }, // sellable until 2027-01-05: too late
      { productId: p.id, locationId: b.id, expiryDate: '2027-06-01', quantity: 10 },
      { productId: p.id, locationId: c.id, expiryDate: '2027-03-20', quantity: 4 }, // until 2027-01-20: first out
    ]);
    const order = doc('outbound');
    const allocation = await withTx(db(), (tx) =>
      engine.reserveForOrder(tx, who, {
        document: order,
        warehouseId: whId,
        lines: [{ productId: p.id, quantity: 9, ref: 'line-1' }],
        today: '2027-01-10',
      }),
    );
    expect(allocation.map((x) => [x.locationId, x.expiryDate, x.quantity, x.ref])).toEqual([
      [c.id, '2027-03-20', 4, 'line-1'],
      [b.id, '2027-06-01', 5, 'line-1'],
    ]);
    expect(await balance(p.id, a.id, '2027-03-05')).toMatchObject({ onHand: 10, reserved: 0 });
    expect(await balance(p.id, b.id, '2027-06-01')).toMatchObject({ reserved: 5 });
    // Only 6 sellable units are left: asking for 7 fails and reserves nothing.
    const tooMuch = withTx(db(), (tx) =>
      engine.reserveForOrder(tx, who, {
        document: doc('outbound'),
        lines: [{ productId: p.id, quantity: 7 }],
        today: '2027-01-10',
      }),
    );
    expect(await codeOf(tooMuch)).toBe('INVENTORY_SHORTAGE');
    expect(await balance(p.id, b.id, '2027-06-01')).toMatchObject({ reserved: 5 });
    // A day before lot A's sellable-until date it is the first choice.
    const early = await withTx(db(), (tx) =>
      engine.reserveForOrder(tx, who, {
        document: doc('outbound'),
        lines: [{ productId: p.id, quantity: 1 }],
        today: '2027-01-04',
      }),
    );
    expect(early[0]!.locationId).toBe(a.id);
  });

  it('allocates FIFO by arrival for products without shelf life, only from sellable locations, all or nothing', async () => {
    const p = await f.product();
    const q = await f.product();
    const older = await f.location(whId, { code: `Z-${randomUUID().slice(0, 6)}` });
    const newer = await f.location(whId, { code: `A-${randomUUID().slice(0, 6)}` });
    const defective = await f.location(whId, { kind: 'defective' });
    await inbound([{ productId: p.id, locationId: older.id, expiryDate: null, quantity: 3 }]);
    await new Promise((r) => setTimeout(r, 20));
    await inbound([
      { productId: p.id, locationId: newer.id, expiryDate: null, quantity: 3 },
      { productId: p.id, locationId: defective.id, expiryDate: null, quantity: 50 },
      { productId: q.id, locationId: newer.id, expiryDate: null, quantity: 1 },
    ]);
    const allocation = await withTx(db(), (tx) =>
      engine.reserveForOrder(tx, who, { document: doc('outbound'), lines: [{ productId: p.id, quantity: 4 }] }),
    );
    expect(allocation.map((x) => [x.locationId, x.quantity])).toEqual([
      [older.id, 3],
      [newer.id, 1],
    ]);
    // 2 sellable units of p are left; an order for 2 p and 2 q fails as a whole: p is not reserved either.
    const both = withTx(db(), (tx) =>
      engine.reserveForOrder(tx, who, {
        document: doc('outbound'),
        lines: [
          { productId: p.id, quantity: 2 },
          { productId: q.id, quantity: 2 },
        ],
      }),
    );
    expect(await codeOf(both)).toBe('INVENTORY_SHORTAGE');
    expect(await balance(p.id, newer.id)).toMatchObject({ onHand: 3, reserved: 1 });
    expect(await balance(p.id, defective.id)).toMatchObject({ onHand: 50, reserved: 0 });
    const avail = await engine.getAvailability(db(), who.customerId, [p.id]);
    expect(avail.get(p.id)).toEqual({ onHand: 56, reserved: 4, available: 2 });
  });

  it('derives combination availability and explodes kits when reserving', async () => {
    const x = await f.product();
    const y = await f.product();
    const kit = await f.kit([
      { productId: x.id, quantity: 2 },
      { productId: y.id, quantity: 3 },
    ]);
    const loc = await f.location(whId);
    await inbound([
      { productId: x.id, locationId: loc.id, expiryDate: null, quantity: 9 }, // 4 kits
      { productId: y.id, locationId: loc.id, expiryDate: null, quantity: 10 }, // 3 kits
    ]);
    expect((await engine.getAvailability(db(), who.customerId, [kit.id])).get(kit.id)).toEqual({
      onHand: 3,
      reserved: 0,
      available: 3,
    });
    const allocation = await withTx(db(), (tx) =>
      engine.reserveForOrder(tx, who, { document: doc('outbound'), lines: [{ productId: kit.id, quantity: 2 }] }),
    );
    expect(allocation.map((a) => [a.requestedProductId, a.productId, a.quantity])).toEqual([
      [kit.id, x.id, 4],
      [kit.id, y.id, 6],
    ]);
    expect((await engine.getAvailability(db(), who.customerId, [kit.id, x.id])).get(kit.id)!.available).toBe(1);
    expect(
      await codeOf(
        withTx(db(), (tx) =>
          engine.reserveForOrder(tx, who, { document: doc('outbound'), lines: [{ productId: kit.id, quantity: 2 }] }),
        ),
      ),
    ).toBe('INVENTORY_SHORTAGE');
  });

  it('releases and consumes only what a document holds; the same stock never ships twice', async () => {
    const p = await f.product();
    const loc = await f.location(whId);
    await inbound([{ productId: p.id, locationId: loc.id, expiryDate: null, quantity: 10 }]);
    const order = doc('outbound');
    const [line] = await withTx(db(), (tx) =>
      engine.reserveForOrder(tx, who, { document: order, lines: [{ productId: p.id, quantity: 6 }] }),
    );
    await withTx(db(), (tx) =>
      engine.release(tx, who, { document: order, lines: [{ balanceId: line!.balanceId, quantity: 2 }] }),
    );
    expect(await balance(p.id, loc.id)).toMatchObject({ onHand: 10, reserved: 4 });
    // Another document cannot release or consume this order's reservation.
    const stranger = doc('outbound');
    expect(
      await codeOf(
        withTx(db(), (tx) =>
          engine.consumeReserved(tx, who, { document: stranger, lines: [{ balanceId: line!.balanceId, quantity: 1 }] }),
        ),
      ),
    ).toBe('INVENTORY_SHORTAGE');
    const shipped = await withTx(db(), (tx) => engine.consumeReserved(tx, who, { document: order }));
    expect(shipped.map((m) => [m.quantity, m.onHandAfter, m.reason])).toEqual([[-4, 6, 'outbound']]);
    expect(await balance(p.id, loc.id)).toMatchObject({ onHand: 6, reserved: 0 });
    expect(
      await codeOf(
        withTx(db(), (tx) =>
          engine.consumeReserved(tx, who, { document: order, lines: [{ balanceId: line!.balanceId, quantity: 1 }] }),
        ),
      ),
    ).toBe('INVENTORY_SHORTAGE');
    expect(await withTx(db(), (tx) => engine.consumeReserved(tx, who, { document: order }))).toEqual([]);
    expect(await balance(p.id, loc.id)).toMatchObject({ onHand: 6, reserved: 0 });
  });

  it('a fresh reservation is a plain insert: a document that already holds the pile fails, nothing merges', async () => {
    const p = await f.product();
    const loc = await f.location(whId);
    await inbound([{ productId: p.id, locationId: loc.id, expiryDate: null, quantity: 10 }]);
    const order = doc('outbound');
    const reserve = (fresh: boolean) =>
      withTx(db(), (tx) =>
        engine.reserveForOrders(tx, who, [{ document: order, lines: [{ productId: p.id, quantity: 2 }] }], { fresh }),
      );
    expect(await engine.holdsReservations(db(), who.customerId, 'outbound', [order.id!, randomUUID()])).toBe(false);
    await reserve(true);
    expect(await engine.holdsReservations(db(), who.customerId, 'outbound', [randomUUID(), order.id!])).toBe(true);
    // Another seller's call does not see this seller's reservations.
    expect(await engine.holdsReservations(db(), randomUUID(), 'outbound', [order.id!])).toBe(false);
    // A wrong promise fails on the unique index and rolls back: the pile is not reserved twice over.
    expect(await reserve(true).then(() => 'none', sqlState)).toBe('23505');
    expect(await balance(p.id, loc.id)).toMatchObject({ onHand: 10, reserved: 2 });
    // Without the promise the same call adds to what the document holds.
    await reserve(false);
    expect(await balance(p.id, loc.id)).toMatchObject({ onHand: 10, reserved: 4 });
    const held = await queryRows<{ quantity: number }>(
      db(),
      sql`select quantity from stock_reservations where document_id = ${order.id}`,
    );
    expect(held.map((r) => Number(r.quantity))).toEqual([4]);
  });

  it('a reservation row can only point at a pile of its own seller (the foreign key says so)', async () => {
    const p = await f.product();
    const loc = await f.location(whId);
    await inbound([{ productId: p.id, locationId: loc.id, expiryDate: null, quantity: 1 }]);
    const pile = (await balance(p.id, loc.id))!;
    const other = await ctx.newCustomer();
    const insert = db().execute(
      sql`insert into stock_reservations (customer_id, balance_id, document_type, document_id, quantity)
          values (${other.customerId}, ${pile.id}, 'outbound', ${randomUUID()}, 1)`,
    );
    expect(await insert.then(() => 'none', sqlState)).toBe('23503');
  });

  it('transfers free stock only, carries the lot and its age, and refuses reserved stock', async () => {
    const p = await f.product({ shelfLifeMonths: 6 });
    const from = await f.location(whId);
    const to = await f.location(whId);
    const expired = await f.location(whId, { kind: 'expired' });
    await inbound([{ productId: p.id, locationId: from.id, expiryDate: '2027-05-01', quantity: 10 }]);
    const src = (await balance(p.id, from.id, '2027-05-01'))!;
    await withTx(db(), (tx) =>
      engine.reserve(tx, who, { document: doc('outbound'), lines: [{ balanceId: src.id, quantity: 3 }] }),
    );
    const t = doc('transfer');
    const result = await withTx(db(), (tx) =>
      engine.transfer(tx, who, { document: t, lines: [{ balanceId: src.id, toLocationId: to.id, quantity: 4 }] }),
    );
    expect(result.movements.map((m) => [m.locationId, m.quantity, m.expiryDate])).toEqual([
      [from.id, -4, '2027-05-01'],
      [to.id, 4, '2027-05-01'],
    ]);
    expect(await balance(p.id, from.id, '2027-05-01')).toMatchObject({ onHand: 6, reserved: 3 });
    // 3 free units are left: moving 4 fails and moves nothing.
    const tooMuch = withTx(db(), (tx) =>
      engine.transfer(tx, who, {
        document: doc('transfer'),
        lines: [{ balanceId: src.id, toLocationId: to.id, quantity: 4 }],
      }),
    );
    expect(await codeOf(tooMuch)).toBe('INVENTORY_SHORTAGE');
    const same = withTx(db(), (tx) =>
      engine.transfer(tx, who, {
        document: doc('transfer'),
        lines: [{ balanceId: src.id, toLocationId: from.id, quantity: 1 }],
      }),
    );
    expect(await codeOf(same)).toBe('INVALID_FIELD');
    // 'free' moves everything unreserved and leaves the reserved units where they are.
    const all = await withTx(db(), (tx) =>
      engine.transfer(tx, who, {
        document: doc('transfer'),
        reason: 'expiry_transfer',
        lines: [{ balanceId: src.id, toLocationId: expired.id, quantity: 'free' }],
      }),
    );
    expect(all.lines[0]!.quantity).toBe(3);
    expect(await balance(p.id, from.id, '2027-05-01')).toMatchObject({ onHand: 3, reserved: 3 });
    expect(await balance(p.id, expired.id, '2027-05-01')).toMatchObject({ onHand: 3 });
    const [ages] = await queryRows<{ same: boolean }>(
      db(),
      sql`select (select received_at from stock_balances where id = ${src.id}) =
                 (select received_at from stock_balances where location_id = ${to.id}) as same`,
    );
    expect(ages!.same).toBe(true);
  });

  it('adjusts by a signed delta; a negative one takes free stock only', async () => {
    const p = await f.product();
    const loc = await f.location(whId);
    const adjust = (delta: number) =>
      withTx(db(), (tx) =>
        engine.postAdjustment(tx, who, {
          document: doc('adjustment'),
          reason: 'stocktake',
          lines: [{ productId: p.id, locationId: loc.id, expiryDate: null, delta }],
        }),
      );
    expect(await codeOf(adjust(-1))).toBe('INVENTORY_SHORTAGE');
    await adjust(5);
    const b = (await balance(p.id, loc.id))!;
    await withTx(db(), (tx) =>
      engine.reserve(tx, who, { document: doc('outbound'), lines: [{ balanceId: b.id, quantity: 2 }] }),
    );
    expect(await codeOf(adjust(-4))).toBe('INVENTORY_SHORTAGE');
    const [m] = await adjust(-3);
    expect(m).toMatchObject({ quantity: -3, onHandAfter: 2, reason: 'stocktake' });
  });

  it('keeps every invariant after all of the above', async () => {
    expect(await checkStockInvariants(db())).toEqual([]);
  });

  it('the database refuses a negative or over-reserved balance even if code tried', async () => {
    const p = await f.product();
    const loc = await f.location(whId);
    await inbound([{ productId: p.id, locationId: loc.id, expiryDate: null, quantity: 1 }]);
    const b = (await balance(p.id, loc.id))!;
    await expect(db().execute(sql`update stock_balances set on_hand = -1 where id = ${b.id}`)).rejects.toThrow();
    await expect(db().execute(sql`update stock_balances set reserved = 2 where id = ${b.id}`)).rejects.toThrow();
  });
});
