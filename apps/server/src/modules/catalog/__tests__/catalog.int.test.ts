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

type M = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: M, url: string, token: string, payload?: unknown, lang?: string) =>
  ctx.inject({ method, url, token, lang, ...(payload ? { payload: payload as object } : {}) });
const create = async (token: string, body: Record<string, unknown>) => {
  const res = await call('POST', '/api/products/', token, body);
  if (res.statusCode !== 201) throw new Error(`create failed ${res.statusCode} ${res.body}`);
  return res.json();
};

describe(`product categories (${TEST_ENGINE})`, () => {
  it('every seller has the default category 0015 "other", which cannot be deleted or recoded', async () => {
    const c = await ctx.newCustomer();
    const list = (await call('GET', '/api/product-categories/', c.token)).json();
    expect(list.count).toBe(1);
    expect(list.results[0]).toMatchObject({ code: '0015', name: '其他', is_default: true });
    const id = list.results[0].id;
    const del = await call('DELETE', `/api/product-categories/${id}/`, c.token, undefined, 'en');
    expect(del.statusCode).toBe(409);
    expect(del.json().error.code).toBe('DEFAULT_CATEGORY_LOCKED');
    const recode = await call('PATCH', `/api/product-categories/${id}/`, c.token, { code: '0001' });
    expect(recode.json().error).toMatchObject({ code: 'DEFAULT_CATEGORY_LOCKED', params: { field: 'code' } });
    expect((await call('PATCH', `/api/product-categories/${id}/`, c.token, { name: '其它' })).json().name).toBe('其它');
  });

  it('puts a product without category into 0015, even when the seller never opened the category list', async () => {
    const c = await ctx.newCustomer();
    const p = await create(c.token, { number: 'NOCAT', name: 'No category' });
    expect(p.category_code).toBe('0015');
    const cats = (await call('GET', '/api/product-categories/', c.token)).json();
    expect(cats.results[0].product_count).toBe(1);
  });

  it('creates, renames and deletes a category; one with products is IN_USE', async () => {
    const cat = (await call('POST', '/api/product-categories/', a.token, { code: 'C01', name: 'Drinks' })).json();
    expect(cat).toMatchObject({ code: 'C01', is_default: false, product_count: 0 });
    const dup = await call('POST', '/api/product-categories/', a.token, { code: 'C01', name: 'again' });
    expect(dup.json().error).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'code' } });
    await create(a.token, { number: 'DRINK-1', name: 'Tea', category_id: cat.id });
    expect((await call('DELETE', `/api/product-categories/${cat.id}/`, a.token)).json().error.code).toBe('IN_USE');
    const empty = (await call('POST', '/api/product-categories/', a.token, { code: 'C02', name: 'Empty' })).json();
    expect((await call('DELETE', `/api/product-categories/${empty.id}/`, a.token)).statusCode).toBe(200);
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
    };
    const p = await create(a.token, full);
    expect(p).toMatchObject({ ...full, components: [], category_code: '0015' });
    expect((await call('GET', `/api/products/${p.id}/`, a.token)).json()).toMatchObject(full);
    const byNumber = await call('GET', '/api/products/lookup/?code=FULL-001', a.token);
    const byBarcode = await call('GET', '/api/products/lookup/?code=4006381333931', a.token);
    expect(byNumber.json().id).toBe(p.id);
    expect(byBarcode.json().id).toBe(p.id);
    expect((await call('GET', '/api/products/lookup/?code=4006381333931', b.token)).statusCode).toBe(404);
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
      const res = await call('POST', '/api/products/', a.token, { number: 'V-1', name: 'v', ...patch }, 'en');
      expect(res.statusCode, JSON.stringify(patch)).toBeGreaterThanOrEqual(400);
      expect(res.json().error, JSON.stringify(patch)).toMatchObject({ code, params: { field } });
    }
    const msg = await call('POST', '/api/products/', a.token, { number: 'V-1', name: 'v', barcode: '123' }, 'en');
    expect(msg.json().error.message).toBe('International barcode is not valid');
    // valid UPC-A, EAN-8 and alphanumeric codes pass
    for (const [i, barcode] of ['036000291452', '96385074', 'SKU-ABC-01'].entries())
      expect(
        (await call('POST', '/api/products/', a.token, { number: `BC-${i}`, name: 'b', barcode })).statusCode,
      ).toBe(201);
    const missingNumber = await call('POST', '/api/products/', a.token, { name: 'x' });
    expect(missingNumber.json().error).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'number' } });
  });

  it('keeps numbers and barcodes unique per seller', async () => {
    await create(a.token, { number: 'UNQ', name: 'u', barcode: '4710088432216' });
    const dupNumber = await call('POST', '/api/products/', a.token, { number: 'UNQ', name: 'u2' });
    expect(dupNumber.json().error).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'number' } });
    const dupBarcode = await call('POST', '/api/products/', a.token, {
      number: 'UNQ2',
      name: 'u',
      barcode: '4710088432216',
    });
    expect(dupBarcode.json().error).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'barcode' } });
    expect(
      (await call('POST', '/api/products/', b.token, { number: 'UNQ', name: 'b', barcode: '4710088432216' }))
        .statusCode,
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
    const nested = await call('POST', '/api/products/', a.token, {
      number: 'KIT-2',
      name: 'nested',
      type: 'combination',
      components: [{ component_id: kit.id, quantity: 1 }],
    });
    expect(nested.json().error).toMatchObject({
      code: 'COMBINATION_INVALID',
      params: { field: 'components', number: 'KIT-1' },
    });
    const twice = await call('POST', '/api/products/', a.token, {
      number: 'KIT-3',
      name: 'twice',
      type: 'combination',
      components: [
        { component_id: s1.id, quantity: 1 },
        { component_id: s1.id, quantity: 1 },
      ],
    });
    expect(twice.json().error.code).toBe('COMBINATION_INVALID');
    const zero = await call('POST', '/api/products/', a.token, {
      number: 'KIT-4',
      name: 'zero',
      type: 'combination',
      components: [{ component_id: s1.id, quantity: 0 }],
    });
    expect(zero.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'components.0.quantity' } });
    // a component cannot become a combination (that would nest), nor list itself
    const becomeCombo = await call('PATCH', `/api/products/${s1.id}/`, a.token, {
      type: 'combination',
      components: [{ component_id: s2.id, quantity: 1 }],
    });
    expect(becomeCombo.json().error).toMatchObject({ code: 'COMBINATION_INVALID', params: { field: 'type' } });
    const self = await call('PATCH', `/api/products/${kit.id}/`, a.token, {
      components: [{ component_id: kit.id, quantity: 1 }],
    });
    expect(self.json().error.code).toBe('COMBINATION_INVALID');
    // B's product is not a component A can use
    const foreign = await create(b.token, { number: 'B-S', name: 'b single' });
    const useForeign = await call('PATCH', `/api/products/${kit.id}/`, a.token, {
      components: [{ component_id: foreign.id, quantity: 1 }],
    });
    expect(useForeign.json().error.code).toBe('COMBINATION_INVALID');
    // replace components
    const changed = await call('PATCH', `/api/products/${kit.id}/`, a.token, {
      components: [{ component_id: s2.id, quantity: 3 }],
    });
    expect(changed.json().components).toMatchObject([{ number: 'KIT-S2', quantity: 3 }]);
    // a component in use cannot be deleted, but can be deactivated
    const del = await call('DELETE', `/api/products/${s2.id}/`, a.token, undefined, 'en');
    expect(del.statusCode).toBe(409);
    expect(del.json().error).toMatchObject({ code: 'IN_USE', message: 'This record is in use and cannot be deleted' });
    expect((await call('PATCH', `/api/products/${s2.id}/`, a.token, { status: 'inactive' })).json().status).toBe(
      'inactive',
    );
    // the kit itself can go, and its component rows with it; then the component is free
    expect((await call('DELETE', `/api/products/${kit.id}/`, a.token)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/products/${s2.id}/`, a.token)).statusCode).toBe(200);
    // turning a combination back into a single product clears its components
    const kit2 = await create(a.token, {
      number: 'KIT-5',
      name: 'kit',
      type: 'combination',
      components: [{ component_id: s1.id, quantity: 1 }],
    });
    const single = (await call('PATCH', `/api/products/${kit2.id}/`, a.token, { type: 'single' })).json();
    expect(single).toMatchObject({ type: 'single', components: [] });
  });

  it('refuses to delete a product that has stock (IN_USE)', async () => {
    const p = await create(a.token, { number: 'STOCKED', name: 'stocked' });
    const wh = (await call('POST', '/api/warehouses/', a.token, { code: 'STK', name: 'stk' })).json();
    const loc = (await call('POST', '/api/storage-locations/', a.token, { warehouse_id: wh.id, code: 'STK-1' })).json();
    const hasStockTable = await queryRows<{ t: string | null }>(
      ctx.deps.database.db,
      sql`select to_regclass('stock_balances')::text as t`,
    );
    if (!hasStockTable[0]?.t) return; // the stock engine (issue #5) brings the table
    await ctx.deps.database.db.execute(
      sql`insert into stock_balances (customer_id, product_id, warehouse_id, location_id, on_hand) values (${a.customerId}, ${p.id}, ${wh.id}, ${loc.id}, 3)`,
    );
    expect((await call('DELETE', `/api/products/${p.id}/`, a.token)).json().error.code).toBe('IN_USE');
    expect((await call('DELETE', `/api/storage-locations/${loc.id}/`, a.token)).json().error.code).toBe('IN_USE');
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
    const p1 = (await call('GET', '/api/products/?page_size=25', c.token)).json();
    expect(p1.count).toBe(26);
    expect(p1.results).toHaveLength(25);
    const p2 = (await call('GET', '/api/products/?page_size=25&page=2', c.token)).json();
    expect(p2.results.map((p: { number: string }) => p.number)).toEqual(['P026']);
    const search = (await call('GET', '/api/products/?search=pear&page_size=100', c.token)).json();
    expect(search.count).toBe(13);
    const inactive = (await call('GET', '/api/products/?status=inactive', c.token)).json();
    expect(inactive.count).toBe(6);
    const cheapest = (await call('GET', '/api/products/?ordering=selling_price&page_size=10', c.token)).json();
    expect(cheapest.results[0].number).toBe('P026');
    const dearest = (await call('GET', '/api/products/?ordering=-selling_price', c.token)).json();
    expect(dearest.results[0].number).toBe('P001');
    const ids = `${p1.results[0].id},${p1.results[1].id}`;
    expect((await call('GET', `/api/products/?ids=${ids}`, c.token)).json().count).toBe(2);
  });

  it("isolates sellers: B cannot see, change or delete A's products and categories (404)", async () => {
    const p = await create(a.token, { number: 'ISO-P', name: 'iso' });
    const cat = (await call('POST', '/api/product-categories/', a.token, { code: 'ISO', name: 'iso' })).json();
    const pkg = (await call('POST', '/api/packaging-materials/', a.token, { code: 'ISO-BOX' })).json();
    for (const url of [
      `/api/products/${p.id}/`,
      `/api/product-categories/${cat.id}/`,
      `/api/packaging-materials/${pkg.id}/`,
    ]) {
      expect((await call('GET', url, b.token)).statusCode, url).toBe(404);
      expect((await call('PATCH', url, b.token, { name: 'hacked' })).statusCode, url).toBe(404);
      expect((await call('DELETE', url, b.token)).statusCode, url).toBe(404);
      expect((await call('GET', url, a.token)).json().name, url).not.toBe('hacked');
    }
    expect((await call('POST', '/api/products/bulk-delete/', b.token, { ids: [p.id] })).statusCode).toBe(404);
    expect((await call('GET', '/api/products/?search=ISO-P', b.token)).json().count).toBe(0);
    const useCat = await call('POST', '/api/products/', b.token, { number: 'X', name: 'x', category_id: cat.id });
    expect(useCat.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'category_id' } });
  });
});

describe(`packaging materials (${TEST_ENGINE})`, () => {
  it('creates, lists, edits and deletes with an integer inventory quantity', async () => {
    const box = (
      await call('POST', '/api/packaging-materials/', a.token, {
        code: 'BOX-S',
        name: 'Small box',
        category: 'box',
        quantity: 120,
      })
    ).json();
    expect(box).toMatchObject({ code: 'BOX-S', category: 'box', quantity: 120 });
    await call('POST', '/api/packaging-materials/', a.token, { code: 'BAG-1', category: 'bag', quantity: 5 });
    expect((await call('GET', '/api/packaging-materials/?category=box', a.token)).json().count).toBe(1);
    const neg = await call('PATCH', `/api/packaging-materials/${box.id}/`, a.token, { quantity: -1 });
    expect(neg.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'quantity' } });
    const frac = await call('PATCH', `/api/packaging-materials/${box.id}/`, a.token, { quantity: 1.5 });
    expect(frac.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'quantity' } });
    expect(
      (await call('PATCH', `/api/packaging-materials/${box.id}/`, a.token, { quantity: 99 })).json().quantity,
    ).toBe(99);
    expect((await call('DELETE', `/api/packaging-materials/${box.id}/`, a.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/packaging-materials/${box.id}/`, a.token)).statusCode).toBe(404);
  });
});
