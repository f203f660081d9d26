import { returnRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as dispatching from './dispatch-supplier-return';
import * as service from './returns.service';
import * as supplier from './supplier-returns.service';

const RETURN_COLUMNS: TSheetColumn[] = [
  { key: 'return_number', width: 18 },
  { key: 'warehouse_code' },
  { key: 'return_category' },
  { key: 'return_planned_date', width: 12 },
  { key: 'status' },
  { key: 'order_number', width: 18 },
  { key: 'consignment_number', width: 18 },
  { key: 'line_no', width: 8 },
  { key: 'product_number', width: 18 },
  { key: 'product_name', width: 28 },
  { key: 'expiry_date', width: 12 },
  { key: 'quantity', width: 10 },
  { key: 'accepted_quantity', width: 10 },
  { key: 'good_quantity', width: 10 },
  { key: 'defective_quantity', width: 10 },
  { key: 'location_code' },
  { key: 'defective_location_code' },
  { key: 'confirmed_at', width: 22 },
  { key: 'remark', width: 30 },
];

const SUPPLIER_COLUMNS: TSheetColumn[] = [
  { key: 'supplier_return_number', width: 18 },
  { key: 'warehouse_code' },
  { key: 'status' },
  { key: 'supplier_return_reason' },
  { key: 'supplier_name', width: 24 },
  { key: 'dispatch_date', width: 12 },
  { key: 'line_no', width: 8 },
  { key: 'product_number', width: 18 },
  { key: 'product_name', width: 28 },
  { key: 'location_code' },
  { key: 'expiry_date', width: 12 },
  { key: 'quantity', width: 10 },
  { key: 'consignment_number', width: 18 },
  { key: 'dispatched_at', width: 22 },
  { key: 'remark', width: 30 },
];

export function registerReturnRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, jobs: deps.jobs };
  const t = deps.tokens;

  route(app, t, r.listReturns, ({ actor, query }) => service.listReturns(d, actor, query));
  route(app, t, r.createReturn, ({ actor, body }) => service.createReturn(d, actor, body), { status: 201 });
  route(app, t, r.exportReturns, async ({ actor, query, lang, reply }) => {
    const rows = await service.exportReturns(d, actor, query, lang);
    return sendXlsx(reply, 'returns.xlsx', await writeWorkbook('returns', RETURN_COLUMNS, rows, lang));
  });
  route(app, t, r.lookupReturnOrder, ({ actor, query }) => service.lookupReturnOrder(d, actor, query.code));
  route(app, t, r.returnCounts, ({ actor, query }) => service.returnCounts(d, actor, query));
  route(app, t, r.getReturn, ({ actor, params }) => service.getReturn(d, actor, params.id));
  route(app, t, r.updateReturn, ({ actor, params, body }) => service.updateReturn(d, actor, params.id, body));
  route(app, t, r.deleteReturn, ({ actor, params }) => service.deleteReturn(d, actor, params.id));
  route(app, t, r.confirmReturn, ({ actor, params, body }) => service.confirmReturn(d, actor, params.id, body));
  route(app, t, r.cancelReturnConfirmation, ({ actor, params }) =>
    service.cancelReturnConfirmation(d, actor, params.id),
  );
  route(app, t, r.printReturn, ({ actor, params, lang }) => service.printReturn(d, actor, params.id, lang));

  route(app, t, r.listSupplierReturns, ({ actor, query }) => supplier.listSupplierReturns(d, actor, query));
  route(app, t, r.createSupplierReturn, ({ actor, body }) => supplier.createSupplierReturn(d, actor, body), {
    status: 201,
  });
  route(app, t, r.exportSupplierReturns, async ({ actor, query, lang, reply }) => {
    const rows = await supplier.exportSupplierReturns(d, actor, query, lang);
    return sendXlsx(
      reply,
      'supplier-returns.xlsx',
      await writeWorkbook('supplier-returns', SUPPLIER_COLUMNS, rows, lang),
    );
  });
  route(app, t, r.listSupplierReturnPiles, ({ actor, query }) => supplier.listPiles(d, actor, query));
  route(app, t, r.getSupplierReturn, ({ actor, params }) => supplier.getSupplierReturn(d, actor, params.id));
  route(app, t, r.updateSupplierReturn, ({ actor, params, body }) =>
    supplier.updateSupplierReturn(d, actor, params.id, body),
  );
  route(app, t, r.dispatchSupplierReturn, ({ actor, params, body }) =>
    dispatching.dispatchSupplierReturn(d, actor, params.id, body),
  );
  route(app, t, r.cancelSupplierReturn, ({ actor, params }) => dispatching.cancelSupplierReturn(d, actor, params.id));
  route(app, t, r.printSupplierReturn, ({ actor, params, lang }) =>
    supplier.printSupplierReturn(d, actor, params.id, lang),
  );
}
