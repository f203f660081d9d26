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

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token: string,
  payload?: unknown,
  lang?: string,
) => ctx.inject({ method, url, token, lang, ...(payload ? { payload: payload as object } : {}) });

async function seedStructure(token: string, prefix = 'WH') {
  const wh = (await call('POST', '/api/warehouses/', token, { code: `${prefix}1`, name: 'Main' })).json();
  const area = (await call('POST', '/api/areas/', token, { warehouse_id: wh.id, code: 'A', name: 'Area A' })).json();
  const shelf = (
    await call('POST', '/api/shelves/', token, {
      warehouse_id: wh.id,
      area_id: area.id,
      code: 'A01',
      name: 'Rack 1',
      category: 'heavy',
      layers: 3,
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

    const gen = await call('POST', `/api/shelves/${shelf.id}/generate-locations/`, a.token, {
      positions_per_layer: 4,
      cells: 2,
    });
    expect(gen.statusCode).toBe(200);
    expect(gen.json().created).toBe(12);
    expect(gen.json().codes).toContain('A01-03-04');
    // repeat: nothing new, nothing duplicated
    const again = await call('POST', `/api/shelves/${shelf.id}/generate-locations/`, a.token, {
      positions_per_layer: 5,
    });
    expect(again.json()).toMatchObject({ created: 3, skipped: 12 });

    const list = await call('GET', `/api/storage-locations/?shelf_id=${shelf.id}&page_size=25`, a.token);
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
    const shelfNow = (await call('GET', `/api/shelves/${shelf.id}/`, a.token)).json();
    expect(shelfNow.location_count).toBe(15);

    // lookup by the scanned code within a warehouse
    const byCode = await call('GET', `/api/storage-locations/?warehouse_id=${wh.id}&code=A01-02-03`, a.token);
    expect(byCode.json().count).toBe(1);
    expect(byCode.json().results[0].layer).toBe(2);
  });

  it('keeps codes unique within a warehouse, not across warehouses', async () => {
    const w1 = (await call('POST', '/api/warehouses/', a.token, { code: 'U1', name: 'One' })).json();
    const w2 = (await call('POST', '/api/warehouses/', a.token, { code: 'U2', name: 'Two' })).json();
    const dupWh = await call('POST', '/api/warehouses/', a.token, { code: 'U1', name: 'again' }, 'en');
    expect(dupWh.statusCode).toBe(409);
    expect(dupWh.json().error).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'code' } });
    expect(dupWh.json().error.message).toBe('Code already exists');
    expect(
      (await call('POST', '/api/storage-locations/', a.token, { warehouse_id: w1.id, code: 'X-1' })).statusCode,
    ).toBe(201);
    expect(
      (await call('POST', '/api/storage-locations/', a.token, { warehouse_id: w2.id, code: 'X-1' })).statusCode,
    ).toBe(201);
    const dup = await call('POST', '/api/storage-locations/', a.token, { warehouse_id: w1.id, code: 'X-1' });
    expect(dup.statusCode).toBe(409);
    // another seller may use the same warehouse code
    expect((await call('POST', '/api/warehouses/', b.token, { code: 'U1', name: 'B one' })).statusCode).toBe(201);
  });

  it('names the field of every validation error', async () => {
    const wh = (await call('POST', '/api/warehouses/', a.token, { code: 'V1', name: 'V' })).json();
    const missing = await call('POST', '/api/warehouses/', a.token, { code: 'V2' }, 'en');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: 'REQUIRED_FIELD', params: { field: 'name' } });
    const badCode = await call('POST', '/api/warehouses/', a.token, { code: 'has space', name: 'x' });
    expect(badCode.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'code' } });
    const layers = await call('POST', '/api/shelves/', a.token, {
      warehouse_id: wh.id,
      code: 'S',
      name: 'S',
      layers: 0,
    });
    expect(layers.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'layers' } });
    const kind = await call('POST', '/api/storage-locations/', a.token, {
      warehouse_id: wh.id,
      code: 'K',
      kind: 'nope',
    });
    expect(kind.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'kind' } });
    const cells = await call('POST', '/api/storage-locations/', a.token, { warehouse_id: wh.id, code: 'K', cells: 0 });
    expect(cells.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'cells' } });
    // an area of another warehouse cannot hold this shelf
    const other = (await call('POST', '/api/warehouses/', a.token, { code: 'V3', name: 'V3' })).json();
    const otherArea = (
      await call('POST', '/api/areas/', a.token, { warehouse_id: other.id, code: 'Z', name: 'Z' })
    ).json();
    const wrongArea = await call('POST', '/api/shelves/', a.token, {
      warehouse_id: wh.id,
      area_id: otherArea.id,
      code: 'S1',
      name: 'S1',
      layers: 2,
    });
    expect(wrongArea.statusCode).toBe(400);
    expect(wrongArea.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'area_id' } });
    const ordering = await call('GET', '/api/warehouses/?ordering=password', a.token);
    expect(ordering.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'ordering' } });
    const pageSize = await call('GET', '/api/warehouses/?page_size=7', a.token);
    expect(pageSize.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'page_size' } });
  });

  it('lists with search, filters, ordering and pages', async () => {
    const c = await ctx.newCustomer();
    for (const [code, name] of [
      ['W-B', 'Beta'],
      ['W-A', 'Alpha'],
      ['W-C', 'Gamma north'],
    ])
      await call('POST', '/api/warehouses/', c.token, { code, name });
    const asc = (await call('GET', '/api/warehouses/?ordering=code', c.token)).json();
    expect(asc.results.map((w: { code: string }) => w.code)).toEqual(['W-A', 'W-B', 'W-C']);
    const desc = (await call('GET', '/api/warehouses/?ordering=-name', c.token)).json();
    expect(desc.results.map((w: { name: string }) => w.name)).toEqual(['Gamma north', 'Beta', 'Alpha']);
    const search = (await call('GET', '/api/warehouses/?search=NORTH', c.token)).json();
    expect(search).toMatchObject({ count: 1, results: [{ code: 'W-C' }] });
    const wh = asc.results[0];
    const loc = { warehouse_id: wh.id };
    for (let i = 1; i <= 12; i++)
      await call('POST', '/api/storage-locations/', c.token, {
        ...loc,
        code: `L${String(i).padStart(2, '0')}`,
        kind: i > 10 ? 'defective' : 'sellable',
      });
    const page2 = (await call('GET', '/api/storage-locations/?page=2&page_size=10', c.token)).json();
    expect(page2.count).toBe(12);
    expect(page2.results.map((l: { code: string }) => l.code)).toEqual(['L11', 'L12']);
    const defective = (await call('GET', '/api/storage-locations/?kind=defective', c.token)).json();
    expect(defective.count).toBe(2);
    const like = (await call('GET', '/api/storage-locations/?search=%25', c.token)).json();
    expect(like.count).toBe(0);
  });

  it('exports an Excel file in the caller language', async () => {
    const c = await ctx.newCustomer();
    const wh = (await call('POST', '/api/warehouses/', c.token, { code: 'EX', name: 'Export' })).json();
    await call('POST', '/api/storage-locations/', c.token, { warehouse_id: wh.id, code: 'E-1', name: 'first' });
    const res = await call('GET', '/api/storage-locations/export/', c.token, undefined, 'en');
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
    await call('POST', `/api/shelves/${shelf.id}/generate-locations/`, a.token, { positions_per_layer: 1 });
    const whDel = await call('DELETE', `/api/warehouses/${wh.id}/`, a.token);
    expect(whDel.statusCode).toBe(409);
    expect(whDel.json().error.code).toBe('IN_USE');
    expect((await call('DELETE', `/api/shelves/${shelf.id}/`, a.token)).json().error.code).toBe('IN_USE');
    const locs = (await call('GET', `/api/storage-locations/?shelf_id=${shelf.id}`, a.token)).json();
    const ids = locs.results.map((l: { id: string }) => l.id);
    expect((await call('POST', '/api/storage-locations/bulk-delete/', a.token, { ids })).json()).toEqual({
      deleted: 3,
    });
    expect((await call('DELETE', `/api/shelves/${shelf.id}/`, a.token)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/areas/${area.id}/`, a.token)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/warehouses/${wh.id}/`, a.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/warehouses/${wh.id}/`, a.token)).statusCode).toBe(404);
  });

  it("isolates sellers: B cannot see, change or delete A's rows (404)", async () => {
    const { wh, area, shelf } = await seedStructure(a.token, 'ISO');
    const loc = (await call('POST', '/api/storage-locations/', a.token, { warehouse_id: wh.id, code: 'ISO-L' })).json();
    const rows: Array<[string, string]> = [
      ['warehouses', wh.id],
      ['areas', area.id],
      ['shelves', shelf.id],
      ['storage-locations', loc.id],
    ];
    for (const [path, id] of rows) {
      expect((await call('GET', `/api/${path}/${id}/`, b.token)).statusCode, path).toBe(404);
      expect((await call('PATCH', `/api/${path}/${id}/`, b.token, { name: 'hacked' })).statusCode, path).toBe(404);
      expect((await call('DELETE', `/api/${path}/${id}/`, b.token)).statusCode, path).toBe(404);
      expect((await call('GET', `/api/${path}/${id}/`, a.token)).json().name, path).not.toBe('hacked');
    }
    expect(
      (await call('POST', `/api/shelves/${shelf.id}/generate-locations/`, b.token, { positions_per_layer: 1 }))
        .statusCode,
    ).toBe(404);
    expect((await call('POST', '/api/storage-locations/bulk-delete/', b.token, { ids: [loc.id] })).statusCode).toBe(
      404,
    );
    // B cannot hang its rows under A's warehouse
    const under = await call('POST', '/api/areas/', b.token, { warehouse_id: wh.id, code: 'B', name: 'B' });
    expect(under.json().error).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'warehouse_id' } });
    const bList = (await call('GET', '/api/storage-locations/?search=ISO', b.token)).json();
    expect(bList.count).toBe(0);
    expect(
      (await call('GET', '/api/warehouses/?page_size=100', a.token))
        .json()
        .results.some((w: { code: string }) => w.code === 'ISO1'),
    ).toBe(true);
  });

  it('writes an audit row in the same transaction as the change', async () => {
    const c = await ctx.newCustomer();
    const wh = (await call('POST', '/api/warehouses/', c.token, { code: 'AU', name: 'Audit' })).json();
    await call('PATCH', `/api/warehouses/${wh.id}/`, c.token, { name: 'Audited' });
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
