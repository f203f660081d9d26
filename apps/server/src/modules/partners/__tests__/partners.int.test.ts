import { invalidInput } from '@wms/contracts/client';
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

describe(`logistics providers (${TEST_ENGINE})`, () => {
  it('stores hash key and IV encrypted, answers them masked, and the carrier client can read them', async () => {
    const res = await ctx.api.partnerRoutes.createLogisticsProvider({
      body: {
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
      },
      token: a.token,
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
      (
        await ctx.api.partnerRoutes.createLogisticsProvider({
          body: invalidInput({ code: 'X', name: 'X', carrier_type: 'hct' }),
          token: a.token,
        })
      ).statusCode,
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
    await ctx.api.partnerRoutes.updateLogisticsProvider({
      params: { id: p.id },
      body: { name: 'ECPay' },
      token: a.token,
    });
    expect(
      (await ctx.api.partnerRoutes.getLogisticsProvider({ params: { id: p.id }, token: a.token })).json().hash_key,
    ).toBe('••••••••M5x9');
    const cleared = (
      await ctx.api.partnerRoutes.updateLogisticsProvider({
        params: { id: p.id },
        body: { hash_iv: '' },
        token: a.token,
      })
    ).json();
    expect(cleared).toMatchObject({ hash_key: '••••••••M5x9', hash_iv: null });
    // The hint is the last 4 characters, not 4 UTF-16 units: an emoji is never cut into a lone surrogate.
    const emoji = (
      await ctx.api.partnerRoutes.updateLogisticsProvider({
        params: { id: p.id },
        body: { hash_key: 'key-1😀2😀' },
        token: a.token,
      })
    ).json();
    expect(emoji.hash_key).toBe('••••••••😀2😀'.replace('••••••••', '••••••••1'));
  });

  it("accepts the spec's codes only, and no 150 cm box chilled or frozen", async () => {
    const ok = await ctx.api.partnerRoutes.createLogisticsProvider({
      body: {
        code: 'HCT',
        name: 'HCT',
        contract_type: '21',
        temperature_code: '008',
        billing_basis: '002',
      },
      token: a.token,
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
      const res = await ctx.api.partnerRoutes.createLogisticsProvider({
        body: { code: 'BAD', name: 'bad', ...patch },
        token: a.token,
      });
      expect(res.statusCode, field).toBe(400);
      expect(res.error().params!.field, field).toBe(field);
    }
    const p = ok.json();
    const frozen = await ctx.api.partnerRoutes.updateLogisticsProvider({
      params: { id: p.id },
      body: { temperature_code: '0003' },
      token: a.token,
    });
    expect(frozen.statusCode).toBe(200);
    const big = await ctx.api.partnerRoutes.updateLogisticsProvider({
      params: { id: p.id },
      body: { specification_code: '0004' },
      token: a.token,
    });
    expect(big.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'specification_code' } });
  });

  it('a provider that is some product default cannot be deleted (IN_USE)', async () => {
    const p = (
      await ctx.api.partnerRoutes.createLogisticsProvider({ body: { code: 'TCAT', name: 'T-cat' }, token: a.token })
    ).json();
    const prod = await ctx.api.catalogRoutes.createProduct({
      body: {
        number: 'WITH-CARRIER',
        name: 'x',
        default_logistics_provider_id: p.id,
      },
      token: a.token,
    });
    expect(prod.statusCode).toBe(201);
    expect(
      (await ctx.api.partnerRoutes.deleteLogisticsProvider({ params: { id: p.id }, token: a.token })).error().code,
    ).toBe('IN_USE');
    await ctx.api.catalogRoutes.updateProduct({
      params: { id: prod.json().id },
      body: { default_logistics_provider_id: null },
      token: a.token,
    });
    expect(
      (await ctx.api.partnerRoutes.deleteLogisticsProvider({ params: { id: p.id }, token: a.token })).statusCode,
    ).toBe(200);
  });
});

describe(`e-commerce platforms (${TEST_ENGINE})`, () => {
  it('creates, filters, edits and deletes; the URL must be http(s)', async () => {
    const shop = await ctx.api.partnerRoutes.createEcommercePlatform({
      body: {
        code: 'SHOPEE',
        name: 'Shopee TW',
        store_number: '123456',
        url: 'https://shopee.tw/demo',
        callback_enabled: true,
      },
      token: a.token,
    });
    expect(shop.statusCode).toBe(201);
    await ctx.api.partnerRoutes.createEcommercePlatform({ body: { code: 'OWN', name: 'Own store' }, token: a.token });
    expect(
      (
        await ctx.api.partnerRoutes.listEcommercePlatforms({ query: { callback_enabled: 'true' }, token: a.token })
      ).json().count,
    ).toBe(1);
    expect(
      (await ctx.api.partnerRoutes.listEcommercePlatforms({ query: { search: 'own' }, token: a.token })).json()
        .results[0]!.code,
    ).toBe('OWN');
    const bad = await ctx.api.partnerRoutes.createEcommercePlatform({
      body: { code: 'X', name: 'x', url: 'ftp://x' },
      token: a.token,
    });
    expect(bad.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'url' } });
    const id = shop.json().id;
    expect(
      (
        await ctx.api.partnerRoutes.updateEcommercePlatform({
          params: { id },
          body: { callback_enabled: false },
          token: a.token,
        })
      ).json(),
    ).toMatchObject({
      callback_enabled: false,
      store_number: '123456',
    });
    expect((await ctx.api.partnerRoutes.deleteEcommercePlatform({ params: { id }, token: a.token })).statusCode).toBe(
      200,
    );
  });

  it("isolates sellers: B cannot see, change or delete A's providers and platforms (404)", async () => {
    const p = (
      await ctx.api.partnerRoutes.createLogisticsProvider({
        body: { code: 'ISO-P', name: 'p', hash_key: 'secret-1234' },
        token: a.token,
      })
    ).json();
    const s = (
      await ctx.api.partnerRoutes.createEcommercePlatform({ body: { code: 'ISO-S', name: 's' }, token: a.token })
    ).json();
    const r = ctx.api.partnerRoutes;
    const rows = [
      {
        path: 'logistics-providers',
        get: (token: string) => r.getLogisticsProvider({ params: { id: p.id }, token }),
        update: (token: string) => r.updateLogisticsProvider({ params: { id: p.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deleteLogisticsProvider({ params: { id: p.id }, token }),
      },
      {
        path: 'ecommerce-platforms',
        get: (token: string) => r.getEcommercePlatform({ params: { id: s.id }, token }),
        update: (token: string) => r.updateEcommercePlatform({ params: { id: s.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deleteEcommercePlatform({ params: { id: s.id }, token }),
      },
    ];
    for (const { path, get, update, remove } of rows) {
      expect((await get(b.token)).statusCode, path).toBe(404);
      expect((await update(b.token)).statusCode, path).toBe(404);
      expect((await remove(b.token)).statusCode, path).toBe(404);
    }
    expect((await ctx.api.partnerRoutes.listLogisticsProviders({ token: b.token })).json().count).toBe(0);
    await expect(
      providerCredentials(ctx.deps.database.db, ctx.config.encryptionKey, b.customerId, p.id),
    ).rejects.toThrow();
    const useIt = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'B1', name: 'b', default_platform_id: s.id },
      token: b.token,
    });
    expect(useIt.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'default_platform_id' } });
  });
});
