import { randomUUID } from 'node:crypto';
import type { TOrderDetail } from '@wms/contracts';
import { invalidInput } from '@wms/contracts/client';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { audit_logs, customers, users } from '../../db/schema';
import { createOrder, outboundWorld, type TWorld, transition } from '../../modules/outbound/__tests__/factories';
import { createTestContext, type TTestContext } from '../../test/harness';
import { hashPassword } from '../crypto';

/**
 * The hot routes (product stock, order list, stock log, the packing scan) read the caller's grants with their own
 * first statement instead of before the handler (route option `grants: 'first-statement'`). The check must be the
 * one every other route makes: a role change, a deactivated user or company takes effect at the next call; a refused
 * caller gets 401/403 whatever their input (invalid, or naming an order that does not exist); a refused scan changes
 * nothing.
 */
let ctx: TTestContext;
let w: TWorld;
let order: TOrderDetail;
let colleague: { id: string; token: string };

/** The hot reads, each as the colleague sends it. */
const READS: Array<[string, () => Promise<{ statusCode: number; body: string; json(): unknown }>]> = [
  [
    'productStock',
    () => ctx.api.stockRoutes.productStock({ query: { page: 1, page_size: 25 }, token: colleague.token }),
  ],
  [
    'productStock search',
    () => ctx.api.stockRoutes.productStock({ query: { page: 1, page_size: 25, search: 'P-' }, token: colleague.token }),
  ],
  [
    'productStock in_stock',
    () =>
      ctx.api.stockRoutes.productStock({ query: { page: 1, page_size: 25, in_stock: 'true' }, token: colleague.token }),
  ],
  [
    'listOrders',
    () => ctx.api.outboundRoutes.listOrders({ query: { page: 1, page_size: 25 }, token: colleague.token }),
  ],
  ['stockLog', () => ctx.api.stockRoutes.stockLog({ query: { page: 1, page_size: 25 }, token: colleague.token })],
];

beforeAll(async () => {
  ctx = await createTestContext();
  w = await outboundWorld(ctx);
  await w.put([{ productId: w.plain.id, locationId: w.loc.B.id, expiryDate: null, quantity: 10 }]);
  order = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 3 }]);
  expect((await transition(ctx, w.token, order.id, 'export')).statusCode).toBe(200);
  const email = `colleague-${randomUUID().slice(0, 8)}@test.local`;
  const [user] = await ctx.deps.database.db
    .insert(users)
    .values({
      customer_id: w.customerId,
      email,
      name: 'Colleague',
      role: 'CUSTOMER',
      password_hash: await hashPassword('secret-pass-1'),
    })
    .returning();
  colleague = { id: user!.id, token: (await ctx.login(email, 'secret-pass-1')).access };
}, 60_000);
afterAll(() => ctx?.close());

const setUser = (values: Partial<typeof users.$inferInsert>) =>
  ctx.deps.database.db.update(users).set(values).where(eq(users.id, colleague.id));
const barcode = () => w.plain.barcode!;

async function packed(): Promise<{ packed: number; audits: number }> {
  const [row] = await queryRows<{ packed: number | null }>(
    ctx.deps.database.db,
    sql`select sum(packed)::int as packed from outbound_pack_items where order_id = ${order.id}`,
  );
  const audits = await ctx.deps.database.db
    .select()
    .from(audit_logs)
    .where(and(eq(audit_logs.entity_id, order.id), eq(audit_logs.actor_id, colleague.id)));
  return { packed: row?.packed ?? 0, audits: audits.length };
}

function expectError(res: { statusCode: number; json(): unknown; body: string }, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect((res.json() as { error: { code: string } }).error.code).toBe(code);
}

describe('grants read with the first statement', () => {
  it('answers an allowed caller, and the opening and a later scan count units with their audit rows', async () => {
    for (const [name, read] of READS) expect((await read()).statusCode, name).toBe(200);
    const first = await ctx.api.outboundRoutes.packScan({
      params: { id: order.id },
      body: { barcode: barcode() },
      token: colleague.token,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().order.status).toBe('online');
    expect(first.json().items[0]!.packed).toBe(1);
    const second = await ctx.api.outboundRoutes.packScan({
      params: { id: order.id },
      body: { barcode: barcode() },
      token: colleague.token,
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().items[0]!.packed).toBe(2);
    expect(second.json().order).toEqual(first.json().order);
    // start_packing, then one pack_scan per unit.
    const actions = await ctx.deps.database.db
      .select({ action: audit_logs.action })
      .from(audit_logs)
      .where(and(eq(audit_logs.entity_id, order.id), eq(audit_logs.actor_id, colleague.id)))
      .orderBy(audit_logs.id);
    expect(actions.map((a) => a.action)).toEqual(['start_packing', 'pack_scan', 'pack_scan']);
  });

  it('refuses a role without the permission at its next call, before its input is looked at', async () => {
    const before = await packed();
    await setUser({ seller_role: 'readonly' });
    for (const [name, read] of READS) expect((await read()).statusCode, name).toBe(200);
    expectError(
      await ctx.api.outboundRoutes.packScan({
        params: { id: order.id },
        body: { barcode: barcode() },
        token: colleague.token,
      }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await ctx.api.outboundRoutes.packScan({
        params: { id: order.id },
        body: invalidInput({}),
        token: colleague.token,
      }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await ctx.api.outboundRoutes.packScan({
        params: { id: randomUUID() },
        body: { barcode: barcode() },
        token: colleague.token,
      }),
      403,
      'PERMISSION_DENIED',
    );
    expect(await packed()).toEqual(before);

    await setUser({ seller_role: 'custom', menu_access: [] });
    for (const [, read] of READS) expectError(await read(), 403, 'PERMISSION_DENIED');
    expectError(
      await ctx.api.stockRoutes.productStock({ query: { page: 'abc' }, token: colleague.token }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await ctx.api.outboundRoutes.listOrders({ query: invalidInput({ status: 'nonsense' }), token: colleague.token }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await ctx.api.stockRoutes.stockLog({ query: { page_size: '7' }, token: colleague.token }),
      403,
      'PERMISSION_DENIED',
    );

    await setUser({ seller_role: 'owner', menu_access: [] });
    expectError(
      await ctx.api.stockRoutes.productStock({ query: { page: 'abc' }, token: colleague.token }),
      400,
      'INVALID_FIELD',
    );
    expect(
      (
        await ctx.api.outboundRoutes.packScan({
          params: { id: order.id },
          body: { barcode: barcode() },
          token: colleague.token,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses a deactivated user, or one of a deactivated company, with 401 at once', async () => {
    const before = await packed();
    await setUser({ is_active: false });
    for (const [, read] of READS) expectError(await read(), 401, 'TOKEN_INVALID');
    expectError(
      await ctx.api.outboundRoutes.packScan({
        params: { id: order.id },
        body: { barcode: barcode() },
        token: colleague.token,
      }),
      401,
      'TOKEN_INVALID',
    );
    expectError(
      await ctx.api.outboundRoutes.packScan({
        params: { id: randomUUID() },
        body: invalidInput({}),
        token: colleague.token,
      }),
      401,
      'TOKEN_INVALID',
    );
    await setUser({ is_active: true });
    await ctx.deps.database.db.update(customers).set({ is_active: false }).where(eq(customers.id, w.customerId));
    for (const [, read] of READS) expectError(await read(), 401, 'TOKEN_INVALID');
    expectError(
      await ctx.api.outboundRoutes.packScan({
        params: { id: order.id },
        body: { barcode: barcode() },
        token: colleague.token,
      }),
      401,
      'TOKEN_INVALID',
    );
    expect(await packed()).toEqual(before);
    await ctx.deps.database.db.update(customers).set({ is_active: true }).where(eq(customers.id, w.customerId));
    expect((await READS[0]![1]()).statusCode).toBe(200);
  });
});
