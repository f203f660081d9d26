import { catalogRoutes, type TProduct } from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { expectExportReimports } from '../../../test/import-job';

/**
 * The product list's Excel export is the product import's file: exported in any language, it imports again (into the
 * same seller: nothing changes; into another seller with the same codes: the same products).
 */

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** A seller with the reference rows products point at (category, carrier, platform), by code. */
async function sellerWithReferences() {
  const c = await ctx.newCustomer();
  await ctx.api.catalogRoutes.createProductCategory({ body: { code: 'C10', name: 'Tea' }, token: c.token });
  await ctx.api.partnerRoutes.createLogisticsProvider({ body: { code: 'TCAT', name: 'T-cat' }, token: c.token });
  await ctx.api.partnerRoutes.createEcommercePlatform({ body: { code: 'SHOPEE', name: 'Shopee' }, token: c.token });
  return c;
}

/** What a product is, without ids and times: references by code. */
async function productsOf(token: string) {
  const list = (
    await ctx.api.catalogRoutes.listProducts({ query: { ordering: 'number', page_size: '100' }, token })
  ).json();
  return (list.results as TProduct[]).map((p) => {
    const {
      id: _id,
      category_id: _c,
      default_logistics_provider_id: provider,
      default_platform_id: platform,
      created_at: _ca,
      updated_at: _ua,
      components,
      ...rest
    } = p;
    return {
      ...rest,
      has_provider: provider !== null,
      has_platform: platform !== null,
      components: components.map((x) => `${x.number}*${x.quantity}`),
    };
  });
}

describe(`product export → import (${TEST_ENGINE})`, () => {
  it('re-imports its own export in every language, and carries every field to another seller', async () => {
    const a = await sellerWithReferences();
    const category = (
      await ctx.api.catalogRoutes.listProductCategories({ query: { search: 'C10' }, token: a.token })
    ).json().results[0];
    const provider = (await ctx.api.partnerRoutes.listLogisticsProviders({ token: a.token })).json().results[0];
    const platform = (await ctx.api.partnerRoutes.listEcommercePlatforms({ token: a.token })).json().results[0];
    const tea = await ctx.api.catalogRoutes.createProduct({
      body: {
        number: 'RT-TEA',
        name: '綠茶 Green tea',
        barcode: '4006381333931',
        category_id: category!.id,
        unit: '盒',
        unit_price: '80',
        selling_price: '120.5',
        cost: '60.25',
        weight: '1.5',
        weight_unit: 'kg',
        length_cm: '10',
        width_cm: '20',
        height_cm: '30',
        volume_required: true,
        fragile: true,
        can_pack_together: false,
        safety_stock: 7,
        stocking_days: 14,
        shelf_life_months: 12,
        sellable_rule_months: 2,
        allowed_sale_date: '2026-12-01',
        allow_shipping: true,
        online_listing: true,
        requires_serial: true,
        default_logistics_provider_id: provider!.id,
        default_platform_id: platform!.id,
      },
      token: a.token,
    });
    expect(tea.statusCode, tea.body).toBe(201);
    const cup = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'RT-CUP', name: 'Cup', status: 'inactive' },
      token: a.token,
    });
    await ctx.api.catalogRoutes.createProduct({
      body: {
        number: 'RT-KIT',
        name: 'Tea set',
        type: 'combination',
        components: [
          { component_id: tea.json().id, quantity: 2 },
          { component_id: cup.json().id, quantity: 1 },
        ],
      },
      token: a.token,
    });
    const before = await productsOf(a.token);
    expect(before.map((p) => [p.number, p.type, p.status])).toEqual([
      ['RT-CUP', 'single', 'inactive'],
      ['RT-KIT', 'combination', 'active'],
      ['RT-TEA', 'single', 'active'],
    ]);

    await expectExportReimports(ctx, {
      exportRoute: catalogRoutes.exportProducts,
      importRoute: catalogRoutes.importProducts,
      home: a.token,
      other: (await sellerWithReferences()).token,
      rows: 3,
      snapshot: productsOf,
    });
  });
});
