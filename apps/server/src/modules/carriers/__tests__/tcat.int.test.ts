import { and, asc, eq, inArray } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, carrier_labels, integration_attempts } from '../../../db/schema';
import { startFakeTcat, type TFakeTcat } from '../../../test/fakes/fake-tcat';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld } from '../../outbound/__tests__/factories';
import { tcatProvider } from '../providers/tcat';
import { carrierApi } from './api';

let ctx: TTestContext;
let fake: TFakeTcat;
beforeAll(async () => {
  fake = await startFakeTcat();
  ctx = await createTestContext({ TCAT_EGS_URL: fake.url });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const order = {
  orderNumber: 'OUT202611240007',
  recipient: { name: '王小明', phone: '0912-345-678', address: '台北市中正區重慶南路一段122號' },
  sender: { name: '倉庫', phone: '03-5712121', address: '新竹市東區光復路二段101號' },
  codAmount: 450,
  temperature: '0002',
  specification: '0002',
};

const attemptsOf = (reference: string) =>
  ctx.deps.database.db
    .select()
    .from(integration_attempts)
    .where(eq(integration_attempts.reference, reference))
    .orderBy(asc(integration_attempts.id));

describe(`T-cat Egs against a local T-cat (${TEST_ENGINE})`, () => {
  it('ParsingAddress → PrintOBT → DownloadOBT: a number and its label PDF, every call logged with the token masked', async () => {
    const services = { http: ctx.deps.http, config: ctx.config };
    const t = tcatProvider(
      { baseUrl: fake.url, customerId: fake.customerId, customerToken: fake.customerToken },
      services,
    );
    const made = await t.createConsignment(order, { customerId: null, reference: 't-1' });
    expect(made.consignmentNumber).toMatch(/^\d{12}$/);
    expect(made.label?.subarray(0, 5).toString()).toBe('%PDF-');
    expect(made.labelRef).toBeTruthy();
    const sent = fake.created.at(-1)!;
    expect(sent).toMatchObject({
      OBTNumber: made.consignmentNumber,
      OrderId: order.orderNumber,
      Thermosphere: '0002',
      Spec: '0002',
      RecipientMobile: '0912345678',
      SenderTel: '03-5712121',
      IsCollection: 'Y',
      CollectionAmount: 450,
      DeliveryTime: '04',
    });
    expect(String(sent.SenderZipCode)).toMatch(/^[0-9A-Z]{6}$/);
    const attempts = await attemptsOf('t-1');
    expect(attempts.map((a) => [a.operation, a.status])).toEqual([
      ['ParsingAddress', 200],
      ['PrintOBT', 200],
      ['DownloadOBT', 200],
    ]);
    expect(JSON.stringify(attempts)).not.toContain(fake.customerToken);
    expect(attempts[2]!.response_body).toMatch(/^\[application\/pdf, \d+ bytes\]$/);
  });

  it("refuses with T-cat's own message: wrong token, bad data; a 5xx on PrintOBT is never retried", async () => {
    const services = { http: ctx.deps.http, config: ctx.config };
    const wrong = tcatProvider({ baseUrl: fake.url, customerId: fake.customerId, customerToken: 'wrongtok' }, services);
    await expect(wrong.createConsignment(order, { customerId: null, reference: 't-2' })).rejects.toMatchObject({
      code: 'PROVIDER_REFUSED',
      params: { message: '契客代號或授權碼錯誤' },
    });
    const t = tcatProvider(
      { baseUrl: fake.url, customerId: fake.customerId, customerToken: fake.customerToken },
      services,
    );
    await expect(
      t.createConsignment({ ...order, specification: '0004' }, { customerId: null, reference: 't-3' }),
    ).rejects.toMatchObject({ params: { message: `訂單編號 ${order.orderNumber}：冷藏/冷凍不提供 150cm 規格` } });
    const before = fake.created.length;
    fake.failNext(1); // ParsingAddress meets a 503: a query, retried
    const ok = await t.createConsignment(order, { customerId: null, reference: 't-4' });
    expect(ok.consignmentNumber).toMatch(/^\d{12}$/);
    expect((await attemptsOf('t-4')).map((a) => a.status)).toEqual([503, 200, 200, 200]);
    // The fields of T-cat's spec v2.0.5: the Y/N flags (IsMobilePay among them), ProductTypeId 0001–0015; the fake
    // refuses a product type outside that list as T-cat does, naming the order.
    const sent = fake.created.at(-1)!;
    expect(sent).toMatchObject({ IsMobilePay: 'N', IsSwipe: 'N', ProductTypeId: '0015', ReceiptLocation: '01' });
    const { OBTNumber: _n, FileNo: _f, ...fields } = sent;
    const refused = await fetch(`${fake.url}/PrintOBT`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        CustomerId: fake.customerId,
        CustomerToken: fake.customerToken,
        PrintType: '01',
        PrintOBTType: '01',
        Orders: [{ ...fields, OBTNumber: '', ProductTypeId: '0099' }],
      }),
    }).then((r) => r.json());
    expect(refused).toMatchObject({ IsOK: 'N', Message: `訂單編號 ${order.orderNumber}：商品類別錯誤` });
    // PrintOBT itself meets a 503: T-cat may have made the consignment, so it is not sent twice.
    fake.failNext(1, 'PrintOBT');
    await expect(t.createConsignment(order, { customerId: null, reference: 't-5' })).rejects.toThrow(/HTTP 503/);
    expect((await attemptsOf('t-5')).map((a) => [a.operation, a.status])).toEqual([
      ['ParsingAddress', 200],
      ['PrintOBT', 503],
    ]);
    expect(fake.created.length - before).toBe(1);
  });

  it('a label that cannot be downloaded keeps the number; fetchLabel gets it later; an expired FileNo is refused', async () => {
    const services = { http: ctx.deps.http, config: ctx.config };
    const t = tcatProvider(
      { baseUrl: fake.url, customerId: fake.customerId, customerToken: fake.customerToken },
      services,
    );
    fake.failNext(10, 'DownloadOBT');
    const made = await t.createConsignment(order, { customerId: null, reference: 't-6' });
    fake.failNext(-10, 'DownloadOBT');
    expect(made.consignmentNumber).toMatch(/^\d{12}$/);
    expect(made.label).toBeNull();
    expect(made.labelError).toContain('503');
    const pdf = await t.fetchLabel!(
      { consignmentNumber: made.consignmentNumber, labelRef: made.labelRef! },
      { customerId: null, reference: 't-6' },
    );
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    fake.expireFiles();
    await expect(
      t.fetchLabel!({ consignmentNumber: made.consignmentNumber, labelRef: made.labelRef! }, { customerId: null }),
    ).rejects.toMatchObject({ code: 'PROVIDER_REFUSED', params: { message: '檔案編號不存在或已逾期' } });
  });
});

describe(`T-cat consignment numbers and labels through the API (${TEST_ENGINE})`, () => {
  it('numbers from T-cat on the orders with their labels; one PDF for the selected orders; per-order failures', async () => {
    const w = await outboundWorld(ctx);
    const other = await outboundWorld(ctx, { name: 'Other seller' });
    const sender = { sender_name: '測試倉', sender_phone: '03-5712121', sender_address: '新竹市東區光復路二段101號' };
    const { provider, order: mk, consignments: call } = carrierApi(ctx, w, sender);
    const tcat = await provider({
      code: 'TCAT-EGS',
      name: '黑貓宅急便',
      merchant_id: fake.customerId,
      hash_key: fake.customerToken,
      carrier_type: 'tcat',
    });
    const badToken = await provider({
      code: 'TCAT-EGS-OLD',
      name: '黑貓（舊授權碼）',
      merchant_id: fake.customerId,
      hash_key: 'expired1',
      carrier_type: 'tcat',
    });
    const unset = await provider({ code: 'TCAT-EGS-NEW', name: '黑貓（未設定）', carrier_type: 'tcat' });
    const a = await mk(tcat.id, { cod: true, cod_amount: '450.00' });
    const b = await mk(tcat.id);
    const down = await mk(tcat.id);
    const noLabel = await mk(tcat.id);
    const refused = await mk(badToken.id);
    const notSet = await mk(unset.id);
    const plain = await mk(w.carrier.id);

    const res = await call([a.id, b.id, refused.id, notSet.id, plain.id]);
    expect(res.statusCode, res.body).toBe(200);
    type TOut = { order_id: string; outcome: string; consignment_number: string | null; label: boolean; code: string };
    const out: Record<string, TOut> = Object.fromEntries((res.json().results as TOut[]).map((r) => [r.order_id, r]));
    expect(out[a.id]).toMatchObject({ outcome: 'created', label: true });
    expect(out[b.id]).toMatchObject({ outcome: 'created', label: true });
    expect(out[a.id]!.consignment_number).toMatch(/^\d{12}$/);
    expect(out[refused.id]).toMatchObject({
      outcome: 'failed',
      code: 'CARRIER_REFUSED',
      message: 'The carrier refused the consignment: 契客代號或授權碼錯誤',
      consignment_number: null,
    });
    expect(out[notSet.id]).toMatchObject({ outcome: 'failed', code: 'CARRIER_NOT_CONFIGURED' });
    expect(out[plain.id]).toMatchObject({ outcome: 'no_carrier' });
    expect(fake.created.find((c) => c.OBTNumber === out[a.id]!.consignment_number)).toMatchObject({
      IsCollection: 'Y',
      CollectionAmount: 450,
      SenderName: '測試倉',
    });
    const get = async (id: string) =>
      (await ctx.api.outboundRoutes.getOrder({ params: { id }, token: w.token })).json();
    expect((await get(a.id)).consignment_number).toBe(out[a.id]!.consignment_number);
    expect((await get(refused.id)).consignment_number).toBeNull();

    // T-cat down for PrintOBT: reported per order in the request's language, no number, no second consignment.
    const before = fake.created.length;
    fake.failNext(50);
    const downRes = await call([down.id], 'zh-TW');
    fake.failNext(-50);
    expect(downRes.json().results[0]).toMatchObject({
      outcome: 'failed',
      code: 'CARRIER_UNAVAILABLE',
      message: '物流商暫時無法連線，請稍後再試',
    });
    expect(fake.created.length).toBe(before);
    expect((await get(down.id)).consignment_number).toBeNull();

    // The number comes but DownloadOBT fails: the number is on the order, the label is fetched when printing.
    fake.failNext(10, 'DownloadOBT');
    const nl = (await call([noLabel.id])).json().results[0]!;
    fake.failNext(-10, 'DownloadOBT');
    expect(nl).toMatchObject({ outcome: 'created', label: false });
    expect((await get(noLabel.id)).consignment_number).toBe(nl.consignment_number);
    const db = ctx.deps.database.db;
    const [stored] = await db.select().from(carrier_labels).where(eq(carrier_labels.order_id, noLabel.id));
    expect(stored).toMatchObject({ carrier: 'tcat', content: null, consignment_number: nl.consignment_number });
    expect(stored!.file_no).toBeTruthy();
    const audits = await db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.action, 'set_consignment'), inArray(audit_logs.entity_id, [a.id, b.id, noLabel.id])));
    expect(audits).toHaveLength(3);
    expect(audits[0]!.after).toMatchObject({ source: { carrier: 'tcat' } });

    // Print: one PDF, a page per label, in the order chosen; the missing label fetched now; orders without a label named.
    const pdfRes = await ctx.api.carrierRoutes.printLabels({
      body: { order_ids: [b.id, a.id, noLabel.id, plain.id] },
      token: w.token,
    });
    expect(pdfRes.statusCode, pdfRes.body).toBe(200);
    expect(pdfRes.headers['content-type']).toBe('application/pdf');
    expect(pdfRes.headers['x-labels-missing']).toBe('1');
    expect(decodeURIComponent(String(pdfRes.headers['x-labels-missing-orders']))).toBe(plain.number);
    const merged = await PDFDocument.load(pdfRes.rawPayload);
    expect(merged.getPageCount()).toBe(3);
    const [refetched] = await db.select().from(carrier_labels).where(eq(carrier_labels.order_id, noLabel.id));
    expect(refetched!.content?.subarray(0, 5).toString()).toBe('%PDF-');
    const fetchAudit = await db
      .select()
      .from(audit_logs)
      .where(and(eq(audit_logs.action, 'carrier_label.fetch'), eq(audit_logs.entity_id, noLabel.id)));
    expect(fetchAudit).toHaveLength(1);

    // Nothing to print, another seller's order, a re-run.
    const none = await ctx.api.carrierRoutes.printLabels({
      body: { order_ids: [plain.id, refused.id] },
      token: w.token,
    });
    expect(none.statusCode).toBe(404);
    expect(none.error().code).toBe('LABEL_NOT_AVAILABLE');
    expect(
      (await ctx.api.carrierRoutes.printLabels({ body: { order_ids: [a.id] }, token: other.token })).statusCode,
    ).toBe(404);
    const again = await call([a.id, b.id]);
    expect(again.json().results.map((r: { outcome: string }) => r.outcome)).toEqual(['already', 'already']);
  });
});
