import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalidInput } from '@wms/contracts/client';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api_settings, outbox_messages } from '../../../db/schema';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { startFakeWebhook, type TFakeWebhook } from '../../integrations/__tests__/fake-webhook';
import { verifyWebhookSignature } from '../../integrations/providers/webhook';
import { outboundWorld, type TWorld } from '../../outbound/__tests__/factories';

let ctx: TTestContext;
let w: TWorld;
beforeAll(async () => {
  // Receivers listen on 127.0.0.1: this operator allows private callback targets (the default refuses them).
  ctx = await createTestContext({ OUTGOING_ALLOW_PRIVATE: '1' });
  w = await outboundWorld(ctx);
  await w.put([{ productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 100 }]);
}, 60_000);
afterAll(() => ctx?.close());

const order = (n: string, extra: Record<string, unknown> = {}) => ({
  order_number: n,
  recipient_name: '王小明',
  recipient_mobile: '0912345678',
  recipient_postcode: '100',
  recipient_address: '台北市中正區重慶南路一段 122 號',
  lines: [{ sku: w.plain.number, quantity: 2 }],
  ...extra,
});

async function newPartner(token: string, body: Record<string, unknown> = {}) {
  const created = await ctx.api.apiSettingRoutes.createApiSetting({
    body: { name: `ERP ${Math.random()}`, kind: 'partner', ...body },
    token,
  });
  expect(created.statusCode, created.body).toBe(201);
  const enabled = await ctx.api.apiSettingRoutes.enableApiSetting({ params: { id: created.json().id }, token });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return enabled.json() as { setting: { id: string; key_prefix: string }; api_key: string; signing_secret: string };
}

/** Run callback deliveries now: their back-off (100 s doubling) is moved to now; the back-off itself is pg-boss'. */
async function deliverUntil(done: () => boolean | Promise<boolean>, rounds = 150) {
  for (let i = 0; i < rounds && !(await done()); i++) {
    await ctx.deps.database.db.execute(
      sql`update pgboss.job set start_after = now() where name like 'outbox.deliver%' and state = 'retry'`,
    );
    ctx.deps.jobs.kick();
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('partner API keys', () => {
  it('shows the key once, keeps only its hash, revokes it at once and issues a new one on re-enabling', async () => {
    const issued = await newPartner(w.token);
    expect(issued.api_key).toMatch(/^wms_[A-Za-z0-9_-]{40}$/);
    expect(issued.signing_secret).toMatch(/^whsec_/);
    const [row] = await ctx.deps.database.db.select().from(api_settings).where(eq(api_settings.id, issued.setting.id));
    expect(JSON.stringify(row)).not.toContain(issued.api_key);
    expect(JSON.stringify(row)).not.toContain(issued.signing_secret);
    const shown = await ctx.api.apiSettingRoutes.getApiSetting({ params: { id: issued.setting.id }, token: w.token });
    expect(shown.body).not.toContain(issued.api_key);
    expect(shown.json().key_prefix).toBe(issued.api_key.slice(0, 10));

    expect((await ctx.api.partnerApiRoutes.apiListProducts({ apiKey: issued.api_key })).statusCode).toBe(200);
    const again = await ctx.api.apiSettingRoutes.enableApiSetting({
      params: { id: issued.setting.id },
      token: w.token,
    });
    expect(again.error().code).toBe('API_ALREADY_ENABLED');

    await ctx.api.apiSettingRoutes.disableApiSetting({ params: { id: issued.setting.id }, token: w.token });
    const revoked = await ctx.api.partnerApiRoutes.apiListProducts({ apiKey: issued.api_key });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.error().code).toBe('API_KEY_INVALID');
    const renewed = await ctx.api.apiSettingRoutes.enableApiSetting({
      params: { id: issued.setting.id },
      token: w.token,
    });
    const newKey = renewed.json().api_key as string;
    expect(newKey).not.toBe(issued.api_key);
    expect((await ctx.api.partnerApiRoutes.apiListProducts({ apiKey: newKey })).statusCode).toBe(200);
    expect((await ctx.api.partnerApiRoutes.apiListProducts({ apiKey: issued.api_key })).statusCode).toBe(401);
    // A web token is not a key, and a key is not a web token.
    expect((await ctx.api.partnerApiRoutes.apiListProducts({ token: w.token })).statusCode).toBe(401);
    expect((await ctx.api.outboundRoutes.listOrders({ token: newKey })).statusCode).toBe(401);
  });

  it('creates orders with the import’s rules, idempotent by order number and Idempotency-Key; reads and cancels them', async () => {
    const { api_key: key } = await newPartner(w.token);
    const created = await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('ERP-1001'), apiKey: key });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      platform_order_number: 'ERP-1001',
      status: 'pending_export',
      line_count: 1,
    });
    const again = await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('ERP-1001'), apiKey: key });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(created.json().id);

    // A SKU is a product number or a barcode, matched as the import matches codes (case and spaces ignored).
    const byBarcode = await ctx.api.partnerApiRoutes.apiCreateOrder({
      body: order('ERP-1009', { lines: [{ sku: ` ${w.plain.barcode!.toLowerCase()} `, quantity: 1 }] }),
      apiKey: key,
    });
    expect(byBarcode.statusCode, byBarcode.body).toBe(201);
    expect(byBarcode.json().lines[0]!.product_id).toBe(w.plain.id);

    const k = { 'idempotency-key': 'req-42' };
    const first = await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('ERP-1002'), apiKey: key, headers: k });
    const replay = await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('ERP-1002'), apiKey: key, headers: k });
    expect([first.statusCode, replay.statusCode]).toEqual([201, 200]);
    expect(replay.json().id).toBe(first.json().id);
    const reused = await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('ERP-1003'), apiKey: key, headers: k });
    expect(reused.statusCode).toBe(422);
    expect(reused.error().code).toBe('IDEMPOTENCY_KEY_REUSED');

    // The import's rules and errors: an unknown SKU is refused with its row, nothing is written.
    const bad = await ctx.api.partnerApiRoutes.apiCreateOrder({
      body: order('ERP-1004', { lines: [{ sku: 'NOPE', quantity: 1 }] }),
      apiKey: key,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.error().code).toBe('IMPORT_REJECTED');
    expect(bad.body).toContain('PRODUCT_ABNORMAL');
    expect((await ctx.api.partnerApiRoutes.apiGetOrder({ params: { code: 'ERP-1004' }, apiKey: key })).statusCode).toBe(
      404,
    );

    const got = await ctx.api.partnerApiRoutes.apiGetOrder({ params: { code: 'ERP-1001' }, apiKey: key });
    expect(got.json()).toMatchObject({
      number: created.json().number,
      status: 'pending_export',
      consignment_number: null,
    });
    const cancelled = await ctx.api.partnerApiRoutes.apiCancelOrder({ params: { code: 'ERP-1001' }, apiKey: key });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');

    const stock = await ctx.api.partnerApiRoutes.apiStock({ query: { sku: w.plain.number }, apiKey: key });
    expect(stock.statusCode, stock.body).toBe(200);
    expect(stock.json().results[0]).toMatchObject({ product_number: w.plain.number });

    const receipt = await ctx.api.partnerApiRoutes.apiCreateInbound({
      body: { planned_date: '2026-12-01', lines: [{ sku: w.plain.number, quantity: 30 }] },
      apiKey: key,
      headers: { 'idempotency-key': 'in-1' },
    });
    expect(receipt.statusCode, receipt.body).toBe(201);
    const receiptAgain = await ctx.api.partnerApiRoutes.apiCreateInbound({
      body: { planned_date: '2026-12-01', lines: [{ sku: w.plain.number, quantity: 30 }] },
      apiKey: key,
      headers: { 'idempotency-key': 'in-1' },
    });
    expect(receiptAgain.statusCode).toBe(200);
    expect(receiptAgain.json().id).toBe(receipt.json().id);
  });

  it('a key does what its scope allows: read < orders < full, refused with 403 API_SCOPE_DENIED, editable', async () => {
    const inbound = { planned_date: '2026-12-01', lines: [{ sku: w.plain.number, quantity: 1 }] };
    const read = await newPartner(w.token, { scope: 'read' });
    expect(read.setting).toMatchObject({ scope: 'read' });
    expect((await ctx.api.partnerApiRoutes.apiListProducts({ apiKey: read.api_key })).statusCode).toBe(200);
    expect(
      (await ctx.api.partnerApiRoutes.apiStock({ query: { sku: w.plain.number }, apiKey: read.api_key })).statusCode,
    ).toBe(200);
    const refused = await ctx.api.partnerApiRoutes.apiCreateOrder({
      body: order('SCOPE-R-1'),
      apiKey: read.api_key,
      lang: 'en',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.error()).toMatchObject({ code: 'API_SCOPE_DENIED', params: { scope: 'orders' } });
    expect(refused.error().message).toContain('orders');
    expect(
      (await ctx.api.partnerApiRoutes.apiGetOrder({ params: { code: 'SCOPE-R-1' }, apiKey: read.api_key })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.api.partnerApiRoutes.apiCreateInbound({ body: inbound, apiKey: read.api_key })).error().code,
    ).toBe('API_SCOPE_DENIED');

    const orders = await newPartner(w.token, { scope: 'orders' });
    expect(
      (await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('SCOPE-O-1'), apiKey: orders.api_key })).statusCode,
    ).toBe(201);
    expect(
      (await ctx.api.partnerApiRoutes.apiCancelOrder({ params: { code: 'SCOPE-O-1' }, apiKey: orders.api_key }))
        .statusCode,
    ).toBe(200);
    const noInbound = await ctx.api.partnerApiRoutes.apiCreateInbound({ body: inbound, apiKey: orders.api_key });
    expect(noInbound.error()).toMatchObject({ code: 'API_SCOPE_DENIED', params: { scope: 'full' } });

    // The seller widens the read key: it takes effect at the next call, the key stays the same.
    const widened = await ctx.api.apiSettingRoutes.updateApiSetting({
      params: { id: read.setting.id },
      body: { scope: 'full' },
      token: w.token,
    });
    expect(widened.statusCode, widened.body).toBe(200);
    expect(widened.json().scope).toBe('full');
    expect((await ctx.api.partnerApiRoutes.apiCreateInbound({ body: inbound, apiKey: read.api_key })).statusCode).toBe(
      201,
    );
    // A key made without a scope is full (as every key made before scopes).
    expect((await newPartner(w.token)).setting).toMatchObject({ scope: 'full' });
    const bad = await ctx.api.apiSettingRoutes.updateApiSetting({
      params: { id: read.setting.id },
      body: invalidInput({ scope: 'admin' }),
      token: w.token,
    });
    expect(bad.statusCode).toBe(400);
  });

  it("never reaches another seller's data with its key", async () => {
    const other = await outboundWorld(ctx, { name: 'Other seller' });
    const { api_key: mine } = await newPartner(w.token);
    const { api_key: theirs } = await newPartner(other.token);
    await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('SECRET-1'), apiKey: mine });
    expect(
      (await ctx.api.partnerApiRoutes.apiGetOrder({ params: { code: 'SECRET-1' }, apiKey: theirs })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.api.partnerApiRoutes.apiCancelOrder({ params: { code: 'SECRET-1' }, apiKey: theirs })).statusCode,
    ).toBe(404);
    const products = await ctx.api.partnerApiRoutes.apiListProducts({ query: { page_size: '100' }, apiKey: theirs });
    expect(products.body).not.toContain(w.plain.number);
    // Their key cannot use my SKUs either.
    const refused = await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('X-1'), apiKey: theirs });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('PRODUCT_ABNORMAL');
  });

  it('is rate-limited per key: 429 with Retry-After beyond the limit, other keys unaffected', async () => {
    const slow = await newPartner(w.token, { rate_limit_per_minute: 3 });
    const other = await newPartner(w.token);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await ctx.api.partnerApiRoutes.apiListProducts({ apiKey: slow.api_key })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const limited = await ctx.api.partnerApiRoutes.apiListProducts({ apiKey: slow.api_key });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.error().code).toBe('RATE_LIMITED');
    expect((await ctx.api.partnerApiRoutes.apiListProducts({ apiKey: other.api_key })).statusCode).toBe(200);
  });
});

describe('order callbacks', () => {
  let hook: TFakeWebhook;
  afterAll(() => hook?.close());

  it('posts every status change and consignment number, signed, in order per order, through 5xx and a restart', async () => {
    const partner = await newPartner(w.token);
    hook = await startFakeWebhook(partner.signing_secret);
    const patch = await ctx.api.apiSettingRoutes.updateApiSetting({
      params: { id: partner.setting.id },
      body: {
        callback_url: hook.url,
        order_callback_enabled: true,
        http_headers: { 'x-erp-token': 'erp-secret-9' },
      },
      token: w.token,
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json().http_headers).toEqual({ 'x-erp-token': '••••••et-9' });

    // The receiver is down for the first two tries.
    hook.failNext(2, 500);
    const created = await ctx.api.partnerApiRoutes.apiCreateOrder({ body: order('CB-1'), apiKey: partner.api_key });
    const id = created.json().id as string;
    // The process's queue stops while the first callback is backing off, and starts again: nothing is lost…
    await deliverUntil(() => hook.requests.length >= 1);
    await ctx.deps.jobs.stop();
    const exported = await ctx.api.outboundRoutes.transitionOrder({
      params: { id },
      body: { action: 'export' },
      token: w.token,
    });
    expect(exported.statusCode, exported.body).toBe(200);
    // …the export happened while no process listened: the catch-up at start dispatches it.
    await ctx.deps.jobs.start();
    const consignment = await ctx.api.outboundRoutes.setConsignment({
      params: { id },
      body: { consignment_number: '900012345678' },
      token: w.token,
    });
    expect(consignment.statusCode, consignment.body).toBe(200);
    // The receiver has the three events before the server records the last answer: wait for both.
    const recorded = async () => {
      const listed = await ctx.api.apiSettingRoutes.listCallbackDeliveries({
        params: { id: partner.setting.id },
        token: w.token,
      });
      return listed.json().results.filter((d) => d.state !== 'pending').length >= 3;
    };
    await deliverUntil(async () => hook.processed.size >= 3 && (await recorded()));

    const events = [...hook.processed.values()] as Array<{
      type: string;
      data: { status: string; consignment_number: string | null };
    }>;
    // In order per order, though the first one failed twice before it was delivered.
    expect(events.map((e) => [e.type, e.data.status, e.data.consignment_number])).toEqual([
      ['order.created', 'pending_export', null],
      ['order.status_changed', 'exported', null],
      ['order.consignment_number', 'exported', '900012345678'],
    ]);
    expect(hook.requests.map((r) => r.status)).toEqual([500, 500, 200, 200, 200]);
    for (const r of hook.requests.filter((x) => x.status === 200)) {
      expect(verifyWebhookSignature(partner.signing_secret, r.body, String(r.headers['x-wms-signature']))).toBe(true);
      expect(r.headers['x-erp-token']).toBe('erp-secret-9');
    }

    // The screen's view: each delivery with its attempts, status code and latency; send again makes a new delivery.
    const list = await ctx.api.apiSettingRoutes.listCallbackDeliveries({
      params: { id: partner.setting.id },
      token: w.token,
    });
    expect(list.statusCode, list.body).toBe(200);
    const deliveries = list.json().results as Array<{
      id: string;
      event_type: string;
      attempts: number;
      state: string;
      last_status: number;
    }>;
    expect(deliveries.map((d) => [d.event_type, d.state, d.last_status])).toEqual([
      ['order.consignment_number', 'delivered', 200],
      ['order.status_changed', 'delivered', 200],
      ['order.created', 'delivered', 200],
    ]);
    expect(deliveries[2]!.attempts).toBe(3);
    const attempts = await ctx.api.integrationRoutes.listIntegrationAttempts({
      query: { reference: deliveries[2]!.id },
      token: w.token,
    });
    expect(attempts.json().results.map((a) => a.status)).toEqual([200, 500, 500]);
    expect(attempts.body).not.toContain('erp-secret-9');

    const resent = await ctx.api.apiSettingRoutes.resendCallback({
      params: { id: partner.setting.id, delivery_id: deliveries[2]!.id },
      token: w.token,
    });
    expect(resent.statusCode, resent.body).toBe(201);
    const test = await ctx.api.apiSettingRoutes.sendTestCallback({
      params: { id: partner.setting.id },
      token: w.token,
    });
    expect(test.statusCode, test.body).toBe(201);
    await deliverUntil(() => hook.processed.size >= 5);
    const bodies = hook.requests.slice(-2).map((r) => JSON.parse(r.body) as { id: string; type: string });
    expect(bodies.map((b) => b.type).sort()).toEqual(['order.created', 'ping']);
    // The resent event keeps its event id (a new delivery id).
    expect(bodies.find((b) => b.type === 'order.created')!.id).toBe((events[0] as unknown as { id: string }).id);
  }, 60_000);

  it('refuses a loopback callback URL unless the operator allows it', async () => {
    const strict = await createTestContext();
    try {
      const seller = await outboundWorld(strict);
      // Typed as a literal address: refused when saved, naming the field.
      for (const url of ['http://127.0.0.1:9/hook', 'http://localhost/hook', 'http://[::1]/x', 'http://10.1.2.3/x']) {
        const refused = await strict.api.apiSettingRoutes.createApiSetting({
          body: { name: 'Local', kind: 'partner', callback_url: url },
          token: seller.token,
        });
        expect(refused.statusCode, url).toBe(400);
        expect(refused.error()).toMatchObject({ code: 'TARGET_NOT_ALLOWED', params: { field: 'callback_url' } });
      }
      // A host name that resolves to loopback passes the form and is refused at the call (checked after DNS): as
      // if partner.example's DNS pointed at 127.0.0.1, the stored URL is made one.
      const res = await strict.api.apiSettingRoutes.createApiSetting({
        body: {
          name: 'Local',
          kind: 'partner',
          callback_url: 'https://partner.example/hook',
          order_callback_enabled: true,
        },
        token: seller.token,
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().id as string;
      await strict.deps.database.db
        .update(api_settings)
        .set({ callback_url: 'http://127.0.0.1:9/hook' })
        .where(eq(api_settings.id, id));
      await strict.api.apiSettingRoutes.enableApiSetting({ params: { id }, token: seller.token });
      await strict.api.apiSettingRoutes.sendTestCallback({ params: { id }, token: seller.token });
      await strict.deps.jobs.whenIdle();
      const [m] = await strict.deps.database.db
        .select()
        .from(outbox_messages)
        .where(sql`${outbox_messages.payload}->>'setting_id' = ${id}`);
      expect(m).toMatchObject({ state: 'failed' });
      expect(m!.last_error).toContain('TARGET_NOT_ALLOWED');
    } finally {
      await strict.close();
    }
  });

  it('authenticates callbacks with a connection’s bearer token, refreshed from its token URL', async () => {
    const tokens: string[] = [];
    const seen: Array<string | undefined> = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (req.url === '/oauth/token') {
          const form = new URLSearchParams(body);
          tokens.push(`${form.get('grant_type')}:${form.get('refresh_token')}`);
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ access_token: 'fresh-access-1', refresh_token: 'refresh-2', expires_in: 3600 }));
          return;
        }
        seen.push(req.headers.authorization);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const conn = await ctx.api.apiSettingRoutes.createApiSetting({
        body: {
          name: 'ERP connection',
          kind: 'connection',
          token_url: `${base}/oauth/token`,
          base_url: `${base}/health`,
          user_name: 'client-1',
          password: 'client-secret',
          refresh_token: 'refresh-1',
        },
        token: w.token,
      });
      expect(conn.statusCode, conn.body).toBe(201);
      expect(conn.json()).toMatchObject({ password: '••••••cret', refresh_token: '••••••sh-1' });
      const tested = await ctx.api.apiSettingRoutes.testApiConnection({
        params: { id: conn.json().id },
        token: w.token,
      });
      expect(tested.json()).toMatchObject({ ok: true, setting: { last_test_ok: true, access_token: '••••••ss-1' } });
      expect(tokens).toEqual(['refresh_token:refresh-1']);
      expect(seen).toEqual(['Bearer fresh-access-1']);

      const partner = await newPartner(w.token, {
        callback_url: `${base}/hook`,
        connection_id: conn.json().id,
        order_callback_enabled: true,
      });
      await ctx.api.apiSettingRoutes.sendTestCallback({ params: { id: partner.setting.id }, token: w.token });
      await deliverUntil(() => seen.length >= 2);
      expect(seen).toEqual(['Bearer fresh-access-1', 'Bearer fresh-access-1']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('a failed connection test is stored as a code the screen translates, never the system message', async () => {
    const w = await ctx.newCustomer();
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const cases: Array<[string, RegExp]> = [
      ['http://erp.invalid/health', /^dns:erp\.invalid$/],
      [`http://127.0.0.1:${port}/health`, /^refused:127\.0\.0\.1$/],
    ];
    for (const [base_url, expected] of cases) {
      const conn = await ctx.api.apiSettingRoutes.createApiSetting({
        body: { name: `ERP ${base_url}`, kind: 'connection', base_url },
        token: w.token,
      });
      expect(conn.statusCode, conn.body).toBe(201);
      const tested = await ctx.api.apiSettingRoutes.testApiConnection({
        params: { id: conn.json().id },
        token: w.token,
      });
      expect(tested.statusCode, tested.body).toBe(200);
      const body = tested.json() as { ok: boolean; message: string; setting: { last_test_message: string } };
      expect(body.ok).toBe(false);
      expect(body.message, base_url).toMatch(expected);
      expect(body.setting.last_test_message).toBe(body.message);
      expect(body.message).not.toMatch(/getaddrinfo|ENOTFOUND|ECONNREFUSED/);
    }
  });
});
