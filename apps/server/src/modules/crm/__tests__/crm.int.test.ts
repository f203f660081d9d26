import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { products } from '../../../db/schema';
import { withTx } from '../../../db/tx';
import { taipeiMidnight, taipeiToday } from '../../../platform/calendar';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { stockFactory } from '../../stock/__tests__/factories';
import * as engine from '../../stock/stock.engine';

let ctx: TTestContext;
let seller: Awaited<ReturnType<TTestContext['newCustomer']>>;
let other: Awaited<ReturnType<TTestContext['newCustomer']>>;
let staff: Awaited<ReturnType<TTestContext['newEmployee']>>;
let balanceId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  seller = await ctx.newCustomer({ name: 'Alpha Tea' });
  other = await ctx.newCustomer({ name: 'Beta Socks' });
  staff = await ctx.newEmployee();
  const db = ctx.deps.database.db;
  // Alpha: 12 units (cost 2.50) in TPE-1/A-01 expiring in 10 days; Beta: an empty location in the same building.
  const f = stockFactory(db, seller.customerId);
  const wh = await f.warehouse('TPE-1');
  const loc = await f.location(wh.id, { code: 'A-01' });
  await f.location(wh.id, { code: 'A-02' });
  const product = await f.product({ number: 'TEA-1', shelfLifeMonths: 12 });
  await db.update(products).set({ cost: '2.5' }).where(eq(products.id, product.id));
  const expiry = taipeiMidnight(taipeiToday(), 10).toISOString().slice(0, 10);
  await withTx(db, (tx) =>
    engine.postInbound(
      tx,
      { customerId: seller.customerId, userId: seller.userId },
      {
        document: { type: 'inbound', id: product.id, number: 'IN-TEST' },
        lines: [{ productId: product.id, locationId: loc.id, expiryDate: expiry, quantity: 12 }],
      },
    ),
  );
  const g = stockFactory(db, other.customerId);
  const wh2 = await g.warehouse('TPE-1');
  await g.location(wh2.id, { code: 'B-01' });
  await ctx.api.supportRoutes.createTicket({
    body: { kind: 'help', subject: 'How do I print labels?' },
    token: seller.token,
  });
  const [b] = await queryRows<{ id: string }>(
    db,
    sql`select id from stock_balances where customer_id = ${seller.customerId}`,
  );
  balanceId = b!.id;
}, 60_000);
afterAll(() => ctx?.close());

describe('CRM customers', () => {
  it('lists every seller with its contact, stock value, open tickets and last activity; searches by name and e-mail', async () => {
    const res = await ctx.api.crmRoutes.listCustomers({ query: { ordering: 'name' }, token: staff.token });
    expect(res.statusCode).toBe(200);
    const alpha = res.json().results.find((c: { id: string }) => c.id === seller.customerId);
    expect(alpha).toMatchObject({
      name: 'Alpha Tea',
      admin_email: seller.email,
      user_count: 1,
      is_active: true,
      stock_units: 12,
      stock_value: '30.00',
      open_tickets: 1,
    });
    expect(alpha!.last_activity_at).not.toBeNull();
    const search = await ctx.api.crmRoutes.listCustomers({ query: { search: other.email }, token: staff.token });
    expect(search.json()).toMatchObject({ count: 1, results: [{ name: 'Beta Socks' }] });
    expect(
      (await ctx.api.crmRoutes.listCustomers({ query: { ordering: 'password_hash' }, token: staff.token })).statusCode,
    ).toBe(400);
  });

  it('shows a seller with its users, warehouses and activity', async () => {
    const res = await ctx.api.crmRoutes.getCustomer({ params: { id: seller.customerId }, token: staff.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.users).toMatchObject([{ email: seller.email, is_active: true }]);
    expect(body.warehouses).toMatchObject([{ code: 'TPE-1', locations: 2, units: 12 }]);
    expect(body.activity.map((a: { entity: string }) => a.entity)).toContain('support_ticket');
    expect(JSON.stringify(body)).not.toContain('password');
  });

  it('deactivates a seller (its users can no longer log in), activates it again, audited with the seller', async () => {
    const off = await ctx.api.crmRoutes.setCustomerActive({
      params: { id: other.customerId },
      body: { is_active: false },
      token: staff.token,
    });
    expect(off.json().is_active).toBe(false);
    const login = await ctx.api.authRoutes.login({ body: { email: other.email, password: other.password } });
    expect(login.statusCode).toBe(401);
    await ctx.api.crmRoutes.setCustomerActive({
      params: { id: other.customerId },
      body: { is_active: true },
      token: staff.token,
    });
    await expect(ctx.login(other.email, other.password)).resolves.toBeTruthy();
    const audit = await queryRows<{ action: string; actor_id: string }>(
      ctx.deps.database.db,
      sql`select action, actor_id::text as actor_id from audit_logs where entity = 'customer' and customer_id = ${other.customerId}
          and action in ('activate', 'deactivate') order by created_at, id`,
    );
    expect(audit).toEqual([
      { action: 'deactivate', actor_id: staff.userId },
      { action: 'activate', actor_id: staff.userId },
    ]);
  });

  it("resets a seller user's password: the new one is mailed, the old one stops working", async () => {
    const before = ctx.outbox().length;
    const res = await ctx.api.crmRoutes.resetUserPassword({
      params: { id: other.customerId },
      body: { user_id: other.userId },
      token: staff.token,
    });
    expect(res.statusCode).toBe(200);
    const mail = (await ctx.waitForOutbox(before + 1)).filter((m) => m.to === other.email).at(-1)!;
    const password = /(?:新密碼|New password|新しいパスワード)：?:?\s*(\S+)/.exec(mail.text)?.[1];
    expect(password).toBeTruthy();
    await expect(ctx.login(other.email, other.password)).rejects.toThrow();
    const signedIn = await ctx.login(other.email, password!);
    // A password set by staff and mailed must be replaced by the user at this sign-in.
    const profile = await ctx.api.authRoutes.profile({ token: signedIn.access });
    expect(profile.json().password_change_required).toBe(true);
    // a user of another seller is not reachable through this seller
    const wrong = await ctx.api.crmRoutes.resetUserPassword({
      params: { id: other.customerId },
      body: { user_id: seller.userId },
      token: staff.token,
    });
    expect(wrong.statusCode).toBe(404);
  });
});

describe('CRM rack, stock and dashboard', () => {
  it('shows occupancy across sellers in one building, by state and location code', async () => {
    const all = await ctx.api.crmRoutes.rack({ query: { warehouse: 'TPE-1', ordering: 'code' }, token: staff.token });
    expect(
      all
        .json()
        .results.map((r: { code: string; customer_name: string; on_hand: number }) => [
          r.code,
          r.customer_name,
          r.on_hand,
        ]),
    ).toEqual([
      ['A-01', 'Alpha Tea', 12],
      ['A-02', 'Alpha Tea', 0],
      ['B-01', 'Beta Socks', 0],
    ]);
    const inUse = await ctx.api.crmRoutes.rack({ query: { state: 'in_use' }, token: staff.token });
    expect(inUse.json().results.map((r: { code: string }) => r.code)).toEqual(['A-01']);
    const byCode = await ctx.api.crmRoutes.rack({ query: { search: 'B-0' }, token: staff.token });
    expect(byCode.json().count).toBe(1);
  });

  it('lays out rack labels of the locations a rack search finds, across sellers', async () => {
    const res = await ctx.api.crmRoutes.rackLabels({ body: { warehouse: 'TPE-1' }, token: staff.token });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.label_count).toBe(3);
    const cells = doc.pages[0]!.cells;
    expect(cells.map((c) => [c.value, c.name])).toEqual([
      ['A-01', 'Alpha Tea · TPE-1'],
      ['A-02', 'Alpha Tea · TPE-1'],
      ['B-01', 'Beta Socks · TPE-1'],
    ]);
    expect(cells[0]!.svg).toContain('<svg');
    const none = await ctx.api.crmRoutes.rackLabels({ body: { search: 'no-such-location' }, token: staff.token });
    expect(none.statusCode).toBe(404);
  });

  it('lists stock across sellers with an expiry window, and the movements of one pile', async () => {
    const soon = taipeiMidnight(taipeiToday(), 20).toISOString().slice(0, 10);
    const res = await ctx.api.crmRoutes.stock({ query: { expiry_before: soon }, token: staff.token });
    expect(res.json().results).toMatchObject([{ customer_name: 'Alpha Tea', product_number: 'TEA-1', on_hand: 12 }]);
    const earlier = await ctx.api.crmRoutes.stock({ query: { expiry_before: taipeiToday() }, token: staff.token });
    expect(earlier.json().count).toBe(0);
    const moves = await ctx.api.crmRoutes.stockMovements({ params: { id: balanceId }, token: staff.token });
    expect(moves.json()).toMatchObject([
      { quantity: 12, on_hand_after: 12, reason: 'inbound', document_number: 'IN-TEST' },
    ]);
  });

  it('sums the workload across sellers', async () => {
    const res = await ctx.api.crmRoutes.dashboard({ token: staff.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totals).toMatchObject({ open_tickets: 1, near_expiry: 1 });
    expect(body.by_customer).toMatchObject([{ name: 'Alpha Tea', tax_id: '', open_tickets: 1, near_expiry: 1 }]);
    expect(body.days).toHaveLength(7);
    expect(body.days.at(-1)!.day).toBe(taipeiToday());
  });

  it('refuses every CRM read to a seller', async () => {
    const crm = ctx.api.crmRoutes;
    for (const [name, read] of Object.entries({
      dashboard: crm.dashboard,
      listCustomers: crm.listCustomers,
      rack: crm.rack,
      stock: crm.stock,
    })) {
      expect((await read({ token: seller.token })).statusCode, name).toBe(403);
    }
  });
});
