import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, logistics_providers } from '../../../db/schema';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { outboundWorld, recipient, type TWorld } from '../../outbound/__tests__/factories';

let ctx: TTestContext;
let w: TWorld;
let shortUrl: string;

const json = (res: { body: string }) => JSON.parse(res.body);

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token?: string, payload?: object) {
  return ctx.inject({ method, url, token, ...(payload ? { payload } : {}) });
}

async function memberLogin(corp: string, email: string, password: string) {
  return call('POST', '/api/member-login/', undefined, { corp, email, password });
}

/** Create a member through /store-member and read the mailed password. */
async function addMember(token: string, email: string, extra: object = {}) {
  const before = ctx.outbox().length;
  const res = await call('POST', '/api/store-members/', token, { name: `Member ${email}`, email, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const mails = await ctx.waitForOutbox(before + 1);
  const mail = mails.filter((m) => m.to.includes(email.toLowerCase())).at(-1);
  expect(mail, 'invitation mail').toBeTruthy();
  const password = /(?:密碼|Password|パスワード)[：:] ?(\S+)/.exec(mail!.text)?.[1];
  expect(password).toBeTruthy();
  return { member: json(res), password: password!, mail: mail! };
}

beforeAll(async () => {
  ctx = await createTestContext();
  w = await outboundWorld(ctx, { name: 'Store seller' });
  await w.put([{ productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 7 }]);
  shortUrl = `shop-${randomUUID().slice(0, 6)}`;
}, 60_000);
afterAll(() => ctx?.close());

describe('/store-admin', () => {
  it('creates the store with a unique short URL checked as typed, then changes and opens it', async () => {
    expect(json(await call('GET', '/api/store-admin/', w.token))).toEqual({ store: null });
    const check = (v: string) => call('GET', `/api/store-admin/short-url/?short_url=${encodeURIComponent(v)}`, w.token);
    expect(json(await check('a'))).toEqual({ valid: false, available: false });
    expect(json(await check('-bad-'))).toEqual({ valid: false, available: false });
    expect(json(await check(shortUrl))).toEqual({ valid: true, available: true });

    const created = await call('PUT', '/api/store-admin/', w.token, {
      name: '好物小舖',
      short_url: shortUrl.toUpperCase(),
      description: '會員專屬',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(json(created)).toMatchObject({ name: '好物小舖', short_url: shortUrl, is_open: false, logo: '' });

    // Another seller cannot take it; its own check says so.
    const other = await ctx.newCustomer({ name: 'Other seller' });
    expect(json(await call('GET', `/api/store-admin/short-url/?short_url=${shortUrl}`, other.token))).toEqual({
      valid: true,
      available: false,
    });
    const taken = await call('PUT', '/api/store-admin/', other.token, { name: 'x', short_url: shortUrl });
    expect(taken.statusCode).toBe(409);
    expect(json(taken).error).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'short_url' } });
    // The owner's own URL stays available to the owner.
    expect(json(await check(shortUrl)).available).toBe(true);

    const bad = await call('PUT', '/api/store-admin/', w.token, { name: 'x', short_url: 'no spaces' });
    expect(bad.statusCode).toBe(400);
    const badLogo = await call('PUT', '/api/store-admin/', w.token, {
      name: 'x',
      short_url: shortUrl,
      logo: 'javascript:alert(1)',
    });
    expect(badLogo.statusCode).toBe(400);
    // The bytes must be the image the data URL names: HTML, SVG and junk labelled as PNG/JPEG/WebP are refused.
    for (const [type, content] of [
      ['png', '<html><script>alert(1)</script></html>'],
      ['png', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ['jpeg', 'not an image at all'],
      ['webp', 'RIFF\u0000\u0000\u0000\u0000HTML<script>'],
      ['png', '\u0089PNG\r\n\u001a\n'],
    ] as const) {
      const fake = await call('PUT', '/api/store-admin/', w.token, {
        name: 'x',
        short_url: shortUrl,
        logo: `data:image/${type};base64,${Buffer.from(content, 'latin1').toString('base64')}`,
      });
      expect(fake.statusCode, content).toBe(400);
      expect(json(fake).error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'logo' } });
    }
    expect(json(await call('GET', '/api/store-admin/', w.token)).store.logo).toBe('');

    // A real 1×1 PNG.
    const logo =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const opened = await call('PUT', '/api/store-admin/', w.token, {
      name: '好物小舖',
      short_url: shortUrl,
      is_open: true,
      logo,
    });
    expect(json(opened)).toMatchObject({ is_open: true, description: '會員專屬', logo });
    expect(json(await call('GET', '/api/store-admin/', w.token)).store).toMatchObject({ id: json(created).id });
    const audits = await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.entity, 'store'));
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['create', 'update']));
  });

  it('lists a product with its selling price and shows its sellable stock', async () => {
    const noPrice = await call('PUT', `/api/store-admin/products/${w.plain.id}/`, w.token, {
      online_listing: true,
      selling_price: null,
    });
    expect(json(noPrice).error).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'selling_price' } });
    const listed = await call('PUT', `/api/store-admin/products/${w.plain.id}/`, w.token, {
      online_listing: true,
      selling_price: '199.5',
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(json(listed)).toMatchObject({
      online_listing: true,
      selling_price: '199.50',
      available: 7,
      orderable: true,
    });
    await call('PUT', `/api/store-admin/products/${w.kit.id}/`, w.token, {
      online_listing: true,
      selling_price: '500',
    });
    const page = json(await call('GET', '/api/store-admin/products/?listed=true', w.token));
    expect(page.results.map((p: { id: string }) => p.id).sort()).toEqual([w.plain.id, w.kit.id].sort());
    const missing = await call('PUT', `/api/store-admin/products/${randomUUID()}/`, w.token, {
      online_listing: true,
      selling_price: '1',
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('/store-member and member login', () => {
  it('refuses members before the store exists', async () => {
    const lonely = await ctx.newCustomer({ name: 'No store yet' });
    const res = await call('POST', '/api/store-members/', lonely.token, { name: 'a', email: 'a@x.tw' });
    expect(res.statusCode).toBe(409);
    expect(json(res).error.code).toBe('STORE_NOT_CREATED');
  });

  it('invites a member by mail; the member logs in by the short URL; deactivation ends the session at once', async () => {
    const { member, password, mail } = await addMember(w.token, 'Buyer@Shop.tw', {
      phone: '0912345678',
      postcode: '100',
      address: '台北市中正區重慶南路一段 122 號',
    });
    expect(member).toMatchObject({ email: 'buyer@shop.tw', is_active: true, phone: '0912345678' });
    expect(mail.text).toContain(`http://wms.test/store/login/${shortUrl}`);
    const dup = await call('POST', '/api/store-members/', w.token, { name: 'again', email: 'buyer@shop.tw' });
    expect(json(dup).error).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'email' } });

    const login = await memberLogin(shortUrl, 'buyer@shop.tw', password);
    expect(login.statusCode, login.body).toBe(200);
    const { access, refresh, profile } = json(login);
    expect(profile).toMatchObject({
      email: 'buyer@shop.tw',
      postcode: '100',
      store: { short_url: shortUrl, is_open: true },
    });

    // Listing, searching and exporting members.
    const list = json(await call('GET', '/api/store-members/?search=buyer', w.token));
    expect(list.count).toBe(1);
    const xlsx = await call('GET', '/api/store-members/export/', w.token);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');

    // Deactivate: the access token stops working on every member call, the refresh token is revoked, login fails.
    const off = await call('PUT', `/api/store-members/${member.id}/`, w.token, {
      name: member.name,
      phone: member.phone,
      postcode: member.postcode,
      address: member.address,
      is_active: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await call('GET', '/api/member-profile/', access)).statusCode).toBeGreaterThanOrEqual(400);
    expect((await call('GET', '/api/member-orders/', access)).statusCode).toBe(401);
    expect((await call('POST', '/api/member-token/refresh/', undefined, { refresh })).statusCode).toBe(401);
    expect((await memberLogin(shortUrl, 'buyer@shop.tw', password)).statusCode).toBe(401);

    // Active again, and a reset mails a new password: the old one no longer works.
    await call('PUT', `/api/store-members/${member.id}/`, w.token, {
      ...member,
      id: undefined,
      email: undefined,
      created_at: undefined,
      is_active: true,
    });
    const before = ctx.outbox().length;
    const reset = await call('POST', `/api/store-members/${member.id}/reset-password/`, w.token);
    expect(reset.statusCode, reset.body).toBe(200);
    const resetMail = (await ctx.waitForOutbox(before + 1)).at(-1)!;
    const fresh = /(?:密碼|Password|パスワード)[：:] ?(\S+)/.exec(resetMail.text)?.[1] ?? '';
    expect(fresh).not.toBe(password);
    expect((await memberLogin(shortUrl, 'buyer@shop.tw', password)).statusCode).toBe(401);
    expect((await memberLogin(shortUrl, 'buyer@shop.tw', fresh)).statusCode).toBe(200);
  });

  it('locks a member login after repeated failures', async () => {
    await addMember(w.token, 'locked@shop.tw');
    let last = 0;
    for (let i = 0; i < ctx.config.loginMaxFailures + 1; i++)
      last = (await memberLogin(shortUrl, 'locked@shop.tw', 'wrong-password')).statusCode;
    expect(last).toBe(429);
    const res = await memberLogin(shortUrl, 'locked@shop.tw', 'wrong-password');
    expect(json(res).error.code).toBe('ACCOUNT_LOCKED');
  });

  it('lets the member edit the profile and change the password (sessions end)', async () => {
    const { password } = await addMember(w.token, 'profile@shop.tw');
    const { access, refresh } = json(await memberLogin(shortUrl, 'profile@shop.tw', password));
    const upd = await call('PUT', '/api/member-profile/', access, {
      name: '陳小華',
      phone: '0223456789',
      postcode: '106',
      address: '台北市大安區',
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(json(upd)).toMatchObject({ name: '陳小華', postcode: '106' });
    expect(json(await call('GET', '/api/member-profile/', access))).toMatchObject({ address: '台北市大安區' });

    const wrong = await call('POST', '/api/member-password/', access, {
      old_password: 'nope',
      new_password: 'new-pass-1',
    });
    expect(json(wrong).error.code).toBe('WRONG_PASSWORD');
    const short = await call('POST', '/api/member-password/', access, { old_password: password, new_password: 'abc' });
    expect(short.statusCode).toBe(400);
    const ok = await call('POST', '/api/member-password/', access, {
      old_password: password,
      new_password: 'new-pass-1',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await call('POST', '/api/member-token/refresh/', undefined, { refresh })).statusCode).toBe(401);
    expect((await memberLogin(shortUrl, 'profile@shop.tw', 'new-pass-1')).statusCode).toBe(200);
  });
});

describe('direct purchase', () => {
  it('a member orders listed products: a pending outbound order of channel store, seen only by that member', async () => {
    const a = await addMember(w.token, 'order-a@shop.tw', recipientProfile());
    const b = await addMember(w.token, 'order-b@shop.tw');
    const tokenA = json(await memberLogin(shortUrl, 'order-a@shop.tw', a.password)).access;
    const tokenB = json(await memberLogin(shortUrl, 'order-b@shop.tw', b.password)).access;

    const catalog = json(await call('GET', '/api/member-catalog/', tokenA));
    expect(catalog.store).toMatchObject({ short_url: shortUrl, is_open: true });
    expect(catalog.providers).toEqual([{ id: w.carrier.id, code: 'TCAT', name: '黑貓宅急便' }]);
    const plain = catalog.products.find((p: { id: string }) => p.id === w.plain.id);
    expect(plain).toMatchObject({ selling_price: '199.50', available: 7 });

    const order = {
      lines: [
        { product_id: w.plain.id, quantity: 2 },
        { product_id: w.kit.id, quantity: 1 },
      ],
      ...recipient,
      logistics_provider_id: w.carrier.id,
      cod: true,
    };
    const res = await call('POST', '/api/member-orders/', tokenA, order);
    expect(res.statusCode, res.body).toBe(201);
    const placed = json(res);
    expect(placed.total_amount).toBe('899.00');

    const detail = json(await call('GET', `/api/outbound-orders/${placed.id}/`, w.token));
    expect(detail).toMatchObject({
      channel: 'store',
      status: 'pending_export',
      cod: true,
      cod_amount: '899.00',
      total_amount: '899.00',
      logistics_provider_id: w.carrier.id,
      warehouse_id: w.wh.id,
    });
    expect(detail.lines).toHaveLength(2);

    const mine = json(await call('GET', '/api/member-orders/', tokenA));
    expect(mine.count).toBe(1);
    expect(mine.results[0]).toMatchObject({
      number: placed.number,
      status: 'pending_export',
      consignment_number: null,
    });
    expect(mine.results[0].lines).toHaveLength(2);
    expect(json(await call('GET', '/api/member-orders/', tokenB)).count).toBe(0);

    // The seller sees it with the member; once it has a consignment number the member sees it and a tracking link.
    const admin = json(await call('GET', '/api/store-admin/orders/', w.token));
    expect(admin.results.find((o: { id: string }) => o.id === placed.id)).toMatchObject({
      member_email: 'order-a@shop.tw',
    });
    const set = await call('PATCH', `/api/outbound-orders/${placed.id}/consignment/`, w.token, {
      consignment_number: '9001234567',
      piece_count: 1,
    });
    expect(set.statusCode, set.body).toBeLessThan(300);
    const after = json(await call('GET', '/api/member-orders/', tokenA)).results[0];
    expect(after.consignment_number).toBe('9001234567');
    expect(after.tracking_url).toContain('9001234567');
  });

  it('refuses unlisted products, another seller’s carrier, a closed store and bad recipients', async () => {
    const m = await addMember(w.token, 'refused@shop.tw');
    const token = json(await memberLogin(shortUrl, 'refused@shop.tw', m.password)).access;
    const base = {
      ...recipient,
      logistics_provider_id: w.carrier.id,
      lines: [{ product_id: w.plain.id, quantity: 1 }],
    };
    const unlisted = await call('POST', '/api/member-orders/', token, {
      ...base,
      lines: [{ product_id: w.fresh.id, quantity: 1 }],
    });
    expect(json(unlisted).error.code).toBe('PRODUCT_ABNORMAL');
    const other = await outboundWorld(ctx, { name: 'Carrier owner' });
    const foreign = await call('POST', '/api/member-orders/', token, {
      ...base,
      logistics_provider_id: other.carrier.id,
    });
    expect(json(foreign).error.code).toBe('PATHWAY_ABNORMAL');
    const [inactive] = await ctx.deps.database.db
      .insert(logistics_providers)
      .values({ customer_id: w.customerId, code: 'OFF', name: 'off', is_active: false })
      .returning();
    expect(
      json(await call('POST', '/api/member-orders/', token, { ...base, logistics_provider_id: inactive!.id })).error
        .code,
    ).toBe('PATHWAY_ABNORMAL');
    const badPhone = await call('POST', '/api/member-orders/', token, { ...base, recipient_phone: '12' });
    expect(badPhone.statusCode).toBe(400);
    expect(json(badPhone).error.params.field).toBe('recipient_phone');
    const dupLine = await call('POST', '/api/member-orders/', token, {
      ...base,
      lines: [
        { product_id: w.plain.id, quantity: 1 },
        { product_id: w.plain.id, quantity: 1 },
      ],
    });
    expect(dupLine.statusCode).toBe(409);
    const zero = await call('POST', '/api/member-orders/', token, {
      ...base,
      lines: [{ product_id: w.plain.id, quantity: 0 }],
    });
    expect(zero.statusCode).toBe(400);

    await call('PUT', '/api/store-admin/', w.token, { name: '好物小舖', short_url: shortUrl, is_open: false });
    const closed = await call('POST', '/api/member-orders/', token, base);
    expect(json(closed).error.code).toBe('STORE_CLOSED');
    // A closed store no longer shows its catalogue (products, prices, stock, carriers) to members.
    const closedCatalog = json(await call('GET', '/api/member-catalog/', token));
    expect(closedCatalog.store).toMatchObject({ short_url: shortUrl, is_open: false });
    expect(closedCatalog.products).toEqual([]);
    expect(closedCatalog.providers).toEqual([]);
    // The seller still orders from its own store (the main area's direct-purchase menu).
    const seller = await call('POST', '/api/direct-purchase/', w.token, base);
    expect(seller.statusCode, seller.body).toBe(201);
    const admin = json(await call('GET', '/api/store-admin/orders/', w.token));
    expect(admin.results.find((o: { id: string }) => o.id === json(seller).id)).toMatchObject({ member_name: null });
    expect(json(await call('GET', '/api/direct-purchase/catalog/', w.token)).products.length).toBe(2);
    await call('PUT', '/api/store-admin/', w.token, { name: '好物小舖', short_url: shortUrl, is_open: true });
  });
});

describe('tokens and tenants', () => {
  it('refuses member tokens on seller routes and seller tokens on member routes', async () => {
    const m = await addMember(w.token, 'cross@shop.tw');
    const member = json(await memberLogin(shortUrl, 'cross@shop.tw', m.password)).access;
    for (const url of [
      '/api/store-admin/',
      '/api/store-members/',
      '/api/outbound-orders/',
      '/api/direct-purchase/catalog/',
    ])
      expect((await call('GET', url, member)).statusCode, url).toBe(401);
    for (const url of ['/api/member-orders/', '/api/member-catalog/', '/api/member-profile/'])
      expect((await call('GET', url, w.token)).statusCode, url).toBe(401);
    const employee = await ctx.newEmployee();
    expect((await call('GET', '/api/member-orders/', employee.token)).statusCode).toBe(401);
    expect((await call('GET', '/api/store-members/', employee.token)).statusCode).toBe(403);
  });

  it("keeps one seller's store, members and orders from another seller and its members", async () => {
    const other = await outboundWorld(ctx, { name: 'Second store seller' });
    const otherUrl = `two-${randomUUID().slice(0, 6)}`;
    await call('PUT', '/api/store-admin/', other.token, { name: 'Two', short_url: otherUrl, is_open: true });
    const mine = json(await call('GET', '/api/store-members/?page_size=100', w.token)).results;
    const victim = mine[0];
    expect(
      (
        await call('PUT', `/api/store-members/${victim.id}/`, other.token, {
          ...victim,
          id: undefined,
          email: undefined,
          created_at: undefined,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('POST', `/api/store-members/${victim.id}/reset-password/`, other.token)).statusCode).toBe(404);
    expect(json(await call('GET', '/api/store-members/', other.token)).count).toBe(0);
    expect(json(await call('GET', '/api/store-admin/orders/', other.token)).count).toBe(0);
    // Seller A's product is not in B's store; B's member cannot order it nor see A's orders.
    const m = await addMember(other.token, 'two@shop.tw');
    expect((await memberLogin(shortUrl, 'two@shop.tw', m.password)).statusCode).toBe(401);
    const token = json(await memberLogin(otherUrl, 'two@shop.tw', m.password)).access;
    expect(json(await call('GET', '/api/member-orders/', token)).count).toBe(0);
    expect(json(await call('GET', '/api/member-catalog/', token)).products).toEqual([]);
    const steal = await call('POST', '/api/member-orders/', token, {
      ...recipient,
      logistics_provider_id: other.carrier.id,
      lines: [{ product_id: w.plain.id, quantity: 1 }],
    });
    expect(json(steal).error.code).toBe('PRODUCT_ABNORMAL');
  });
});

function recipientProfile() {
  return {
    phone: recipient.recipient_phone,
    postcode: recipient.recipient_postcode,
    address: recipient.recipient_address,
  };
}
