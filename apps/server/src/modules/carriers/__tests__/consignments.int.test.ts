import { carrierRoutes } from '@wms/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, carrier_labels, integration_attempts } from '../../../db/schema';
import { startFakeEcpay, type TFakeEcpay } from '../../../test/fakes/fake-ecpay';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { createOrder, outboundWorld } from '../../outbound/__tests__/factories';
import { ecpayCheckMacValue } from '../providers/ecpay';
import { carrierApi, postForm, SENDER } from './api';

let ctx: TTestContext;
let fake: TFakeEcpay;
beforeAll(async () => {
  fake = await startFakeEcpay();
  ctx = await createTestContext({ ECPAY_LOGISTICS_URL: fake.url });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe(`get consignment numbers from the carrier (${TEST_ENGINE})`, () => {
  it('calls ECPay for orders of an ECPay provider, stores each number with an audit row, reports every order', async () => {
    const w = await outboundWorld(ctx);
    const other = await outboundWorld(ctx, { name: 'Other seller' });
    const { provider, order: mk } = carrierApi(ctx, w);
    const ecpay = await provider({
      code: 'ECPAY',
      name: '綠界宅配',
      merchant_id: fake.merchantId,
      hash_key: fake.hashKey,
      hash_iv: fake.hashIv,
      carrier_type: 'ecpay' as const,
      ...SENDER,
    });
    const wrongKey = await provider({
      code: 'ECPAY-OLD',
      name: '綠界（舊金鑰）',
      merchant_id: fake.merchantId,
      hash_key: 'wrong-hash-key!!',
      hash_iv: fake.hashIv,
      carrier_type: 'ecpay' as const,
      ...SENDER,
    });
    const unset = await provider({ code: 'ECPAY-NEW', name: '綠界（未設定）', carrier_type: 'ecpay' });
    const tcat = await provider({ code: 'TCAT-API', name: '黑貓 API', carrier_type: 'tcat' });
    const a = await mk(ecpay.id);
    // ECPay home delivery collects no cash (its SDK refuses IsCollection=Y on HOME): refused before ECPay is asked.
    const codHome = await mk(ecpay.id, { cod: true, cod_amount: '450.00' });
    const b = await mk(ecpay.id);
    const had = await mk(ecpay.id);
    await ctx.api.outboundRoutes.setConsignment({
      params: { id: had.id },
      body: { consignment_number: 'TYPED-1' },
      token: w.token,
    });
    const plain = await mk(w.carrier.id);
    const refused = await mk(wrongKey.id);
    const notSet = await mk(unset.id);
    const tc = await mk(tcat.id);
    const foreign = await createOrder(ctx, other.token, [{ product_id: other.plain.id, quantity: 1 }]);

    fake.failNext(1); // the first call meets a 503: retried by the outgoing client
    const before = fake.created.length;
    const res = await ctx.api.carrierRoutes.fetchConsignments({
      body: { order_ids: [a.id, b.id, had.id, plain.id, refused.id, notSet.id, tc.id, foreign.id, codHome.id] },
      token: w.token,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    type TOut = { order_id: string; outcome: string; consignment_number: string | null; code: string | null };
    const out: Record<string, TOut> = Object.fromEntries((res.json().results as TOut[]).map((r) => [r.order_id, r]));
    expect(out[a.id]).toMatchObject({ outcome: 'created', code: null });
    expect(out[b.id]).toMatchObject({ outcome: 'created' });
    expect(out[a.id]!.consignment_number).toMatch(/^90\d+23$/);
    expect(out[had.id]).toMatchObject({ outcome: 'already', consignment_number: 'TYPED-1' });
    expect(out[plain.id]).toMatchObject({ outcome: 'no_carrier', consignment_number: null });
    expect(out[refused.id]).toMatchObject({
      outcome: 'failed',
      code: 'CARRIER_REFUSED',
      message: 'The carrier refused the consignment: CheckMacValue Error',
    });
    expect(out[notSet.id]).toMatchObject({ outcome: 'failed', code: 'CARRIER_NOT_CONFIGURED' });
    // T-cat is supported now (tcat.int.test.ts); this provider has no customer id / token.
    expect(out[tc.id]).toMatchObject({ outcome: 'failed', code: 'CARRIER_NOT_CONFIGURED' });
    expect(out[foreign.id]).toMatchObject({ outcome: 'failed', code: 'NOT_FOUND' });
    expect(out[codHome.id]).toMatchObject({
      outcome: 'failed',
      code: 'CARRIER_COD_NOT_SUPPORTED',
      message:
        'ECPay home delivery does not collect cash on delivery: use store pickup with payment or T-cat, or clear the order’s COD',
    });
    // Only the two orders of the working provider reached ECPay's books, neither collecting.
    expect(fake.created.length - before).toBe(2);
    expect(fake.created.at(-2)).toMatchObject({ IsCollection: 'N', ReceiverName: '王小明' });
    expect(fake.created.at(-2)!.CollectionAmount).toBeUndefined();

    const get = async (id: string, token = w.token) =>
      (await ctx.api.outboundRoutes.getOrder({ params: { id }, token })).json();
    expect((await get(a.id)).consignment_number).toBe(out[a.id]!.consignment_number);
    expect((await get(b.id)).consignment_number).toBe(out[b.id]!.consignment_number);
    expect((await get(had.id)).consignment_number).toBe('TYPED-1');
    expect((await get(refused.id)).consignment_number).toBeNull();
    expect((await get(foreign.id, other.token)).consignment_number).toBeNull();

    const db = ctx.deps.database.db;
    const audits = await db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.action, 'set_consignment'), inArray(audit_logs.entity_id, [a.id, b.id])));
    expect(audits).toHaveLength(2);
    expect(audits[0]!.after).toMatchObject({ source: { carrier: 'ecpay' } });
    const attempts = await db
      .select()
      .from(integration_attempts)
      .where(and(eq(integration_attempts.provider, 'ecpay'), eq(integration_attempts.reference, a.id)));
    expect(attempts.map((x) => x.status)).toEqual([503, 200]);
    expect(JSON.stringify(attempts)).not.toContain(fake.hashKey);
    const refusedAttempts = await db
      .select()
      .from(integration_attempts)
      .where(eq(integration_attempts.reference, refused.id));
    expect(refusedAttempts).toHaveLength(1);

    // Again: the orders that got a number are skipped (no second consignment at the carrier).
    const again = await ctx.api.carrierRoutes.fetchConsignments({ body: { order_ids: [a.id, b.id] }, token: w.token });
    expect(again.json().results.map((r: { outcome: string }) => r.outcome)).toEqual(['already', 'already']);
    expect(fake.created.length - before).toBe(2);

    // ECPay reports the parcel's progress: it lands in the order's tracking history, once however often resent.
    const note = out[a.id]!.consignment_number!;
    const notice: Record<string, string> = {
      MerchantID: fake.merchantId,
      MerchantTradeNo: a.number,
      RtnCode: '3024',
      RtnMsg: '貨件已至物流中心',
      AllPayLogisticsID: fake.created.at(-2)!.MerchantTradeNo!,
      BookingNote: note,
      UpdateStatusDate: '2026/11/24 17:10:00',
    };
    notice.CheckMacValue = ecpayCheckMacValue(notice, fake.hashKey, fake.hashIv);
    for (let i = 0; i < 2; i++) {
      const r = await postForm(ctx, carrierRoutes.ecpayLogisticsNotify, notice);
      expect(r.body).toBe('1|OK');
    }
    const events = await ctx.api.carrierRoutes.orderCarrierEvents({ params: { id: a.id }, token: w.token });
    expect(events.statusCode, events.body).toBe(200);
    expect(events.json().results).toEqual([
      expect.objectContaining({
        carrier: 'ecpay',
        status_code: '3024',
        status_text: '貨件已至物流中心',
        booking_note: note,
      }),
    ]);
    const foreignView = await ctx.api.carrierRoutes.orderCarrierEvents({ params: { id: a.id }, token: other.token });
    expect(foreignView.statusCode).toBe(404);
  });

  it('reports an unreachable carrier per order and leaves the order without a number', async () => {
    const w = await outboundWorld(ctx);
    const p = (
      await ctx.api.partnerRoutes.createLogisticsProvider({
        body: {
          code: 'ECPAY',
          name: '綠界',
          merchant_id: fake.merchantId,
          hash_key: fake.hashKey,
          hash_iv: fake.hashIv,
          carrier_type: 'ecpay' as const,
          ...SENDER,
        },
        token: w.token,
      })
    ).json();
    const o = await createOrder(ctx, w.token, [{ product_id: w.plain.id, quantity: 1 }], {
      logistics_provider_id: p.id,
    });
    fake.failNext(50);
    const res = await ctx.api.carrierRoutes.fetchConsignments({ body: { order_ids: [o.id] }, token: w.token });
    fake.failNext(-50);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results[0]).toMatchObject({
      outcome: 'failed',
      code: 'CARRIER_UNAVAILABLE',
      message: '物流商暫時無法連線，請稍後再試',
    });
    const d = (await ctx.api.outboundRoutes.getOrder({ params: { id: o.id }, token: w.token })).json();
    expect(d.consignment_number).toBeNull();
  });

  it("ECPay labels: signed print forms per provider that ECPay's page accepts; the PDF route names them apart", async () => {
    // Order numbers repeat across sellers and all share the fake's merchant: its book of trade numbers starts afresh.
    fake.created.length = 0;
    const w = await outboundWorld(ctx);
    const other = await outboundWorld(ctx, { name: 'Other seller' });
    const { provider, order: mk, consignments } = carrierApi(ctx, w);
    const keys = {
      merchant_id: fake.merchantId,
      hash_key: fake.hashKey,
      hash_iv: fake.hashIv,
      carrier_type: 'ecpay' as const,
      ...SENDER,
    };
    const home = await provider({ code: 'ECPAY-L', name: '綠界宅配', ...keys });
    const cold = await provider({ code: 'ECPAY-C', name: '綠界低溫', ...keys });
    const plain = await mk(w.carrier.id);
    const a = await mk(home.id, { recipient_name: '王小明' });
    const b = await mk(home.id, { recipient_name: '陳大文' });
    const c = await mk(cold.id, { recipient_name: '林美麗' });
    const retyped = await mk(home.id);
    const otherApi = carrierApi(ctx, other);
    const otherProvider = await otherApi.provider({ code: 'ECPAY', name: '綠界', ...keys });
    const foreign = await otherApi.order(otherProvider.id);
    const foreignMade = (await otherApi.consignments([foreign.id])).json().results[0]!;
    expect(foreignMade.outcome, JSON.stringify(foreignMade)).toBe('created');

    const res = await consignments([a.id, b.id, c.id, retyped.id]);
    type TOut = { order_id: string; outcome: string; consignment_number: string; label: boolean };
    const out = new Map((res.json().results as TOut[]).map((r) => [r.order_id, r]));
    for (const o of [a, b, c, retyped]) expect(out.get(o.id)).toMatchObject({ outcome: 'created', label: true });
    // The label's reference is ECPay's AllPayLogisticsID (the fake's consignments are keyed by it).
    const db = ctx.deps.database.db;
    const [stored] = await db.select().from(carrier_labels).where(eq(carrier_labels.order_id, a.id));
    expect(stored).toMatchObject({
      carrier: 'ecpay',
      content: null,
      consignment_number: out.get(a.id)!.consignment_number,
    });
    expect(fake.consignments.get(stored!.file_no!)?.bookingNote).toBe(out.get(a.id)!.consignment_number);
    // A number changed by hand: the label at ECPay is for the old one.
    const patched = await ctx.api.outboundRoutes.setConsignment({
      params: { id: retyped.id },
      body: { consignment_number: 'HAND-9' },
      token: w.token,
    });
    expect(patched.statusCode, patched.body).toBe(200);

    const r = await ctx.api.carrierRoutes.ecpayLabelForms({
      body: { order_ids: [a.id, plain.id, c.id, b.id, retyped.id] },
      token: w.token,
    });
    expect(r.statusCode, r.body).toBe(200);
    type TForm = {
      provider: { id: string; name: string };
      action: string;
      fields: Record<string, string>;
      orders: Array<{ id: string; number: string }>;
    };
    const body = r.json() as { forms: TForm[]; others: Array<{ id: string; number: string }> };
    expect(body.others).toEqual([
      { id: plain.id, number: plain.number },
      { id: retyped.id, number: retyped.number },
    ]);
    expect(body.forms.map((f) => f.provider.name)).toEqual(['綠界宅配', '綠界低溫']);
    const [homeForm, coldForm] = body.forms as [TForm, TForm];
    expect(homeForm.action).toBe(`${fake.url}/helper/printTradeDocument`);
    // The screens may post a form to ECPay's origin (CSP form-action), and only there besides themselves.
    expect(String(r.headers['content-security-policy']).split(';')).toContain(`form-action 'self' ${fake.url}`);
    expect(homeForm.orders).toEqual([
      { id: a.id, number: a.number },
      { id: b.id, number: b.number },
    ]);
    // Two orders of one provider batch into one form: their AllPayLogisticsIDs comma-joined, in the order given.
    const ids = homeForm.fields.AllPayLogisticsID!.split(',');
    expect(ids).toHaveLength(2);
    expect(ids.map((id) => fake.consignments.get(id)?.bookingNote)).toEqual([
      out.get(a.id)!.consignment_number,
      out.get(b.id)!.consignment_number,
    ]);
    expect(Object.keys(homeForm.fields).sort()).toEqual(['AllPayLogisticsID', 'CheckMacValue', 'MerchantID']);
    expect(coldForm.orders).toEqual([{ id: c.id, number: c.number }]);

    // Posted as the browser does: ECPay's page shows one label per id, with its booking note and receiver.
    const post = (form: TForm, fields = form.fields) =>
      fetch(form.action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const page = await post(homeForm);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html.match(/class="label"/g)).toHaveLength(2);
    expect(html).toContain(out.get(a.id)!.consignment_number);
    expect(html).toContain(out.get(b.id)!.consignment_number);
    expect(html).toContain('王小明');
    expect(html).toContain('陳大文');
    expect(html).not.toContain(out.get(retyped.id)!.consignment_number);
    expect(await (await post(coldForm)).text()).toContain(out.get(c.id)!.consignment_number);
    // A tampered form (another id, same check value) is refused by ECPay.
    const tampered = await post(homeForm, { ...homeForm.fields, AllPayLogisticsID: ids[0]! });
    expect(await tampered.text()).toContain('CheckMacValue Error');

    // Another seller's order: not found, and nothing of theirs is signed.
    const foreignRes = await ctx.api.carrierRoutes.ecpayLabelForms({
      body: { order_ids: [a.id, foreign.id] },
      token: w.token,
    });
    expect(foreignRes.statusCode).toBe(404);
    expect(foreignRes.error().code).toBe('NOT_FOUND');
    const theirs = await ctx.api.carrierRoutes.ecpayLabelForms({
      body: { order_ids: [foreign.id] },
      token: other.token,
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().forms[0]!.orders).toEqual([{ id: foreign.id, number: foreign.number }]);
    expect(theirs.json().forms[0]!.fields.AllPayLogisticsID).not.toContain(ids[0]);

    // The PDF route: ECPay labels are not "missing" but named apart; only ECPay labels → LABELS_AT_ECPAY.
    // A T-cat label stored with its order (as tcat.int.test.ts makes them): the PDF has its page only.
    const tc = await mk(w.carrier.id);
    await ctx.api.outboundRoutes.setConsignment({
      params: { id: tc.id },
      body: { consignment_number: 'TC-1' },
      token: w.token,
    });
    const one = await PDFDocument.create();
    one.addPage([288, 432]);
    await db.insert(carrier_labels).values({
      order_id: tc.id,
      customer_id: w.customerId,
      carrier: 'tcat',
      consignment_number: 'TC-1',
      content: Buffer.from(await one.save()),
      fetched_at: new Date(),
    });
    const mixed = await ctx.api.carrierRoutes.printLabels({
      body: { order_ids: [a.id, tc.id, plain.id, b.id, retyped.id] },
      token: w.token,
      lang: 'en',
    });
    expect(mixed.statusCode, mixed.body).toBe(200);
    expect(mixed.headers['x-labels-pages']).toBe('1');
    expect(decodeURIComponent(String(mixed.headers['x-labels-missing-orders']))).toBe(
      `${plain.number},${retyped.number}`,
    );
    expect(decodeURIComponent(String(mixed.headers['x-labels-ecpay-orders']))).toBe(`${a.number},${b.number}`);
    expect((await PDFDocument.load(mixed.rawPayload)).getPageCount()).toBe(1);
    const onlyEcpay = await ctx.api.carrierRoutes.printLabels({
      body: { order_ids: [a.id, b.id] },
      token: w.token,
      lang: 'en',
    });
    expect(onlyEcpay.statusCode).toBe(409);
    expect(onlyEcpay.error().code).toBe('LABELS_AT_ECPAY');
    const nothing = await ctx.api.carrierRoutes.printLabels({
      body: { order_ids: [plain.id, retyped.id] },
      token: w.token,
      lang: 'en',
    });
    expect(nothing.statusCode).toBe(404);
    expect(nothing.error().code).toBe('LABEL_NOT_AVAILABLE');
  });
});
