import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { providerCredentials } from '../partners.service';

let ctx: TTestContext;
let a: { token: string; customerId: string };
let b: { token: string; customerId: string };
beforeAll(async () => {
  ctx = await createTestContext();
  a = await ctx.newCustomer();
  b = await ctx.newCustomer();
});
afterAll(() => ctx?.close());

type M = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: M, url: string, token: string, payload?: unknown, lang?: string) =>
  ctx.inject({ method, url, token, lang, ...(payload ? { payload: payload as object } : {}) });

describe(`logistics providers (${TEST_ENGINE})`, () => {
  it('stores hash key and IV encrypted, answers them masked, and the carrier client can read them', async () => {
    const res = await call('POST', '/api/logistics-providers/', a.token, {
      code: 'ECPAY',
      name: 'ECPay HOME',
      merchant_id: '2000132',
      hash_key: '5294y06JbISpM5x9',
      hash_iv: 'v77hoKGq4kWxNNIS',
      contract_type: '11',
      temperature_code: '0002',
      specification_code: '0003',
      billing_basis: '001',
      carrier_type: 'ecpay',
    });
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({
      hash_key: '••••••••M5x9',
      hash_iv: '••••••••NNIS',
      temperature_code: '0002',
      carrier_type: 'ecpay',
    });
    expect(
      (await call('POST', '/api/logistics-providers/', a.token, { code: 'X', name: 'X', carrier_type: 'hct' }))
        .statusCode,
    ).toBe(400);
    expect(res.body).not.toContain('5294y06JbISpM5x9');
    const [row] = await queryRows<{ hash_key_enc: string; hash_iv_enc: string }>(
      ctx.deps.database.db,
      sql`select hash_key_enc, hash_iv_enc from logistics_providers where id = ${p.id}`,
    );
    expect(row!.hash_key_enc).toMatch(/^v1:/);
    expect(row!.hash_key_enc).not.toContain('5294y06JbISpM5x9');
    const [audit] = await queryRows<{ after: unknown }>(
      ctx.deps.database.db,
      sql`select after from audit_logs where entity_id = ${p.id}`,
    );
    expect(JSON.stringify(audit!.after)).not.toContain('5294y06JbISpM5x9');
    const creds = await providerCredentials(ctx.deps.database.db, ctx.config.encryptionKey, a.customerId, p.id);
    expect(creds).toEqual({ merchantId: '2000132', hashKey: '5294y06JbISpM5x9', hashIv: 'v77hoKGq4kWxNNIS' });
    // omitted secrets are kept; '' clears one
    await call('PATCH', `/api/logistics-providers/${p.id}/`, a.token, { name: 'ECPay' });
    expect((await call('GET', `/api/logistics-providers/${p.id}/`, a.token)).json().hash_key).toBe('••••••••M5x9');
    const cleared = (await call('PATCH', `/api/logistics-providers/${p.id}/`, a.token, { hash_iv: '' })).json();
    expect(cleared).toMatchObject({ hash_key: '••••••••M5x9', hash_iv: null });
    // The hint is the last 4 characters, not 4 UTF-16 units: an emoji is never cut into a lone surrogate.
    const emoji = (
      await call('PATCH', `/api/logistics-providers/${p.id}/`, a.token, { hash_key: 'key-1😀2😀' })
    ).json();
    expect(emoji.hash_key).toBe('••••••••😀2😀'.replace('••••••••', '••••••••1'));
  });

  it("accepts the spec's codes only, and no 150 cm box chilled or frozen", async () => {
    const ok = await call('POST', '/api/logistics-providers/', a.token, {
      code: 'HCT',
      name: 'HCT',
      contract_type: '21',
      temperature_code: '008',
      billing_basis: '002',
    });
    expect(ok.statusCode).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ temperature_code: '0004' }, 'temperature_code'],
      [{ specification_code: '0005' }, 'specification_code'],
      [{ contract_type: '12' }, 'contract_type'],
      [{ billing_basis: '003' }, 'billing_basis'],
      [{ temperature_code: '0003', specification_code: '0004' }, 'specification_code'],
      [{ code: '' }, 'code'],
    ];
    for (const [patch, field] of cases) {
      const res = await call('POST', '/api/logistics-providers/', a.token, { code: 'BAD', name: 'bad', ...patch });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error.params.field, field).toBe(field);
    }
    const p = ok.json();
    const frozen = await call('PATCH', `/api/logistics-providers/${p.id}/`, a.token, { temperature_code: '0003' });
    expect(frozen.statusCode).toBe(200);
    const big = await call('PATCH', `/api/logistics-providers/${p.id}/`, a.token, { specification_code: '0004' });
    expect(big.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'specification_code' } });
  });

  it('a provider that is some product default cannot be deleted (IN_USE)', async () => {
    const p = (await call('POST', '/api/logistics-providers/', a.token, { code: 'TCAT', name: 'T-cat' })).json();
    const prod = await call('POST', '/api/products/', a.token, {
      number: 'WITH-CARRIER',
      name: 'x',
      default_logistics_provider_id: p.id,
    });
    expect(prod.statusCode).toBe(201);
    expect((await call('DELETE', `/api/logistics-providers/${p.id}/`, a.token)).json().error.code).toBe('IN_USE');
    await call('PATCH', `/api/products/${prod.json().id}/`, a.token, { default_logistics_provider_id: null });
    expect((await call('DELETE', `/api/logistics-providers/${p.id}/`, a.token)).statusCode).toBe(200);
  });
});

describe(`e-commerce platforms (${TEST_ENGINE})`, () => {
  it('creates, filters, edits and deletes; the URL must be http(s)', async () => {
    const shop = await call('POST', '/api/ecommerce-platforms/', a.token, {
      code: 'SHOPEE',
      name: 'Shopee TW',
      store_number: '123456',
      url: 'https://shopee.tw/demo',
      callback_enabled: true,
    });
    expect(shop.statusCode).toBe(201);
    await call('POST', '/api/ecommerce-platforms/', a.token, { code: 'OWN', name: 'Own store' });
    expect((await call('GET', '/api/ecommerce-platforms/?callback_enabled=true', a.token)).json().count).toBe(1);
    expect((await call('GET', '/api/ecommerce-platforms/?search=own', a.token)).json().results[0].code).toBe('OWN');
    const bad = await call('POST', '/api/ecommerce-platforms/', a.token, { code: 'X', name: 'x', url: 'ftp://x' });
    expect(bad.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'url' } });
    const id = shop.json().id;
    expect(
      (await call('PATCH', `/api/ecommerce-platforms/${id}/`, a.token, { callback_enabled: false })).json(),
    ).toMatchObject({
      callback_enabled: false,
      store_number: '123456',
    });
    expect((await call('DELETE', `/api/ecommerce-platforms/${id}/`, a.token)).statusCode).toBe(200);
  });

  it("isolates sellers: B cannot see, change or delete A's providers and platforms (404)", async () => {
    const p = (
      await call('POST', '/api/logistics-providers/', a.token, { code: 'ISO-P', name: 'p', hash_key: 'secret-1234' })
    ).json();
    const s = (await call('POST', '/api/ecommerce-platforms/', a.token, { code: 'ISO-S', name: 's' })).json();
    for (const url of [`/api/logistics-providers/${p.id}/`, `/api/ecommerce-platforms/${s.id}/`]) {
      expect((await call('GET', url, b.token)).statusCode).toBe(404);
      expect((await call('PATCH', url, b.token, { name: 'hacked' })).statusCode).toBe(404);
      expect((await call('DELETE', url, b.token)).statusCode).toBe(404);
    }
    expect((await call('GET', '/api/logistics-providers/', b.token)).json().count).toBe(0);
    await expect(
      providerCredentials(ctx.deps.database.db, ctx.config.encryptionKey, b.customerId, p.id),
    ).rejects.toThrow();
    const useIt = await call('POST', '/api/products/', b.token, { number: 'B1', name: 'b', default_platform_id: s.id });
    expect(useIt.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'default_platform_id' } });
  });
});
