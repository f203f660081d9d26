import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTcat, type TFakeTcat } from '../../../test/fakes/fake-tcat';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld } from '../../outbound/__tests__/factories';
import { carrierApi, SENDER } from './api';

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

describe(`T-cat: each order's refusal names why, before T-cat is asked (${TEST_ENGINE})`, () => {
  it('no sender, a masked receiver, a COD amount over the limit; a good order still ships', async () => {
    const w = await outboundWorld(ctx);
    const { provider, order, consignments } = carrierApi(ctx, w);
    const keys = { merchant_id: fake.customerId, hash_key: fake.customerToken, carrier_type: 'tcat' as const };
    const bare = await provider({ code: 'TCAT-BARE', name: '黑貓（無寄件人）', ...keys });
    const full = await provider({ code: 'TCAT-EGS', name: '黑貓宅急便', ...keys, ...SENDER });
    // The company's own phone and the warehouse address are not there: the order's default sender lacks them.
    const noSender = await order(bare.id, { sender_phone: '', sender_address: '' });
    const masked = await order(full.id, { recipient_name: '陳**' });
    const tooMuch = await order(full.id, { cod: true, cod_amount: '20001.00' });
    const good = await order(full.id, { cod: true, cod_amount: '880.00' });
    const before = fake.calls.filter((c) => c === 'PrintOBT').length;
    const res = await consignments([noSender.id, masked.id, tooMuch.id, good.id]);
    expect(res.statusCode, res.body).toBe(200);
    type TOut = { order_id: string; outcome: string; code: string | null; message: string | null };
    const out = new Map((res.json().results as TOut[]).map((r) => [r.order_id, r]));
    expect(out.get(noSender.id)).toMatchObject({ code: 'CARRIER_SENDER_INVALID' });
    expect(out.get(noSender.id)!.message).toContain('"黑貓（無寄件人）"');
    expect(out.get(masked.id)).toMatchObject({ code: 'CARRIER_RECEIVER_MASKED' });
    expect(out.get(tooMuch.id)).toMatchObject({ code: 'CARRIER_AMOUNT_LIMIT' });
    expect(out.get(good.id)).toMatchObject({ outcome: 'created' });
    // One PrintOBT: only the good order reached T-cat, with its COD amount.
    expect(fake.calls.filter((c) => c === 'PrintOBT').length - before).toBe(1);
    expect(fake.created.at(-1)).toMatchObject({ IsCollection: 'Y', CollectionAmount: 880, SenderName: '好物倉庫' });
  });
});
