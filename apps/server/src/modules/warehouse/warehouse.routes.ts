import { warehouseRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { IMPORT_NOTE, queueSheetImport, UPLOAD_BODY_LIMIT } from '../../platform/importing';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import { LOCATION_COLUMNS, locationImport, locationSheetRow } from './warehouse.import';
import * as locations from './warehouse.locations';
import * as service from './warehouse.service';

const WAREHOUSE_COLUMNS: TSheetColumn[] = [{ key: 'code' }, { key: 'name', width: 24 }, { key: 'address', width: 40 }];
const AREA_COLUMNS: TSheetColumn[] = [{ key: 'warehouse_code' }, { key: 'code' }, { key: 'name', width: 24 }];
const SHELF_COLUMNS: TSheetColumn[] = [
  { key: 'warehouse_code' },
  { key: 'area_code' },
  { key: 'code' },
  { key: 'name', width: 24 },
  { key: 'category' },
  { key: 'layers' },
  { key: 'location_count' },
];

export function registerWarehouseRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, printerHosts: deps.config.labelPrinterHosts };
  const t = deps.tokens;

  route(app, t, r.listWarehouses, ({ actor, query }) => service.listWarehouses(d, actor, query));
  route(app, t, r.exportWarehouses, async ({ actor, query, lang, reply }) => {
    const rows = await service.exportWarehouses(d, actor, query);
    return sendXlsx(reply, 'warehouses.xlsx', await writeWorkbook('warehouses', WAREHOUSE_COLUMNS, rows, lang));
  });
  route(app, t, r.createWarehouse, ({ actor, body }) => service.createWarehouse(d, actor, body), { status: 201 });
  route(app, t, r.getWarehouse, ({ actor, params }) => service.getWarehouse(d, actor, params.id));
  route(app, t, r.renumberWalk, ({ actor, params, body }) => service.renumberWarehouseWalk(d, actor, params.id, body));
  route(app, t, r.updateWarehouse, ({ actor, params, body }) => service.updateWarehouse(d, actor, params.id, body));
  route(app, t, r.deleteWarehouse, ({ actor, params }) => service.deleteWarehouse(d, actor, params.id));

  route(app, t, r.listAreas, ({ actor, query }) => service.listAreas(d, actor, query));
  route(app, t, r.exportAreas, async ({ actor, query, lang, reply }) => {
    const rows = await service.exportAreas(d, actor, query);
    return sendXlsx(reply, 'areas.xlsx', await writeWorkbook('areas', AREA_COLUMNS, rows, lang));
  });
  route(app, t, r.createArea, ({ actor, body }) => service.createArea(d, actor, body), { status: 201 });
  route(app, t, r.getArea, ({ actor, params }) => service.getArea(d, actor, params.id));
  route(app, t, r.updateArea, ({ actor, params, body }) => service.updateArea(d, actor, params.id, body));
  route(app, t, r.deleteArea, ({ actor, params }) => service.deleteArea(d, actor, params.id));

  route(app, t, r.listShelves, ({ actor, query }) => locations.listShelves(d, actor, query));
  route(app, t, r.exportShelves, async ({ actor, query, lang, reply }) => {
    const rows = await locations.exportShelves(d, actor, query);
    return sendXlsx(reply, 'shelves.xlsx', await writeWorkbook('shelves', SHELF_COLUMNS, rows, lang));
  });
  route(app, t, r.createShelf, ({ actor, body }) => locations.createShelf(d, actor, body), { status: 201 });
  route(app, t, r.getShelf, ({ actor, params }) => locations.getShelf(d, actor, params.id));
  route(app, t, r.updateShelf, ({ actor, params, body }) => locations.updateShelf(d, actor, params.id, body));
  route(app, t, r.deleteShelf, ({ actor, params }) => locations.deleteShelf(d, actor, params.id));
  route(app, t, r.generateShelfLocations, ({ actor, params, body }) =>
    locations.generateShelfLocations(d, actor, params.id, body),
  );

  route(app, t, r.listStorageLocations, ({ actor, query }) => locations.listLocations(d, actor, query));
  route(app, t, r.exportStorageLocations, async ({ actor, query, lang, reply }) => {
    const rows = (await locations.exportLocations(d, actor, query)).map((l) => locationSheetRow(l, lang));
    return sendXlsx(reply, 'storage-locations.xlsx', await writeWorkbook('locations', LOCATION_COLUMNS, rows, lang));
  });
  route(app, t, r.createStorageLocation, ({ actor, body }) => locations.createLocation(d, actor, body), {
    status: 201,
  });
  route(app, t, r.getStorageLocation, ({ actor, params }) => locations.getLocation(d, actor, params.id));
  route(app, t, r.updateStorageLocation, ({ actor, params, body }) =>
    locations.updateLocation(d, actor, params.id, body),
  );
  route(app, t, r.deleteStorageLocation, async ({ actor, params }) => {
    await locations.deleteLocations(d, actor, [params.id]);
    return { ok: true as const };
  });
  route(app, t, r.bulkDeleteStorageLocations, ({ actor, body }) => locations.deleteLocations(d, actor, body.ids));

  route(app, t, r.storageLocationImportTemplate, async ({ lang, reply }) =>
    sendXlsx(
      reply,
      'storage-locations-template.xlsx',
      await writeWorkbook('locations', LOCATION_COLUMNS, [], lang, [IMPORT_NOTE[lang]]),
    ),
  );
  route(
    app,
    t,
    r.importStorageLocations,
    ({ actor, body, lang }) => queueSheetImport({ db: d.db, jobs: deps.jobs }, actor, locationImport, body, lang),
    { status: 202, bodyLimit: UPLOAD_BODY_LIMIT },
  );
}
