import { INBOUND_CATEGORY_LABELS, INBOUND_STATUS_LABELS, inboundRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as service from './inbound.service';

const EXPORT_COLUMNS: TSheetColumn[] = [
  { key: 'receipt_number', width: 18 },
  { key: 'category', width: 12 },
  { key: 'status', width: 14 },
  { key: 'warehouse_code', width: 10 },
  { key: 'planned_date', width: 12 },
  { key: 'line_no', width: 6 },
  { key: 'product_number', width: 16 },
  { key: 'product_name', width: 28 },
  { key: 'barcode', width: 16 },
  { key: 'quantity', width: 10 },
  { key: 'expiry_date', width: 12 },
  { key: 'accepted_quantity', width: 10 },
  { key: 'defective_quantity', width: 10 },
  { key: 'good_quantity', width: 10 },
  { key: 'location_code', width: 14 },
  { key: 'defective_location_code', width: 14 },
  { key: 'remark', width: 24 },
  { key: 'confirmed_at', width: 20 },
];

export function registerInboundRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, jobs: deps.jobs };
  const t = deps.tokens;
  route(app, t, r.listReceipts, ({ actor, query }) => service.listReceipts(d, actor, query));
  route(app, t, r.createReceipt, ({ actor, body }) => service.createReceipt(d, actor, body), { status: 201 });
  route(app, t, r.getReceipt, ({ actor, params }) => service.getReceipt(d, actor, params.id));
  route(app, t, r.updateReceipt, ({ actor, params, body }) => service.updateReceipt(d, actor, params.id, body));
  route(app, t, r.deleteReceipt, ({ actor, params }) => service.deleteReceipt(d, actor, params.id));
  route(app, t, r.confirmReceipt, ({ actor, params, body }) => service.confirmReceipt(d, actor, params.id, body));
  route(app, t, r.cancelConfirmation, ({ actor, params }) => service.cancelConfirmation(d, actor, params.id));
  route(app, t, r.quickInbound, ({ actor, body }) => service.quickInbound(d, actor, body), { status: 201 });
  route(app, t, r.exportReceipts, async ({ actor, query, lang, reply }) => {
    const rows = (await service.exportReceipts(d, actor, query)).map((row) => ({
      ...row,
      status: INBOUND_STATUS_LABELS[row.status][lang],
      category: INBOUND_CATEGORY_LABELS[row.category as keyof typeof INBOUND_CATEGORY_LABELS]?.[lang] ?? row.category,
    }));
    return sendXlsx(reply, 'inbound-receipts.xlsx', await writeWorkbook('receipts', EXPORT_COLUMNS, rows, lang));
  });
  route(app, t, r.countReceipts, ({ actor, query }) => service.countReceipts(d, actor, query));
  route(app, t, r.printReceipt, ({ actor, params }) => service.printReceipt(d, actor, params.id));
  route(app, t, r.receiptQrLabel, ({ actor, params }) => service.receiptQrLabel(d, actor, params.id));
}
