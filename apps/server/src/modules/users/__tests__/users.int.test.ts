import type { TInviteUser } from '@wms/contracts';
import { invalidInput } from '@wms/contracts/client';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, users } from '../../../db/schema';
import { createTestContext, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
let owner: Awaited<ReturnType<TTestContext['newCustomer']>>;
let other: Awaited<ReturnType<TTestContext['newCustomer']>>;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await ctx.newCustomer({ name: '好物商行' });
  other = await ctx.newCustomer({ name: 'Other seller' });
});
afterAll(() => ctx?.close());

/** Invite a user, open the set-password link from the mail, and log in as them. */
async function inviteAndAccept(role: TInviteUser['seller_role'], extra: Record<string, unknown> = {}) {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.tw`;
  const before = ctx.outbox().length;
  const res = await ctx.api.userRoutes.inviteCompanyUser({
    body: { email, name: `User ${role}`, seller_role: role, ...extra },
    token: owner.token,
  });
  expect(res.statusCode, res.body).toBe(201);
  const mails = await ctx.waitForOutbox(before + 1);
  const mail = mails.find((m) => m.to.includes(email));
  expect(mail, 'invitation mail').toBeTruthy();
  const token = /format-password\?token=([\w%-]+)/.exec(mail!.text)?.[1];
  expect(token).toBeTruthy();
  const set = await ctx.api.authRoutes.resetPassword({
    body: { token: decodeURIComponent(token!), new_password: 'chosen-pass-1' },
  });
  expect(set.statusCode, set.body).toBe(200);
  const login = await ctx.login(email, 'chosen-pass-1');
  return { id: res.json().id as string, email, token: login.access, refresh: login.refresh, mail: mail! };
}

describe('users of a seller company', () => {
  it('an existing seller account is the owner, with every grant', async () => {
    const profile = await ctx.api.authRoutes.profile({ token: owner.token });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ seller_role: 'owner', grants: { prices: true } });
    expect(profile.json().grants.write).toContain('users');
  });

  it('invites by mail with a set-password link; the invited user logs in and is listed with last login', async () => {
    const u = await inviteAndAccept('office');
    expect(u.mail.subject).toContain('好物商行');
    const list = await ctx.api.userRoutes.listCompanyUsers({ token: owner.token });
    expect(list.statusCode).toBe(200);
    const row = list.json().results.find((r: { id: string }) => r.id === u.id);
    expect(row).toMatchObject({ seller_role: 'office', invited: false, is_active: true, two_factor_enabled: false });
    expect(row!.last_login_at).not.toBeNull();
    const [audit] = await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.entity_id, u.id));
    expect(audit).toMatchObject({ action: 'invite', entity: 'user', actor_id: owner.userId });
    // The office role cannot open user administration.
    const denied = await ctx.api.userRoutes.listCompanyUsers({ token: u.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.error()).toMatchObject({ code: 'PERMISSION_DENIED', params: { permission: 'users:read' } });
    const again = await ctx.api.userRoutes.inviteCompanyUser({
      body: { email: u.email, name: 'x', seller_role: 'office' },
      token: owner.token,
    });
    expect(again.error().code).toBe('EMAIL_TAKEN');
  });

  it('warehouse: operations yes; prices, analysis, store and users no (403); prices are left out of answers', async () => {
    const product = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'P-PRICED', name: 'Priced', cost: '12.50', selling_price: '30' },
      token: owner.token,
    });
    expect(product.statusCode, product.body).toBeLessThan(300);
    const w = await inviteAndAccept('warehouse');
    const operations = {
      listReceipts: ctx.api.inboundRoutes.listReceipts,
      stockLog: ctx.api.stockRoutes.stockLog,
      listOrders: ctx.api.outboundRoutes.listOrders,
      listStocktakes: ctx.api.stocktakeRoutes.listStocktakes,
    };
    for (const [name, read] of Object.entries(operations)) {
      expect((await read({ token: w.token })).statusCode, name).toBe(200);
    }
    const closed = {
      purchaseAdvice: ctx.api.analysisRoutes.purchaseAdvice,
      listStoreProducts: ctx.api.storeRoutes.listStoreProducts,
      listCompanyUsers: ctx.api.userRoutes.listCompanyUsers,
      listAuditTrail: ctx.api.userRoutes.listAuditTrail,
    };
    for (const [name, read] of Object.entries(closed)) {
      const res = await read({ token: w.token });
      expect(res.statusCode, name).toBe(403);
      expect(res.error().code).toBe('PERMISSION_DENIED');
    }
    const write = await ctx.api.catalogRoutes.createProduct({ body: invalidInput({ name: 'Nope' }), token: w.token });
    expect(write.statusCode).toBe(403);
    const seen = await ctx.api.catalogRoutes.getProduct({ params: { id: product.json().id }, token: w.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ name: 'Priced', cost: null, selling_price: null });
    const asOwner = await ctx.api.catalogRoutes.getProduct({ params: { id: product.json().id }, token: owner.token });
    expect(Number(asOwner.json().cost)).toBe(12.5);
    const profile = await ctx.api.authRoutes.profile({ token: w.token });
    expect(profile.json()).toMatchObject({ seller_role: 'warehouse', grants: { prices: false } });
    // The Excel export keeps its columns, with the price and cost cells empty for the warehouse user.
    const costOf = async (token: string) => {
      const res = await ctx.api.catalogRoutes.exportProducts({ query: { search: 'P-PRICED' }, token });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      const header = (ws.getRow(1).values as unknown[]).map(String);
      const col = header.findIndex((h) => h === 'Cost' || h === '成本');
      expect(col).toBeGreaterThan(0);
      return ws.getRow(2).getCell(col).value;
    };
    expect(Number(await costOf(owner.token))).toBe(12.5);
    expect(await costOf(w.token)).toBeNull();
  });

  it('read-only reads but never writes; a custom role opens the ticked groups only', async () => {
    const ro = await inviteAndAccept('readonly');
    expect((await ctx.api.catalogRoutes.listProducts({ token: ro.token })).statusCode).toBe(200);
    expect(
      (await ctx.api.catalogRoutes.createProduct({ body: invalidInput({ name: 'x' }), token: ro.token })).statusCode,
    ).toBe(403);
    const c = await inviteAndAccept('custom', { menu_access: ['returns'] });
    expect((await ctx.api.returnRoutes.listReturns({ token: c.token })).statusCode).toBe(200);
    expect((await ctx.api.inboundRoutes.listReceipts({ token: c.token })).statusCode).toBe(403);
    // Every user reaches their own profile and help (permission `self`).
    expect((await ctx.api.authRoutes.profile({ token: c.token })).statusCode).toBe(200);
    expect((await ctx.api.supportRoutes.listTickets({ token: c.token })).statusCode).toBe(200);
  });

  it("a user with order rights alone reads the new-order form's option lists, but not the basic-data screens' writes", async () => {
    const c = await inviteAndAccept('custom', { menu_access: ['orders'] });
    const optionLists = {
      listWarehouses: ctx.api.warehouseRoutes.listWarehouses,
      listLogisticsProviders: ctx.api.partnerRoutes.listLogisticsProviders,
      listEcommercePlatforms: ctx.api.partnerRoutes.listEcommercePlatforms,
      listPackagingMaterials: ctx.api.catalogRoutes.listPackagingMaterials,
    };
    for (const [name, read] of Object.entries(optionLists)) {
      const res = await read({ token: c.token });
      expect(res.statusCode, `${name} ${res.body}`).toBe(200);
    }
    expect(
      (await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'W9', name: 'x' }, token: c.token })).statusCode,
    ).toBe(403);
    expect((await ctx.api.billingRoutes.overview({ token: c.token })).statusCode).toBe(403);
    // A user who reads no group at all (a custom role with nothing ticked) gets no option list either.
    const none = await inviteAndAccept('custom', { menu_access: [] });
    expect((await ctx.api.warehouseRoutes.listWarehouses({ token: none.token })).statusCode).toBe(403);
  });

  it('a role change acts at the next call, without a new login', async () => {
    const u = await inviteAndAccept('readonly');
    expect(
      (await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'W9', name: 'W9' }, token: u.token })).statusCode,
    ).toBe(403);
    const res = await ctx.api.userRoutes.updateCompanyUser({
      params: { id: u.id },
      body: { seller_role: 'office', name: 'Promoted' },
      token: owner.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ seller_role: 'office', name: 'Promoted' });
    const created = await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'W9', name: 'W9' }, token: u.token });
    expect(created.statusCode, created.body).not.toBe(403);
    const [row] = await ctx.deps.database.db
      .select()
      .from(audit_logs)
      .where(eq(audit_logs.entity_id, u.id))
      .orderBy(audit_logs.id);
    expect(row).toBeTruthy();
  });

  it('deactivation refuses the access token at once (401) and revokes refresh tokens', async () => {
    const u = await inviteAndAccept('warehouse');
    expect((await ctx.api.inboundRoutes.listReceipts({ token: u.token })).statusCode).toBe(200);
    const off = await ctx.api.userRoutes.deactivateCompanyUser({ params: { id: u.id }, token: owner.token });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().is_active).toBe(false);
    const after = await ctx.api.inboundRoutes.listReceipts({ token: u.token });
    expect(after.statusCode).toBe(401);
    expect(after.error().code).toBe('TOKEN_INVALID');
    expect((await ctx.api.authRoutes.refresh({ body: { refresh: u.refresh } })).statusCode).toBe(401);
    expect((await ctx.api.authRoutes.login({ body: { email: u.email, password: 'chosen-pass-1' } })).statusCode).toBe(
      401,
    );
    const on = await ctx.api.userRoutes.activateCompanyUser({ params: { id: u.id }, token: owner.token });
    expect(on.json().is_active).toBe(true);
    expect((await ctx.login(u.email, 'chosen-pass-1')).access).toBeTruthy();
  });

  it('keeps an active owner: no self-deactivation or self-demotion, no removing the last owner', async () => {
    const self = await ctx.api.userRoutes.deactivateCompanyUser({ params: { id: owner.userId }, token: owner.token });
    expect(self.statusCode).toBe(409);
    expect(self.error().code).toBe('LAST_OWNER');
    const demote = await ctx.api.userRoutes.updateCompanyUser({
      params: { id: owner.userId },
      body: { seller_role: 'office' },
      token: owner.token,
    });
    expect(demote.error().code).toBe('LAST_OWNER');
    const second = await inviteAndAccept('owner');
    // A second owner may demote the first, but then not themselves.
    expect(
      (
        await ctx.api.userRoutes.updateCompanyUser({
          params: { id: owner.userId },
          body: { seller_role: 'owner' },
          token: second.token,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('a reset sends a set-password link; requiring two-step login shows on the profile', async () => {
    const u = await inviteAndAccept('office');
    const before = ctx.outbox().length;
    const res = await ctx.api.userRoutes.resetCompanyUserPassword({ params: { id: u.id }, token: owner.token });
    expect(res.statusCode).toBe(200);
    const mails = await ctx.waitForOutbox(before + 1);
    expect(mails.some((m) => m.to.includes(u.email) && /format-password\?token=/.test(m.text))).toBe(true);
    expect((await ctx.api.inboundRoutes.listReceipts({ token: u.token })).statusCode).toBe(200);
    await ctx.api.userRoutes.updateCompanyUser({
      params: { id: u.id },
      body: { two_factor_required: true },
      token: owner.token,
    });
    expect((await ctx.api.authRoutes.profile({ token: u.token })).json().two_factor_required).toBe(true);
    // Until two-step login is on, only the user's own routes answer (the set-up among them).
    expect((await ctx.api.inboundRoutes.listReceipts({ token: u.token })).statusCode).toBe(403);
    expect((await ctx.api.authRoutes.twoFactorSetup({ token: u.token })).statusCode).toBe(200);
    await ctx.api.userRoutes.updateCompanyUser({
      params: { id: u.id },
      body: { two_factor_required: false },
      token: owner.token,
    });
    expect((await ctx.api.inboundRoutes.listReceipts({ token: u.token })).statusCode).toBe(200);
  });

  it("another seller's users are never visible or editable", async () => {
    const list = await ctx.api.userRoutes.listCompanyUsers({ token: other.token });
    expect(list.json().results.map((r: { id: string }) => r.id)).toEqual([other.userId]);
    expect(
      (
        await ctx.api.userRoutes.updateCompanyUser({
          params: { id: owner.userId },
          body: { name: 'x' },
          token: other.token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await ctx.api.userRoutes.deactivateCompanyUser({ params: { id: owner.userId }, token: other.token })).statusCode,
    ).toBe(404);
    const [row] = await ctx.deps.database.db.select().from(users).where(eq(users.id, owner.userId));
    expect(row!.is_active).toBe(true);
    const audit = await ctx.api.userRoutes.listAuditTrail({ token: other.token });
    expect(audit.json().results.every((a: { actor_id: string | null }) => a.actor_id !== owner.userId)).toBe(true);
  });

  it('the audit trail filters by user, document and date, and exports to Excel', async () => {
    const all = await ctx.api.userRoutes.listAuditTrail({ query: { page_size: '100' }, token: owner.token });
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBeGreaterThan(3);
    const mine = await ctx.api.userRoutes.listAuditTrail({
      query: { user_id: owner.userId, entity: 'user', page_size: '100' },
      token: owner.token,
    });
    expect(mine.json().results.length).toBeGreaterThan(0);
    for (const a of mine.json().results) expect(a).toMatchObject({ actor_id: owner.userId, entity: 'user' });
    expect(mine.json().results[0]!.actor_name).toBe('Seller user');
    const future = await ctx.api.userRoutes.listAuditTrail({ query: { date_from: '2099-01-01' }, token: owner.token });
    expect(future.json().count).toBe(0);
    const xlsx = await ctx.api.userRoutes.exportAuditTrail({ token: owner.token });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
