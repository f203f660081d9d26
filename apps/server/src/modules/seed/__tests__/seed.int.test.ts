import { senderIssue } from '@wms/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { customers, logistics_providers, users, warehouses } from '../../../db/schema';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { seedDemoData } from '../seed.service';

let ctx: TTestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('demo seed', () => {
  it('seeds a demo seller, its user and a warehouse plus an employee, with passwords from env; only once', async () => {
    ctx = await createTestContext({ DEMO_CUSTOMER_PASSWORD: 'seller-pass-1', DEMO_EMPLOYEE_PASSWORD: 'staff-pass-1' });
    const first = await seedDemoData(ctx.deps.database.db, ctx.config);
    expect(first.seeded).toBe(true);
    expect(first.logins.every((l) => l.password === null)).toBe(true);
    const login = await ctx.api.authRoutes.login({ body: { email: 'demo@wms.local', password: 'seller-pass-1' } });
    expect(login.json()).toMatchObject({ status: 'login', role: 'CUSTOMER' });
    const staff = await ctx.api.authRoutes.login({ body: { email: 'staff@wms.local', password: 'staff-pass-1' } });
    expect(staff.json()).toMatchObject({ status: 'login', role: 'EMPLOYEE' });
    expect(await ctx.deps.database.db.select().from(warehouses)).toHaveLength(1);
    // Its logistics provider's sender meets both carriers' rules (no consignment refused for it).
    const [provider] = await ctx.deps.database.db.select().from(logistics_providers);
    const sender = {
      name: provider!.sender_name,
      phone: provider!.sender_phone,
      postcode: provider!.sender_postcode,
      address: provider!.sender_address,
    };
    expect(senderIssue('ecpay', sender)).toBeNull();
    expect(senderIssue('tcat', sender)).toBeNull();
    expect((await seedDemoData(ctx.deps.database.db, ctx.config)).seeded).toBe(false);
    expect(await ctx.deps.database.db.select().from(users)).toHaveLength(2);
  });

  it('SEED_DEMO=0 seeds no account with a generated password', async () => {
    ctx = await createTestContext({ SEED_DEMO: '0' });
    const result = await seedDemoData(ctx.deps.database.db, ctx.config);
    expect(result).toEqual({ seeded: false, logins: [] });
    expect(await ctx.deps.database.db.select().from(users)).toHaveLength(0);
  });

  it('SEED_DEMO=0 with DEMO_EMPLOYEE_PASSWORD seeds that employee alone', async () => {
    ctx = await createTestContext({ SEED_DEMO: '0', DEMO_EMPLOYEE_PASSWORD: 'chosen-by-ops-1' });
    const result = await seedDemoData(ctx.deps.database.db, ctx.config);
    expect(result.logins).toEqual([{ role: 'EMPLOYEE', email: 'staff@wms.local', password: null }]);
    expect(await ctx.deps.database.db.select().from(customers)).toHaveLength(0);
    const staff = await ctx.api.authRoutes.login({ body: { email: 'staff@wms.local', password: 'chosen-by-ops-1' } });
    expect(staff.statusCode).toBe(200);
  });
});
