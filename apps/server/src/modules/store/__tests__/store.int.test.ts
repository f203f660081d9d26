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

async function memberLogin(corp: string, email: string, password: string) {
  return ctx.api.authRoutes.memberLogin({ body: { corp, email, password } });
}

/** Create a member through /store-member and read the mailed password. */
async function addMember(token: string, email: string, extra: object = {}) {
  const before = ctx.outbox().length;
  const res = await ctx.api.storeRoutes.createStoreMember({
    body: { name: `Member ${email}`, email, ...extra },
    token,
  });
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
    expect(json(await ctx.api.storeRoutes.getStoreAdmin({ token: w.token }))).toEqual({ store: null });
    const check = (v: string) => ctx.api.storeRoutes.checkShortUrl({ query: { short_url: v }, token: w.token });
    expect(json(await check('a'))).toEqual({ valid: false, available: false });
    expect(json(await check('-bad-'))).toEqual({ valid: false, available: false });
    expect(json(await check(shortUrl))).toEqual({ valid: true, available: true });

    const created = await ctx.api.storeRoutes.saveStore({
      body: {
        name: '好物小舖',
        short_url: shortUrl.toUpperCase(),
        description: '會員專屬',
      },
      token: w.token,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(json(created)).toMatchObject({ name: '好物小舖', short_url: shortUrl, is_open: false, logo: '' });

    // Another seller cannot take it; its own check says so.
    const other = await ctx.newCustomer({ name: 'Other seller' });
    expect(
      json(await ctx.api.storeRoutes.checkShortUrl({ query: { short_url: shortUrl }, token: other.token })),
    ).toEqual({
      valid: true,
      available: false,
    });
    const taken = await ctx.api.storeRoutes.saveStore({ body: { name: 'x', short_url: shortUrl }, token: other.token });
    expect(taken.statusCode).toBe(409);
    expect(json(taken).error).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'short_url' } });
    // The owner's own URL stays available to the owner.
    expect(json(await check(shortUrl)).available).toBe(true);

    const bad = await ctx.api.storeRoutes.saveStore({ body: { name: 'x', short_url: 'no spaces' }, token: w.token });
    expect(bad.statusCode).toBe(400);
    const badLogo = await ctx.api.storeRoutes.saveStore({
      body: {
        name: 'x',
        short_url: shortUrl,
        logo: 'javascript:alert(1)',
      },
      token: w.token,
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
      const fake = await ctx.api.storeRoutes.saveStore({
        body: {
          name: 'x',
          short_url: shortUrl,
          logo: `data:image/${type};base64,${Buffer.from(content, 'latin1').toString('base64')}`,
        },
        token: w.token,
      });
      expect(fake.statusCode, content).toBe(400);
      expect(json(fake).error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'logo' } });
    }
    expect(json(await ctx.api.storeRoutes.getStoreAdmin({ token: w.token })).store.logo).toBe('');

    // A real 1×1 PNG.
    const logo =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const opened = await ctx.api.storeRoutes.saveStore({
      body: {
        name: '好物小舖',
        short_url: shortUrl,
        is_open: true,
        logo,
      },
      token: w.token,
    });
    expect(json(opened)).toMatchObject({ is_open: true, description: '會員專屬', logo });
    expect(json(await ctx.api.storeRoutes.getStoreAdmin({ token: w.token })).store).toMatchObject({
      id: json(created).id,
    });
    const audits = await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.entity, 'store'));
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['create', 'update']));
  });

  it('lists a product with its selling price and shows its sellable stock', async () => {
    const noPrice = await ctx.api.storeRoutes.updateStoreProduct({
      params: { id: w.plain.id },
      body: {
        online_listing: true,
        selling_price: null,
      },
      token: w.token,
    });
    expect(json(noPrice).error).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'selling_price' } });
    const listed = await ctx.api.storeRoutes.updateStoreProduct({
      params: { id: w.plain.id },
      body: {
        online_listing: true,
        selling_price: '199.5',
      },
      token: w.token,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(json(listed)).toMatchObject({
      online_listing: true,
      selling_price: '199.50',
      available: 7,
      orderable: true,
    });
    await ctx.api.storeRoutes.updateStoreProduct({
      params: { id: w.kit.id },
      body: {
        online_listing: true,
        selling_price: '500',
      },
      token: w.token,
    });
    const page = json(await ctx.api.storeRoutes.listStoreProducts({ query: { listed: 'true' }, token: w.token }));
    expect(page.results.map((p: { id: string }) => p.id).sort()).toEqual([w.plain.id, w.kit.id].sort());
    const missing = await ctx.api.storeRoutes.updateStoreProduct({
      params: { id: randomUUID() },
      body: {
        online_listing: true,
        selling_price: '1',
      },
      token: w.token,
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('/store-member and member login', () => {
  it('refuses members before the store exists', async () => {
    const lonely = await ctx.newCustomer({ name: 'No store yet' });
    const res = await ctx.api.storeRoutes.createStoreMember({
      body: { name: 'a', email: 'a@x.tw' },
      token: lonely.token,
    });
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
    const dup = await ctx.api.storeRoutes.createStoreMember({
      body: { name: 'again', email: 'buyer@shop.tw' },
      token: w.token,
    });
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
    const list = json(await ctx.api.storeRoutes.listStoreMembers({ query: { search: 'buyer' }, token: w.token }));
    expect(list.count).toBe(1);
    const xlsx = await ctx.api.storeRoutes.exportStoreMembers({ token: w.token });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');

    // Deactivate: the access token stops working on every member call, the refresh token is revoked, login fails.
    const off = await ctx.api.storeRoutes.updateStoreMember({
      params: { id: member.id },
      body: {
        name: member.name,
        phone: member.phone,
        postcode: member.postcode,
        address: member.address,
        is_active: false,
      },
      token: w.token,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await ctx.api.authRoutes.memberProfile({ token: access })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await ctx.api.storeRoutes.listMemberOrders({ token: access })).statusCode).toBe(401);
    expect((await ctx.api.authRoutes.memberRefresh({ body: { refresh } })).statusCode).toBe(401);
    expect((await memberLogin(shortUrl, 'buyer@shop.tw', password)).statusCode).toBe(401);

    // Active again, and a reset mails a new password: the old one no longer works.
    await ctx.api.storeRoutes.updateStoreMember({
      params: { id: member.id },
      body: {
        ...member,
        id: undefined,
        email: undefined,
        created_at: undefined,
        is_active: true,
      },
      token: w.token,
    });
    const before = ctx.outbox().length;
    const reset = await ctx.api.storeRoutes.resetStoreMemberPassword({ params: { id: member.id }, token: w.token });
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
    const upd = await ctx.api.storeRoutes.updateMemberProfile({
      body: {
        name: '陳小華',
        phone: '0223456789',
        postcode: '106',
        address: '台北市大安區',
      },
      token: access,
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(json(upd)).toMatchObject({ name: '陳小華', postcode: '106' });
    expect(json(await ctx.api.authRoutes.memberProfile({ token: access }))).toMatchObject({ address: '台北市大安區' });

    const wrong = await ctx.api.storeRoutes.changeMemberPassword({
      body: {
        old_password: 'nope',
        new_password: 'new-pass-1',
      },
      token: access,
    });
    expect(json(wrong).error.code).toBe('WRONG_PASSWORD');
    const short = await ctx.api.storeRoutes.changeMemberPassword({
      body: { old_password: password, new_password: 'abc' },
      token: access,
    });
    expect(short.statusCode).toBe(400);
    const ok = await ctx.api.storeRoutes.changeMemberPassword({
      body: {
        old_password: password,
        new_password: 'new-pass-1',
      },
      token: access,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await ctx.api.authRoutes.memberRefresh({ body: { refresh } })).statusCode).toBe(401);
    expect((await memberLogin(shortUrl, 'profile@shop.tw', 'new-pass-1')).statusCode).toBe(200);
  });
});

describe('direct purchase', () => {
  it('a member orders listed products: a pending outbound order of channel store, seen only by that member', async () => {
    const a = await addMember(w.token, 'order-a@shop.tw', recipientProfile());
    const b = await addMember(w.token, 'order-b@shop.tw');
    const tokenA = json(await memberLogin(shortUrl, 'order-a@shop.tw', a.password)).access;
    const tokenB = json(await memberLogin(shortUrl, 'order-b@shop.tw', b.password)).access;

    const catalog = json(await ctx.api.storeRoutes.memberCatalog({ token: tokenA }));
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
    const res = await ctx.api.storeRoutes.memberPurchase({ body: order, token: tokenA });
    expect(res.statusCode, res.body).toBe(201);
    const placed = json(res);
    expect(placed.total_amount).toBe('899.00');

    const detail = json(await ctx.api.outboundRoutes.getOrder({ params: { id: placed.id }, token: w.token }));
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

    const mine = json(await ctx.api.storeRoutes.listMemberOrders({ token: tokenA }));
    expect(mine.count).toBe(1);
    expect(mine.results[0]).toMatchObject({
      number: placed.number,
      status: 'pending_export',
      consignment_number: null,
    });
    expect(mine.results[0].lines).toHaveLength(2);
    expect(json(await ctx.api.storeRoutes.listMemberOrders({ token: tokenB })).count).toBe(0);

    // The seller sees it with the member; once it has a consignment number the member sees it and a tracking link.
    const admin = json(await ctx.api.storeRoutes.listStoreOrders({ token: w.token }));
    expect(admin.results.find((o: { id: string }) => o.id === placed.id)).toMatchObject({
      member_email: 'order-a@shop.tw',
    });
    const set = await ctx.api.outboundRoutes.setConsignment({
      params: { id: placed.id },
      body: {
        consignment_number: '9001234567',
        piece_count: 1,
      },
      token: w.token,
    });
    expect(set.statusCode, set.body).toBeLessThan(300);
    const after = json(await ctx.api.storeRoutes.listMemberOrders({ token: tokenA })).results[0];
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
    const unlisted = await ctx.api.storeRoutes.memberPurchase({
      body: {
        ...base,
        lines: [{ product_id: w.fresh.id, quantity: 1 }],
      },
      token,
    });
    expect(json(unlisted).error.code).toBe('PRODUCT_ABNORMAL');
    const other = await outboundWorld(ctx, { name: 'Carrier owner' });
    const foreign = await ctx.api.storeRoutes.memberPurchase({
      body: {
        ...base,
        logistics_provider_id: other.carrier.id,
      },
      token,
    });
    expect(json(foreign).error.code).toBe('PATHWAY_ABNORMAL');
    const [inactive] = await ctx.deps.database.db
      .insert(logistics_providers)
      .values({ customer_id: w.customerId, code: 'OFF', name: 'off', is_active: false })
      .returning();
    expect(
      json(await ctx.api.storeRoutes.memberPurchase({ body: { ...base, logistics_provider_id: inactive!.id }, token }))
        .error.code,
    ).toBe('PATHWAY_ABNORMAL');
    const badPhone = await ctx.api.storeRoutes.memberPurchase({ body: { ...base, recipient_phone: '12' }, token });
    expect(badPhone.statusCode).toBe(400);
    expect(json(badPhone).error.params.field).toBe('recipient_phone');
    const dupLine = await ctx.api.storeRoutes.memberPurchase({
      body: {
        ...base,
        lines: [
          { product_id: w.plain.id, quantity: 1 },
          { product_id: w.plain.id, quantity: 1 },
        ],
      },
      token,
    });
    expect(dupLine.statusCode).toBe(409);
    const zero = await ctx.api.storeRoutes.memberPurchase({
      body: {
        ...base,
        lines: [{ product_id: w.plain.id, quantity: 0 }],
      },
      token,
    });
    expect(zero.statusCode).toBe(400);

    await ctx.api.storeRoutes.saveStore({
      body: { name: '好物小舖', short_url: shortUrl, is_open: false },
      token: w.token,
    });
    const closed = await ctx.api.storeRoutes.memberPurchase({ body: base, token });
    expect(json(closed).error.code).toBe('STORE_CLOSED');
    // A closed store no longer shows its catalogue (products, prices, stock, carriers) to members.
    const closedCatalog = json(await ctx.api.storeRoutes.memberCatalog({ token }));
    expect(closedCatalog.store).toMatchObject({ short_url: shortUrl, is_open: false });
    expect(closedCatalog.products).toEqual([]);
    expect(closedCatalog.providers).toEqual([]);
    // The seller still orders from its own store (the main area's direct-purchase menu).
    const seller = await ctx.api.storeRoutes.sellerPurchase({ body: base, token: w.token });
    expect(seller.statusCode, seller.body).toBe(201);
    const admin = json(await ctx.api.storeRoutes.listStoreOrders({ token: w.token }));
    expect(admin.results.find((o: { id: string }) => o.id === json(seller).id)).toMatchObject({ member_name: null });
    expect(json(await ctx.api.storeRoutes.sellerCatalog({ token: w.token })).products.length).toBe(2);
    await ctx.api.storeRoutes.saveStore({
      body: { name: '好物小舖', short_url: shortUrl, is_open: true },
      token: w.token,
    });
  });
});

describe('tokens and tenants', () => {
  it('refuses member tokens on seller routes and seller tokens on member routes', async () => {
    const m = await addMember(w.token, 'cross@shop.tw');
    const member = json(await memberLogin(shortUrl, 'cross@shop.tw', m.password)).access;
    const sellerReads = {
      getStoreAdmin: ctx.api.storeRoutes.getStoreAdmin,
      listStoreMembers: ctx.api.storeRoutes.listStoreMembers,
      listOrders: ctx.api.outboundRoutes.listOrders,
      sellerCatalog: ctx.api.storeRoutes.sellerCatalog,
    };
    for (const [name, read] of Object.entries(sellerReads))
      expect((await read({ token: member })).statusCode, name).toBe(401);
    const memberReads = {
      listMemberOrders: ctx.api.storeRoutes.listMemberOrders,
      memberCatalog: ctx.api.storeRoutes.memberCatalog,
      memberProfile: ctx.api.authRoutes.memberProfile,
    };
    for (const [name, read] of Object.entries(memberReads))
      expect((await read({ token: w.token })).statusCode, name).toBe(401);
    const employee = await ctx.newEmployee();
    expect((await ctx.api.storeRoutes.listMemberOrders({ token: employee.token })).statusCode).toBe(401);
    expect((await ctx.api.storeRoutes.listStoreMembers({ token: employee.token })).statusCode).toBe(403);
  });

  it("keeps one seller's store, members and orders from another seller and its members", async () => {
    const other = await outboundWorld(ctx, { name: 'Second store seller' });
    const otherUrl = `two-${randomUUID().slice(0, 6)}`;
    await ctx.api.storeRoutes.saveStore({
      body: { name: 'Two', short_url: otherUrl, is_open: true },
      token: other.token,
    });
    const mine = json(
      await ctx.api.storeRoutes.listStoreMembers({ query: { page_size: '100' }, token: w.token }),
    ).results;
    const victim = mine[0];
    expect(
      (
        await ctx.api.storeRoutes.updateStoreMember({
          params: { id: victim.id },
          body: {
            ...victim,
            id: undefined,
            email: undefined,
            created_at: undefined,
          },
          token: other.token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await ctx.api.storeRoutes.resetStoreMemberPassword({ params: { id: victim.id }, token: other.token }))
        .statusCode,
    ).toBe(404);
    expect(json(await ctx.api.storeRoutes.listStoreMembers({ token: other.token })).count).toBe(0);
    expect(json(await ctx.api.storeRoutes.listStoreOrders({ token: other.token })).count).toBe(0);
    // Seller A's product is not in B's store; B's member cannot order it nor see A's orders.
    const m = await addMember(other.token, 'two@shop.tw');
    expect((await memberLogin(shortUrl, 'two@shop.tw', m.password)).statusCode).toBe(401);
    const token = json(await memberLogin(otherUrl, 'two@shop.tw', m.password)).access;
    expect(json(await ctx.api.storeRoutes.listMemberOrders({ token })).count).toBe(0);
    expect(json(await ctx.api.storeRoutes.memberCatalog({ token })).products).toEqual([]);
    const steal = await ctx.api.storeRoutes.memberPurchase({
      body: {
        ...recipient,
        logistics_provider_id: other.carrier.id,
        lines: [{ product_id: w.plain.id, quantity: 1 }],
      },
      token,
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
