import { invalidInput } from '@wms/contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function seedStructure(token: string, prefix = 'WH') {
  const wh = (
    await ctx.api.warehouseRoutes.createWarehouse({ body: { code: `${prefix}1`, name: 'Main' }, token })
  ).json();
  const area = (
    await ctx.api.warehouseRoutes.createArea({ body: { warehouse_id: wh.id, code: 'A', name: 'Area A' }, token })
  ).json();
  const shelf = (
    await ctx.api.warehouseRoutes.createShelf({
      body: {
        warehouse_id: wh.id,
        area_id: area.id,
        code: 'A01',
        name: 'Rack 1',
        category: 'heavy',
        layers: 3,
      },
      token,
    })
  ).json();
  return { wh, area, shelf };
}

describe(`warehouse structure (${TEST_ENGINE})`, () => {
  it('creates warehouse → area → shelf and generates the shelf locations layers × positions', async () => {
    const { wh, area, shelf } = await seedStructure(a.token);
    expect(wh).toMatchObject({ code: 'WH1', name: 'Main', address: '' });
    expect(area).toMatchObject({ warehouse_id: wh.id, warehouse_code: 'WH1', code: 'A' });
    expect(shelf).toMatchObject({ area_code: 'A', layers: 3, category: 'heavy', location_count: 0 });

    const gen = await ctx.api.warehouseRoutes.generateShelfLocations({
      params: { id: shelf.id },
      body: {
        positions_per_layer: 4,
        cells: 2,
      },
      token: a.token,
    });
    expect(gen.statusCode).toBe(200);
    expect(gen.json().created).toBe(12);
    expect(gen.json().codes).toContain('A01-03-04');
    // repeat: nothing new, nothing duplicated
    const again = await ctx.api.warehouseRoutes.generateShelfLocations({
      params: { id: shelf.id },
      body: {
        positions_per_layer: 5,
      },
      token: a.token,
    });
    expect(again.json()).toMatchObject({ created: 3, skipped: 12 });

    const list = await ctx.api.warehouseRoutes.listStorageLocations({
      query: { shelf_id: shelf.id, page_size: '25' },
      token: a.token,
    });
    expect(list.json().count).toBe(15);
    const first = list.json().results[0];
    expect(first).toMatchObject({
      code: 'A01-01-01',
      warehouse_code: 'WH1',
      area_code: 'A',
      shelf_code: 'A01',
      layer: 1,
      cells: 2,
      kind: 'sellable',
      is_active: true,
    });
    const shelfNow = (await ctx.api.warehouseRoutes.getShelf({ params: { id: shelf.id }, token: a.token })).json();
    expect(shelfNow.location_count).toBe(15);

    // lookup by the scanned code within a warehouse
    const byCode = await ctx.api.warehouseRoutes.listStorageLocations({
      query: { warehouse_id: wh.id, code: 'A01-02-03' },
      token: a.token,
    });
    expect(byCode.json().count).toBe(1);
    expect(byCode.json().results[0]!.layer).toBe(2);
  });

  it('keeps codes unique within a warehouse, not across warehouses', async () => {
    const w1 = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'U1', name: 'One' }, token: a.token })
    ).json();
    const w2 = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'U2', name: 'Two' }, token: a.token })
    ).json();
    const dupWh = await ctx.api.warehouseRoutes.createWarehouse({
      body: { code: 'U1', name: 'again' },
      token: a.token,
      lang: 'en',
    });
    expect(dupWh.statusCode).toBe(409);
    expect(dupWh.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'code' } });
    expect(dupWh.error().message).toBe('Code already exists');
    expect(
      (
        await ctx.api.warehouseRoutes.createStorageLocation({
          body: { warehouse_id: w1.id, code: 'X-1' },
          token: a.token,
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await ctx.api.warehouseRoutes.createStorageLocation({
          body: { warehouse_id: w2.id, code: 'X-1' },
          token: a.token,
        })
      ).statusCode,
    ).toBe(201);
    const dup = await ctx.api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: w1.id, code: 'X-1' },
      token: a.token,
    });
    expect(dup.statusCode).toBe(409);
    // another seller may use the same warehouse code
    expect(
      (await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'U1', name: 'B one' }, token: b.token }))
        .statusCode,
    ).toBe(201);
  });

  it('names the field of every validation error', async () => {
    const wh = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'V1', name: 'V' }, token: a.token })
    ).json();
    const missing = await ctx.api.warehouseRoutes.createWarehouse({
      body: invalidInput({ code: 'V2' }),
      token: a.token,
      lang: 'en',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.error()).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'name' } });
    const badCode = await ctx.api.warehouseRoutes.createWarehouse({
      body: { code: 'has space', name: 'x' },
      token: a.token,
    });
    expect(badCode.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'code' } });
    const layers = await ctx.api.warehouseRoutes.createShelf({
      body: {
        warehouse_id: wh.id,
        code: 'S',
        name: 'S',
        layers: 0,
      },
      token: a.token,
    });
    expect(layers.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'layers' } });
    const kind = await ctx.api.warehouseRoutes.createStorageLocation({
      body: {
        warehouse_id: wh.id,
        code: 'K',
        kind: invalidInput('nope'),
      },
      token: a.token,
    });
    expect(kind.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'kind' } });
    const cells = await ctx.api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: wh.id, code: 'K', cells: 0 },
      token: a.token,
    });
    expect(cells.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'cells' } });
    // an area of another warehouse cannot hold this shelf
    const other = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'V3', name: 'V3' }, token: a.token })
    ).json();
    const otherArea = (
      await ctx.api.warehouseRoutes.createArea({
        body: { warehouse_id: other.id, code: 'Z', name: 'Z' },
        token: a.token,
      })
    ).json();
    const wrongArea = await ctx.api.warehouseRoutes.createShelf({
      body: {
        warehouse_id: wh.id,
        area_id: otherArea.id,
        code: 'S1',
        name: 'S1',
        layers: 2,
      },
      token: a.token,
    });
    expect(wrongArea.statusCode).toBe(400);
    expect(wrongArea.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'area_id' } });
    const ordering = await ctx.api.warehouseRoutes.listWarehouses({ query: { ordering: 'password' }, token: a.token });
    expect(ordering.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'ordering' } });
    const pageSize = await ctx.api.warehouseRoutes.listWarehouses({ query: { page_size: '7' }, token: a.token });
    expect(pageSize.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'page_size' } });
  });

  it('lists with search, filters, ordering and pages', async () => {
    const c = await ctx.newCustomer();
    for (const [code, name] of [
      ['W-B', 'Beta'],
      ['W-A', 'Alpha'],
      ['W-C', 'Gamma north'],
    ] as const)
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code, name }, token: c.token });
    const asc = (await ctx.api.warehouseRoutes.listWarehouses({ query: { ordering: 'code' }, token: c.token })).json();
    expect(asc.results.map((w: { code: string }) => w.code)).toEqual(['W-A', 'W-B', 'W-C']);
    const desc = (
      await ctx.api.warehouseRoutes.listWarehouses({ query: { ordering: '-name' }, token: c.token })
    ).json();
    expect(desc.results.map((w: { name: string }) => w.name)).toEqual(['Gamma north', 'Beta', 'Alpha']);
    const search = (
      await ctx.api.warehouseRoutes.listWarehouses({ query: { search: 'NORTH' }, token: c.token })
    ).json();
    expect(search).toMatchObject({ count: 1, results: [{ code: 'W-C' }] });
    const wh = asc.results[0]!;
    const loc = { warehouse_id: wh.id };
    for (let i = 1; i <= 12; i++)
      await ctx.api.warehouseRoutes.createStorageLocation({
        body: {
          ...loc,
          code: `L${String(i).padStart(2, '0')}`,
          kind: i > 10 ? 'defective' : 'sellable',
        },
        token: c.token,
      });
    const page2 = (
      await ctx.api.warehouseRoutes.listStorageLocations({ query: { page: '2', page_size: '10' }, token: c.token })
    ).json();
    expect(page2.count).toBe(12);
    expect(page2.results.map((l: { code: string }) => l.code)).toEqual(['L11', 'L12']);
    const defective = (
      await ctx.api.warehouseRoutes.listStorageLocations({ query: { kind: 'defective' }, token: c.token })
    ).json();
    expect(defective.count).toBe(2);
    const like = (
      await ctx.api.warehouseRoutes.listStorageLocations({ query: { search: '%' }, token: c.token })
    ).json();
    expect(like.count).toBe(0);
  });

  it('exports an Excel file in the caller language', async () => {
    const c = await ctx.newCustomer();
    const wh = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'EX', name: 'Export' }, token: c.token })
    ).json();
    await ctx.api.warehouseRoutes.createStorageLocation({
      body: { warehouse_id: wh.id, code: 'E-1', name: 'first' },
      token: c.token,
    });
    const res = await ctx.api.warehouseRoutes.exportStorageLocations({ token: c.token, lang: 'en' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('Warehouse code *');
    expect(ws.getRow(2).getCell(2).value).toBe('E-1');
    expect(ws.getRow(2).getCell(3).value).toBe('first');
  });

  it('refuses to delete a warehouse or shelf that still has children (IN_USE), deletes leaf rows', async () => {
    const { wh, area, shelf } = await seedStructure(a.token, 'DEL');
    await ctx.api.warehouseRoutes.generateShelfLocations({
      params: { id: shelf.id },
      body: { positions_per_layer: 1 },
      token: a.token,
    });
    const whDel = await ctx.api.warehouseRoutes.deleteWarehouse({ params: { id: wh.id }, token: a.token });
    expect(whDel.statusCode).toBe(409);
    expect(whDel.error().code).toBe('IN_USE');
    expect((await ctx.api.warehouseRoutes.deleteShelf({ params: { id: shelf.id }, token: a.token })).error().code).toBe(
      'IN_USE',
    );
    const locs = (
      await ctx.api.warehouseRoutes.listStorageLocations({ query: { shelf_id: shelf.id }, token: a.token })
    ).json();
    const ids = locs.results.map((l: { id: string }) => l.id);
    expect(
      (await ctx.api.warehouseRoutes.bulkDeleteStorageLocations({ body: { ids }, token: a.token })).json(),
    ).toEqual({
      deleted: 3,
    });
    expect((await ctx.api.warehouseRoutes.deleteShelf({ params: { id: shelf.id }, token: a.token })).statusCode).toBe(
      200,
    );
    expect((await ctx.api.warehouseRoutes.deleteArea({ params: { id: area.id }, token: a.token })).statusCode).toBe(
      200,
    );
    expect((await ctx.api.warehouseRoutes.deleteWarehouse({ params: { id: wh.id }, token: a.token })).statusCode).toBe(
      200,
    );
    expect((await ctx.api.warehouseRoutes.getWarehouse({ params: { id: wh.id }, token: a.token })).statusCode).toBe(
      404,
    );
  });

  it("isolates sellers: B cannot see, change or delete A's rows (404)", async () => {
    const { wh, area, shelf } = await seedStructure(a.token, 'ISO');
    const loc = (
      await ctx.api.warehouseRoutes.createStorageLocation({
        body: { warehouse_id: wh.id, code: 'ISO-L' },
        token: a.token,
      })
    ).json();
    const r = ctx.api.warehouseRoutes;
    const rows = [
      {
        path: 'warehouses',
        get: (token: string) => r.getWarehouse({ params: { id: wh.id }, token }),
        update: (token: string) => r.updateWarehouse({ params: { id: wh.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deleteWarehouse({ params: { id: wh.id }, token }),
      },
      {
        path: 'areas',
        get: (token: string) => r.getArea({ params: { id: area.id }, token }),
        update: (token: string) => r.updateArea({ params: { id: area.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deleteArea({ params: { id: area.id }, token }),
      },
      {
        path: 'shelves',
        get: (token: string) => r.getShelf({ params: { id: shelf.id }, token }),
        update: (token: string) => r.updateShelf({ params: { id: shelf.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deleteShelf({ params: { id: shelf.id }, token }),
      },
      {
        path: 'storage-locations',
        get: (token: string) => r.getStorageLocation({ params: { id: loc.id }, token }),
        update: (token: string) => r.updateStorageLocation({ params: { id: loc.id }, body: { name: 'hacked' }, token }),
        remove: (token: string) => r.deleteStorageLocation({ params: { id: loc.id }, token }),
      },
    ];
    for (const { path, get, update, remove } of rows) {
      expect((await get(b.token)).statusCode, path).toBe(404);
      expect((await update(b.token)).statusCode, path).toBe(404);
      expect((await remove(b.token)).statusCode, path).toBe(404);
      expect((await get(a.token)).json().name, path).not.toBe('hacked');
    }
    expect(
      (
        await ctx.api.warehouseRoutes.generateShelfLocations({
          params: { id: shelf.id },
          body: { positions_per_layer: 1 },
          token: b.token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await ctx.api.warehouseRoutes.bulkDeleteStorageLocations({ body: { ids: [loc.id] }, token: b.token }))
        .statusCode,
    ).toBe(404);
    // B cannot hang its rows under A's warehouse
    const under = await ctx.api.warehouseRoutes.createArea({
      body: { warehouse_id: wh.id, code: 'B', name: 'B' },
      token: b.token,
    });
    expect(under.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'warehouse_id' } });
    const bList = (
      await ctx.api.warehouseRoutes.listStorageLocations({ query: { search: 'ISO' }, token: b.token })
    ).json();
    expect(bList.count).toBe(0);
    expect(
      (await ctx.api.warehouseRoutes.listWarehouses({ query: { page_size: '100' }, token: a.token }))
        .json()
        .results.some((w: { code: string }) => w.code === 'ISO1'),
    ).toBe(true);
  });

  it('writes an audit row in the same transaction as the change', async () => {
    const c = await ctx.newCustomer();
    const wh = (
      await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'AU', name: 'Audit' }, token: c.token })
    ).json();
    await ctx.api.warehouseRoutes.updateWarehouse({ params: { id: wh.id }, body: { name: 'Audited' }, token: c.token });
    const { sql } = await import('drizzle-orm');
    const { queryRows } = await import('../../../db/client');
    const rows = await queryRows<{ action: string; after: { name: string } }>(
      ctx.deps.database.db,
      sql`select action, after from audit_logs where entity = 'warehouse' and entity_id = ${wh.id} order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['create', 'update']);
    expect(rows[1]!.after.name).toBe('Audited');
  });
});
