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

const get = (url: string, token: string) => ctx.inject({ method: 'GET', url, token });
const post = (url: string, payload: unknown, token?: string) =>
  ctx.inject({ method: 'POST', url, payload: payload as object, ...(token ? { token } : {}) });
const patch = (url: string, payload: unknown, token: string) =>
  ctx.inject({ method: 'PATCH', url, payload: payload as object, token });

/** Invite a user, open the set-password link from the mail, and log in as them. */
async function inviteAndAccept(role: string, extra: Record<string, unknown> = {}) {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.tw`;
  const before = ctx.outbox().length;
  const res = await post('/api/users/', { email, name: `User ${role}`, seller_role: role, ...extra }, owner.token);
  expect(res.statusCode, res.body).toBe(201);
  const mails = await ctx.waitForOutbox(before + 1);
  const mail = mails.find((m) => m.to.includes(email));
  expect(mail, 'invitation mail').toBeTruthy();
  const token = /format-password\?token=([\w%-]+)/.exec(mail!.text)?.[1];
  expect(token).toBeTruthy();
  const set = await post('/api/reset-password/', { token: decodeURIComponent(token!), new_password: 'chosen-pass-1' });
  expect(set.statusCode, set.body).toBe(200);
  const login = await ctx.login(email, 'chosen-pass-1');
  return { id: res.json().id as string, email, token: login.access, refresh: login.refresh, mail: mail! };
}

describe('users of a seller company', () => {
  it('an existing seller account is the owner, with every grant', async () => {
    const profile = await get('/api/profile/', owner.token);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ seller_role: 'owner', grants: { prices: true } });
    expect(profile.json().grants.write).toContain('users');
  });

  it('invites by mail with a set-password link; the invited user logs in and is listed with last login', async () => {
    const u = await inviteAndAccept('office');
    expect(u.mail.subject).toContain('好物商行');
    const list = await get('/api/users/', owner.token);
    expect(list.statusCode).toBe(200);
    const row = list.json().results.find((r: { id: string }) => r.id === u.id);
    expect(row).toMatchObject({ seller_role: 'office', invited: false, is_active: true, two_factor_enabled: false });
    expect(row.last_login_at).not.toBeNull();
    const [audit] = await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.entity_id, u.id));
    expect(audit).toMatchObject({ action: 'invite', entity: 'user', actor_id: owner.userId });
    // The office role cannot open user administration.
    const denied = await get('/api/users/', u.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toMatchObject({ code: 'PERMISSION_DENIED', params: { permission: 'users:read' } });
    const again = await post('/api/users/', { email: u.email, name: 'x', seller_role: 'office' }, owner.token);
    expect(again.json().error.code).toBe('EMAIL_TAKEN');
  });

  it('warehouse: operations yes; prices, analysis, store and users no (403); prices are left out of answers', async () => {
    const product = await post(
      '/api/products/',
      { number: 'P-PRICED', name: 'Priced', cost: '12.50', selling_price: '30' },
      owner.token,
    );
    expect(product.statusCode, product.body).toBeLessThan(300);
    const w = await inviteAndAccept('warehouse');
    for (const url of ['/api/entry/', '/api/stock-log/', '/api/outbound-orders/', '/api/stocktakes/']) {
      expect((await get(url, w.token)).statusCode, url).toBe(200);
    }
    for (const url of ['/api/purchase-advice/', '/api/store-admin/products/', '/api/users/', '/api/audit-trail/']) {
      const res = await get(url, w.token);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.code).toBe('PERMISSION_DENIED');
    }
    const write = await post('/api/products/', { name: 'Nope' }, w.token);
    expect(write.statusCode).toBe(403);
    const seen = await get(`/api/products/${product.json().id}/`, w.token);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ name: 'Priced', cost: null, selling_price: null });
    const asOwner = await get(`/api/products/${product.json().id}/`, owner.token);
    expect(Number(asOwner.json().cost)).toBe(12.5);
    const profile = await get('/api/profile/', w.token);
    expect(profile.json()).toMatchObject({ seller_role: 'warehouse', grants: { prices: false } });
    // The Excel export keeps its columns, with the price and cost cells empty for the warehouse user.
    const costOf = async (token: string) => {
      const res = await get('/api/products/export/?search=P-PRICED', token);
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
    expect((await get('/api/products/', ro.token)).statusCode).toBe(200);
    expect((await post('/api/products/', { name: 'x' }, ro.token)).statusCode).toBe(403);
    const c = await inviteAndAccept('custom', { menu_access: ['returns'] });
    expect((await get('/api/returns/', c.token)).statusCode).toBe(200);
    expect((await get('/api/entry/', c.token)).statusCode).toBe(403);
    // Every user reaches their own profile and help (permission `self`).
    expect((await get('/api/profile/', c.token)).statusCode).toBe(200);
    expect((await get('/api/support/tickets/', c.token)).statusCode).toBe(200);
  });

  it("a user with order rights alone reads the new-order form's option lists, but not the basic-data screens' writes", async () => {
    const c = await inviteAndAccept('custom', { menu_access: ['orders'] });
    for (const url of [
      '/api/warehouses/',
      '/api/logistics-providers/',
      '/api/ecommerce-platforms/',
      '/api/packaging-materials/',
    ]) {
      const res = await get(url, c.token);
      expect(res.statusCode, `${url} ${res.body}`).toBe(200);
    }
    expect((await post('/api/warehouses/', { code: 'W9', name: 'x' }, c.token)).statusCode).toBe(403);
    expect((await get('/api/billing/', c.token)).statusCode).toBe(403);
    // A user who reads no group at all (a custom role with nothing ticked) gets no option list either.
    const none = await inviteAndAccept('custom', { menu_access: [] });
    expect((await get('/api/warehouses/', none.token)).statusCode).toBe(403);
  });

  it('a role change acts at the next call, without a new login', async () => {
    const u = await inviteAndAccept('readonly');
    expect((await post('/api/warehouses/', { code: 'W9', name: 'W9' }, u.token)).statusCode).toBe(403);
    const res = await patch(`/api/users/${u.id}/`, { seller_role: 'office', name: 'Promoted' }, owner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ seller_role: 'office', name: 'Promoted' });
    const created = await post('/api/warehouses/', { code: 'W9', name: 'W9' }, u.token);
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
    expect((await get('/api/entry/', u.token)).statusCode).toBe(200);
    const off = await post(`/api/users/${u.id}/deactivate/`, {}, owner.token);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().is_active).toBe(false);
    const after = await get('/api/entry/', u.token);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('TOKEN_INVALID');
    expect((await post('/api/token/refresh/', { refresh: u.refresh })).statusCode).toBe(401);
    expect((await post('/api/login/', { email: u.email, password: 'chosen-pass-1' })).statusCode).toBe(401);
    const on = await post(`/api/users/${u.id}/activate/`, {}, owner.token);
    expect(on.json().is_active).toBe(true);
    expect((await ctx.login(u.email, 'chosen-pass-1')).access).toBeTruthy();
  });

  it('keeps an active owner: no self-deactivation or self-demotion, no removing the last owner', async () => {
    const self = await post(`/api/users/${owner.userId}/deactivate/`, {}, owner.token);
    expect(self.statusCode).toBe(409);
    expect(self.json().error.code).toBe('LAST_OWNER');
    const demote = await patch(`/api/users/${owner.userId}/`, { seller_role: 'office' }, owner.token);
    expect(demote.json().error.code).toBe('LAST_OWNER');
    const second = await inviteAndAccept('owner');
    // A second owner may demote the first, but then not themselves.
    expect((await patch(`/api/users/${owner.userId}/`, { seller_role: 'owner' }, second.token)).statusCode).toBe(200);
  });

  it('a reset sends a set-password link; requiring two-step login shows on the profile', async () => {
    const u = await inviteAndAccept('office');
    const before = ctx.outbox().length;
    const res = await post(`/api/users/${u.id}/reset-password/`, {}, owner.token);
    expect(res.statusCode).toBe(200);
    const mails = await ctx.waitForOutbox(before + 1);
    expect(mails.some((m) => m.to.includes(u.email) && /format-password\?token=/.test(m.text))).toBe(true);
    expect((await get('/api/entry/', u.token)).statusCode).toBe(200);
    await patch(`/api/users/${u.id}/`, { two_factor_required: true }, owner.token);
    expect((await get('/api/profile/', u.token)).json().two_factor_required).toBe(true);
    // Until two-step login is on, only the user's own routes answer (the set-up among them).
    expect((await get('/api/entry/', u.token)).statusCode).toBe(403);
    expect((await post('/api/two-factor/setup/', {}, u.token)).statusCode).toBe(200);
    await patch(`/api/users/${u.id}/`, { two_factor_required: false }, owner.token);
    expect((await get('/api/entry/', u.token)).statusCode).toBe(200);
  });

  it("another seller's users are never visible or editable", async () => {
    const list = await get('/api/users/', other.token);
    expect(list.json().results.map((r: { id: string }) => r.id)).toEqual([other.userId]);
    expect((await patch(`/api/users/${owner.userId}/`, { name: 'x' }, other.token)).statusCode).toBe(404);
    expect((await post(`/api/users/${owner.userId}/deactivate/`, {}, other.token)).statusCode).toBe(404);
    const [row] = await ctx.deps.database.db.select().from(users).where(eq(users.id, owner.userId));
    expect(row!.is_active).toBe(true);
    const audit = await get('/api/audit-trail/', other.token);
    expect(audit.json().results.every((a: { actor_id: string | null }) => a.actor_id !== owner.userId)).toBe(true);
  });

  it('the audit trail filters by user, document and date, and exports to Excel', async () => {
    const all = await get('/api/audit-trail/?page_size=100', owner.token);
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBeGreaterThan(3);
    const mine = await get(`/api/audit-trail/?user_id=${owner.userId}&entity=user&page_size=100`, owner.token);
    expect(mine.json().results.length).toBeGreaterThan(0);
    for (const a of mine.json().results) expect(a).toMatchObject({ actor_id: owner.userId, entity: 'user' });
    expect(mine.json().results[0].actor_name).toBe('Seller user');
    const future = await get('/api/audit-trail/?date_from=2099-01-01', owner.token);
    expect(future.json().count).toBe(0);
    const xlsx = await get('/api/audit-trail/export/', owner.token);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
