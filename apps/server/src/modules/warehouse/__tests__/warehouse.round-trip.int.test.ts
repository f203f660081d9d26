import { type TStorageLocation, warehouseRoutes } from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { expectExportReimports } from '../../../test/import-job';

/**
 * The storage-location list's Excel export is the location import's file: exported in any language, it imports again
 * (into the same seller: nothing changes; into another seller with the same warehouse structure: the same locations).
 */

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

/** A seller with warehouse W1 (area A, shelf S1 of 3 layers in it) and warehouse W2. */
async function sellerWithStructure() {
  const c = await ctx.newCustomer();
  const w1 = (
    await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'W1', name: 'Main' }, token: c.token })
  ).json();
  await ctx.api.warehouseRoutes.createWarehouse({ body: { code: 'W2', name: 'Second' }, token: c.token });
  const area = (
    await ctx.api.warehouseRoutes.createArea({
      body: { warehouse_id: w1.id, code: 'A', name: 'Area A' },
      token: c.token,
    })
  ).json();
  const shelf = (
    await ctx.api.warehouseRoutes.createShelf({
      body: {
        warehouse_id: w1.id,
        area_id: area.id,
        code: 'S1',
        name: 'Shelf 1',
        layers: 3,
      },
      token: c.token,
    })
  ).json();
  const w2 = (await ctx.api.warehouseRoutes.listWarehouses({ query: { code: 'W2' }, token: c.token })).json()
    .results[0];
  return { ...c, w1, w2, area, shelf };
}

/** What a location is, without ids and times: its warehouse, area and shelf by code. */
async function locationsOf(token: string) {
  const list = (
    await ctx.api.warehouseRoutes.listStorageLocations({ query: { ordering: 'code', page_size: '100' }, token })
  ).json();
  return (list.results as TStorageLocation[])
    .map(({ id: _i, warehouse_id: _w, area_id: _a, shelf_id: _s, created_at: _c, updated_at: _u, ...rest }) => rest)
    .sort((x, y) => `${x.warehouse_code}/${x.code}`.localeCompare(`${y.warehouse_code}/${y.code}`));
}

describe(`storage location export → import (${TEST_ENGINE})`, () => {
  it('re-imports its own export in every language, and carries every field to another seller', async () => {
    const a = await sellerWithStructure();
    const created = [
      {
        warehouse_id: a.w1.id,
        code: 'S1-01',
        name: '上層',
        shelf_id: a.shelf.id,
        layer: 3,
        cells: 4,
        pick_sequence: 10,
      },
      { warehouse_id: a.w1.id, code: 'RET', name: 'Returns', area_id: a.area.id, kind: 'defective', is_active: false },
      { warehouse_id: a.w1.id, code: 'EXP', kind: 'expired', pick_sequence: 900 },
      { warehouse_id: a.w2!.id, code: 'S1-01', name: 'same code, other warehouse', kind: 'staging' },
    ] as const;
    for (const body of created) {
      const res = await ctx.api.warehouseRoutes.createStorageLocation({ body, token: a.token });
      expect(res.statusCode, res.body).toBe(201);
    }
    const before = await locationsOf(a.token);
    expect(before.map((l) => `${l.warehouse_code}/${l.code}:${l.kind}`)).toEqual([
      'W1/EXP:expired',
      'W1/RET:defective',
      'W1/S1-01:sellable',
      'W2/S1-01:staging',
    ]);

    await expectExportReimports(ctx, {
      exportRoute: warehouseRoutes.exportStorageLocations,
      importRoute: warehouseRoutes.importStorageLocations,
      home: a.token,
      other: (await sellerWithStructure()).token,
      rows: 4,
      snapshot: locationsOf,
    });
  });
});
