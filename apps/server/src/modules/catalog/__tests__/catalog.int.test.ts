import type { catalogRoutes } from '@wms/contracts';
import { invalidInput, type TRouteInput } from '@wms/contracts/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
let a: { token: string; customerId: string };
let b: { token: string; customerId: string };
beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
  a = await ctx.newCustomer();
  b = await ctx.newCustomer();
});
afterAll(() => ctx?.close());

const create = async (token: string, body: TRouteInput<typeof catalogRoutes.createProduct>['body']) => {
  const res = await ctx.api.catalogRoutes.createProduct({ body, token });
  if (res.statusCode !== 201) throw new Error(`create failed ${res.statusCode} ${res.body}`);
  return res.json();
};

describe(`product categories (${TEST_ENGINE})`, () => {
  it('every seller has the default category 0015 "other", which cannot be deleted or recoded', async () => {
    const c = await ctx.newCustomer();
    const list = (await ctx.api.catalogRoutes.listProductCategories({ token: c.token })).json();
    expect(list.count).toBe(1);
    expect(list.results[0]).toMatchObject({ code: '0015', name: '其他', is_default: true });
    const id = list.results[0]!.id;
    const del = await ctx.api.catalogRoutes.deleteProductCategory({ params: { id }, token: c.token, lang: 'en' });
    expect(del.statusCode).toBe(409);
    expect(del.error().code).toBe('DEFAULT_CATEGORY_LOCKED');
    const recode = await ctx.api.catalogRoutes.updateProductCategory({
      params: { id },
      body: { code: '0001' },
      token: c.token,
    });
    expect(recode.error()).toMatchObject({ code: 'DEFAULT_CATEGORY_LOCKED', params: { field: 'code' } });
    expect(
      (
        await ctx.api.catalogRoutes.updateProductCategory({ params: { id }, body: { name: '其它' }, token: c.token })
      ).json().name,
    ).toBe('其它');
  });

  it('puts a product without category into 0015, even when the seller never opened the category list', async () => {
    const c = await ctx.newCustomer();
    const p = await create(c.token, { number: 'NOCAT', name: 'No category' });
    expect(p.category_code).toBe('0015');
    const cats = (await ctx.api.catalogRoutes.listProductCategories({ token: c.token })).json();
    expect(cats.results[0]!.product_count).toBe(1);
  });

  it('creates, renames and deletes a category; one with products is IN_USE', async () => {
    const cat = (
      await ctx.api.catalogRoutes.createProductCategory({ body: { code: 'C01', name: 'Drinks' }, token: a.token })
    ).json();
    expect(cat).toMatchObject({ code: 'C01', is_default: false, product_count: 0 });
    const dup = await ctx.api.catalogRoutes.createProductCategory({
      body: { code: 'C01', name: 'again' },
      token: a.token,
    });
    expect(dup.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'code' } });
    await create(a.token, { number: 'DRINK-1', name: 'Tea', category_id: cat.id });
    expect(
      (await ctx.api.catalogRoutes.deleteProductCategory({ params: { id: cat.id }, token: a.token })).error().code,
    ).toBe('IN_USE');
    const empty = (
      await ctx.api.catalogRoutes.createProductCategory({ body: { code: 'C02', name: 'Empty' }, token: a.token })
    ).json();
    expect(
      (await ctx.api.catalogRoutes.deleteProductCategory({ params: { id: empty.id }, token: a.token })).statusCode,
    ).toBe(200);
  });
});

describe(`products (${TEST_ENGINE})`, () => {
  it('stores every field of spec §3 and reads it back', async () => {
    const full = {
      number: 'FULL-001',
      name: 'Full product',
      barcode: '4006381333931',
      type: 'single',
      unit: 'pcs',
      unit_price: '12.5',
      selling_price: '199',
      cost: '80.25',
      weight: '1.25',
      weight_unit: 'kg',
      length_cm: '30',
      width_cm: '20.5',
      height_cm: '10',
      volume_required: true,
      fragile: true,
      can_pack_together: false,
      safety_stock: 5,
      stocking_days: 14,
      shelf_life_months: 12,
      sellable_rule_months: 3,
      allowed_sale_date: '2026-01-31',
      allow_shipping: false,
      online_listing: true,
      status: 'inactive',
      requires_serial: true,
    } as const;
    const p = await create(a.token, full);
    expect(p).toMatchObject({ ...full, components: [], category_code: '0015' });
    expect((await ctx.api.catalogRoutes.getProduct({ params: { id: p.id }, token: a.token })).json()).toMatchObject(
      full,
    );
    const byNumber = await ctx.api.catalogRoutes.lookupProduct({ query: { code: 'FULL-001' }, token: a.token });
    const byBarcode = await ctx.api.catalogRoutes.lookupProduct({ query: { code: '4006381333931' }, token: a.token });
    expect(byNumber.json().id).toBe(p.id);
    expect(byBarcode.json().id).toBe(p.id);
    expect(
      (await ctx.api.catalogRoutes.lookupProduct({ query: { code: '4006381333931' }, token: b.token })).statusCode,
    ).toBe(404);
  });

  it('validates barcode check digits, months, dates and money per field', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ barcode: '4006381333932' }, 'INVALID_FIELD', 'barcode'], // EAN-13 wrong check digit
      [{ barcode: '03600029145' }, 'INVALID_FIELD', 'barcode'], // 11 digits: no GS1 length
      [{ shelf_life_months: 13 }, 'INVALID_FIELD', 'shelf_life_months'],
      [{ sellable_rule_months: 0 }, 'INVALID_FIELD', 'sellable_rule_months'],
      [{ sellable_rule_months: 3 }, 'INVALID_FIELD', 'sellable_rule_months'], // without shelf life
      [{ shelf_life_months: 3, sellable_rule_months: 3 }, 'INVALID_FIELD', 'sellable_rule_months'],
      [{ unit_price: '1.5e3' }, 'INVALID_FIELD', 'unit_price'],
      [{ selling_price: 12.5 }, 'INVALID_FIELD', 'selling_price'],
      [{ cost: '-1' }, 'INVALID_FIELD', 'cost'],
      [{ safety_stock: 1.5 }, 'INVALID_FIELD', 'safety_stock'],
      [{ weight_unit: 'lb' }, 'INVALID_FIELD', 'weight_unit'],
      [{ allowed_sale_date: '31/01/2026' }, 'INVALID_FIELD', 'allowed_sale_date'],
      [{ volume_required: true, length_cm: '10' }, 'REQUIRED_FIELD', 'width_cm'],
      [{ volume_required: true, length_cm: '10', width_cm: '5' }, 'REQUIRED_FIELD', 'height_cm'],
      [{ type: 'combination' }, 'REQUIRED_FIELD', 'components'],
      [{ number: 'bad number' }, 'INVALID_FIELD', 'number'],
      [{ name: '' }, 'REQUIRED_FIELD', 'name'],
      [{ category_id: '00000000-0000-4000-8000-000000000000' }, 'INVALID_FIELD', 'category_id'],
      [{ default_platform_id: '00000000-0000-4000-8000-000000000000' }, 'INVALID_FIELD', 'default_platform_id'],
    ];
    for (const [patch, code, field] of cases) {
      const res = await ctx.api.catalogRoutes.createProduct({
        body: { number: 'V-1', name: 'v', ...patch },
        token: a.token,
        lang: 'en',
      });
      expect(res.statusCode, JSON.stringify(patch)).toBeGreaterThanOrEqual(400);
      expect(res.error(), JSON.stringify(patch)).toMatchObject({ code, params: { field } });
    }
    const msg = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'V-1', name: 'v', barcode: '123' },
      token: a.token,
      lang: 'en',
    });
    expect(msg.error().message).toBe('International barcode is not valid');
    // valid UPC-A, EAN-8 and alphanumeric codes pass
    for (const [i, barcode] of ['036000291452', '96385074', 'SKU-ABC-01'].entries())
      expect(
        (await ctx.api.catalogRoutes.createProduct({ body: { number: `BC-${i}`, name: 'b', barcode }, token: a.token }))
          .statusCode,
      ).toBe(201);
    const missingNumber = await ctx.api.catalogRoutes.createProduct({
      body: invalidInput({ name: 'x' }),
      token: a.token,
    });
    expect(missingNumber.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'number' } });
  });

  it('keeps numbers and barcodes unique per seller', async () => {
    await create(a.token, { number: 'UNQ', name: 'u', barcode: '4710088432216' });
    const dupNumber = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'UNQ', name: 'u2' },
      token: a.token,
    });
    expect(dupNumber.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'number' } });
    const dupBarcode = await ctx.api.catalogRoutes.createProduct({
      body: {
        number: 'UNQ2',
        name: 'u',
        barcode: '4710088432216',
      },
      token: a.token,
    });
    expect(dupBarcode.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'barcode' } });
    expect(
      (
        await ctx.api.catalogRoutes.createProduct({
          body: { number: 'UNQ', name: 'b', barcode: '4710088432216' },
          token: b.token,
        })
      ).statusCode,
    ).toBe(201);
  });

  it('builds combination products from single components, with no nesting or cycles', async () => {
    const s1 = await create(a.token, { number: 'KIT-S1', name: 'Cup' });
    const s2 = await create(a.token, { number: 'KIT-S2', name: 'Saucer' });
    const kit = await create(a.token, {
      number: 'KIT-1',
      name: 'Cup and saucer',
      type: 'combination',
      components: [
        { component_id: s1.id, quantity: 2 },
        { component_id: s2.id, quantity: 1 },
      ],
    });
    expect(kit.components).toEqual([
      { component_id: s1.id, number: 'KIT-S1', name: 'Cup', barcode: null, quantity: 2 },
      { component_id: s2.id, number: 'KIT-S2', name: 'Saucer', barcode: null, quantity: 1 },
    ]);
    const nested = await ctx.api.catalogRoutes.createProduct({
      body: {
        number: 'KIT-2',
        name: 'nested',
        type: 'combination',
        components: [{ component_id: kit.id, quantity: 1 }],
      },
      token: a.token,
    });
    expect(nested.error()).toMatchObject({
      code: 'COMBINATION_INVALID',
      params: { field: 'components', number: 'KIT-1' },
    });
    const twice = await ctx.api.catalogRoutes.createProduct({
      body: {
        number: 'KIT-3',
        name: 'twice',
        type: 'combination',
        components: [
          { component_id: s1.id, quantity: 1 },
          { component_id: s1.id, quantity: 1 },
        ],
      },
      token: a.token,
    });
    expect(twice.error().code).toBe('COMBINATION_INVALID');
    const zero = await ctx.api.catalogRoutes.createProduct({
      body: {
        number: 'KIT-4',
        name: 'zero',
        type: 'combination',
        components: [{ component_id: s1.id, quantity: 0 }],
      },
      token: a.token,
    });
    expect(zero.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'components.0.quantity' } });
    // a component cannot become a combination (that would nest), nor list itself
    const becomeCombo = await ctx.api.catalogRoutes.updateProduct({
      params: { id: s1.id },
      body: {
        type: 'combination',
        components: [{ component_id: s2.id, quantity: 1 }],
      },
      token: a.token,
    });
    expect(becomeCombo.error()).toMatchObject({ code: 'COMBINATION_INVALID', params: { field: 'type' } });
    const self = await ctx.api.catalogRoutes.updateProduct({
      params: { id: kit.id },
      body: {
        components: [{ component_id: kit.id, quantity: 1 }],
      },
      token: a.token,
    });
    expect(self.error().code).toBe('COMBINATION_INVALID');
    // B's product is not a component A can use
    const foreign = await create(b.token, { number: 'B-S', name: 'b single' });
    const useForeign = await ctx.api.catalogRoutes.updateProduct({
      params: { id: kit.id },
      body: {
        components: [{ component_id: foreign.id, quantity: 1 }],
      },
      token: a.token,
    });
    expect(useForeign.error().code).toBe('COMBINATION_INVALID');
    // replace components
    const changed = await ctx.api.catalogRoutes.updateProduct({
      params: { id: kit.id },
      body: {
        components: [{ component_id: s2.id, quantity: 3 }],
      },
      token: a.token,
    });
    expect(changed.json().components).toMatchObject([{ number: 'KIT-S2', quantity: 3 }]);
    // a component in use cannot be deleted, but can be deactivated
    const del = await ctx.api.catalogRoutes.deleteProduct({ params: { id: s2.id }, token: a.token, lang: 'en' });
    expect(del.statusCode).toBe(409);
    expect(del.error()).toMatchObject({ code: 'IN_USE', message: 'This record is in use and cannot be deleted' });
    expect(
      (
        await ctx.api.catalogRoutes.updateProduct({
          params: { id: s2.id },
          body: { status: 'inactive' },
          token: a.token,
        })
      ).json().status,
    ).toBe('inactive');
    // the kit itself can go, and its component rows with it; then the component is free
    expect((await ctx.api.catalogRoutes.deleteProduct({ params: { id: kit.id }, token: a.token })).statusCode).toBe(
      200,
    );
    expect((await ctx.api.catalogRoutes.deleteProduct({ params: { id: s2.id }, token: a.token })).statusCode).toBe(200);
    // turning a combination back into a single product clears its components
    const kit2 = await create(a.token, {
      number: 'KIT-5',
      name: 'kit',
      type: 'combination',
      components: [{ component_id: s1.id, quantity: 1 }],
    });
    const single = (
      await ctx.api.catalogRoutes.updateProduct({ params: { id: kit2.id }, body: { type: 'single' }, token: a.token })
    ).json();
    expect(single).toMatchObject({ type: 'single', components: [] });
  });

  it('refuses to delete a product that has stock (IN_USE)', async () => {
    const p = await create(a.token, { number: 'STOCKED', name: 'stocked' });
    const wh = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'STK', name: 'stk' }, token: a.token })
    ).json();
    const loc = (
      await ctx.api.warehouseRoutes.createStorageLocation({
        body: { warehouse_id: wh.id, code: 'STK-1' },
        token: a.token,
      })
    ).json();
    const hasStockTable = await queryRows<{ t: string | null }>(
      ctx.deps.database.db,
      sql`select to_regclass('stock_balances')::text as t`,
    );
    if (!hasStockTable[0]?.t) return; // the stock engine (issue #5) brings the table
    await ctx.deps.database.db.execute(
      sql`insert into stock_balances (customer_id, product_id, warehouse_id, location_id, on_hand) values (${a.customerId}, ${p.id}, ${wh.id}, ${loc.id}, 3)`,
    );
    expect((await ctx.api.catalogRoutes.deleteProduct({ params: { id: p.id }, token: a.token })).error().code).toBe(
      'IN_USE',
    );
    expect(
      (await ctx.api.warehouseRoutes.deleteStorageLocation({ params: { id: loc.id }, token: a.token })).error().code,
    ).toBe('IN_USE');
  });

  it('lists with search, filters, ordering and pagination', async () => {
    const c = await ctx.newCustomer();
    for (let i = 1; i <= 26; i++)
      await create(c.token, {
        number: `P${String(i).padStart(3, '0')}`,
        name: i % 2 ? `Odd apple ${i}` : `Even pear ${i}`,
        status: i > 20 ? 'inactive' : 'active',
        selling_price: String(100 - i),
      });
    const p1 = (await ctx.api.catalogRoutes.listProducts({ query: { page_size: '25' }, token: c.token })).json();
    expect(p1.count).toBe(26);
    expect(p1.results).toHaveLength(25);
    const p2 = (
      await ctx.api.catalogRoutes.listProducts({ query: { page_size: '25', page: '2' }, token: c.token })
    ).json();
    expect(p2.results.map((p: { number: string }) => p.number)).toEqual(['P026']);
    const search = (
      await ctx.api.catalogRoutes.listProducts({ query: { search: 'pear', page_size: '100' }, token: c.token })
    ).json();
    expect(search.count).toBe(13);
    const inactive = (
      await ctx.api.catalogRoutes.listProducts({ query: { status: 'inactive' }, token: c.token })
    ).json();
    expect(inactive.count).toBe(6);
    const cheapest = (
      await ctx.api.catalogRoutes.listProducts({
        query: { ordering: 'selling_price', page_size: '10' },
        token: c.token,
      })
    ).json();
    expect(cheapest.results[0]!.number).toBe('P026');
    const dearest = (
      await ctx.api.catalogRoutes.listProducts({ query: { ordering: '-selling_price' }, token: c.token })
    ).json();
    expect(dearest.results[0]!.number).toBe('P001');
    const ids = `${p1.results[0]!.id},${p1.results[1]!.id}`;
    expect((await ctx.api.catalogRoutes.listProducts({ query: { ids }, token: c.token })).json().count).toBe(2);
  });

  it("isolates sellers: B cannot see, change or delete A's products and categories (404)", async () => {
    const p = await create(a.token, { number: 'ISO-P', name: 'iso' });
    const cat = (
      await ctx.api.catalogRoutes.createProductCategory({ body: { code: 'ISO', name: 'iso' }, token: a.token })
    ).json();
    const pkg = (
      await ctx.api.catalogRoutes.createPackagingMaterial({ body: { code: 'ISO-BOX' }, token: a.token })
    ).json();
    const r = ctx.api.catalogRoutes;
    const rows = [
      {
        path: 'products',
        get: (token: string) => r.getProduct({ params: { id: p.id }, token }),
        update: (token: string) => r.updateProduct({ params: { id: p.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deleteProduct({ params: { id: p.id }, token }),
      },
      {
        path: 'product-categories',
        get: (token: string) => r.getProductCategory({ params: { id: cat.id }, token }),
        update: (token: string) => r.updateProductCategory({ params: { id: cat.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deleteProductCategory({ params: { id: cat.id }, token }),
      },
      {
        path: 'packaging-materials',
        get: (token: string) => r.getPackagingMaterial({ params: { id: pkg.id }, token }),
        update: (token: string) =>
          r.updatePackagingMaterial({ params: { id: pkg.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deletePackagingMaterial({ params: { id: pkg.id }, token }),
      },
    ];
    for (const { path, get, update, remove } of rows) {
      expect((await get(b.token)).statusCode, path).toBe(404);
      expect((await update(b.token)).statusCode, path).toBe(404);
      expect((await remove(b.token)).statusCode, path).toBe(404);
      expect((await get(a.token)).json().name, path).not.toBe('hacked');
    }
    expect((await ctx.api.catalogRoutes.bulkDeleteProducts({ body: { ids: [p.id] }, token: b.token })).statusCode).toBe(
      404,
    );
    expect(
      (await ctx.api.catalogRoutes.listProducts({ query: { search: 'ISO-P' }, token: b.token })).json().count,
    ).toBe(0);
    const useCat = await ctx.api.catalogRoutes.createProduct({
      body: { number: 'X', name: 'x', category_id: cat.id },
      token: b.token,
    });
    expect(useCat.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'category_id' } });
  });
});

describe(`packaging materials (${TEST_ENGINE})`, () => {
  it('creates, lists, edits and deletes with an integer inventory quantity', async () => {
    const box = (
      await ctx.api.catalogRoutes.createPackagingMaterial({
        body: {
          code: 'BOX-S',
          name: 'Small box',
          category: 'box',
          quantity: 120,
        },
        token: a.token,
      })
    ).json();
    expect(box).toMatchObject({ code: 'BOX-S', category: 'box', quantity: 120 });
    await ctx.api.catalogRoutes.createPackagingMaterial({
      body: { code: 'BAG-1', category: 'bag', quantity: 5 },
      token: a.token,
    });
    expect(
      (await ctx.api.catalogRoutes.listPackagingMaterials({ query: { category: 'box' }, token: a.token })).json().count,
    ).toBe(1);
    const neg = await ctx.api.catalogRoutes.updatePackagingMaterial({
      params: { id: box.id },
      body: { quantity: -1 },
      token: a.token,
    });
    expect(neg.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'quantity' } });
    const frac = await ctx.api.catalogRoutes.updatePackagingMaterial({
      params: { id: box.id },
      body: { quantity: 1.5 },
      token: a.token,
    });
    expect(frac.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'quantity' } });
    expect(
      (
        await ctx.api.catalogRoutes.updatePackagingMaterial({
          params: { id: box.id },
          body: { quantity: 99 },
          token: a.token,
        })
      ).json().quantity,
    ).toBe(99);
    expect(
      (await ctx.api.catalogRoutes.deletePackagingMaterial({ params: { id: box.id }, token: a.token })).statusCode,
    ).toBe(200);
    expect(
      (await ctx.api.catalogRoutes.getPackagingMaterial({ params: { id: box.id }, token: a.token })).statusCode,
    ).toBe(404);
  });
});
