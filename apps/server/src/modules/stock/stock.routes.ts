import { stockRoutes as r, STOCK_REASON_LABELS, type TStockReason } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { taipeiDateTime } from '../../platform/calendar';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { readOn } from '../../platform/replica';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as service from './stock.service';

const LOG_COLUMNS: TSheetColumn[] = [
  { key: 'created_at', width: 22 },
  { key: 'product_number', width: 16 },
  { key: 'product_name', width: 28 },
  { key: 'warehouse_code', width: 10 },
  { key: 'location_code', width: 14 },
  { key: 'expiry_date', width: 12 },
  { key: 'quantity', width: 10 },
  { key: 'on_hand_after', width: 12 },
  { key: 'reason', width: 16 },
  { key: 'document_number', width: 18 },
  { key: 'user_name', width: 16 },
  { key: 'note', width: 24 },
];

export function registerStockRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db };
  const t = deps.tokens;
  // Hot lists whose rows the service builds in the contract's shape: JSON.stringify instead of the zod encode
  // (stock.routes.int.test checks each answer is its own zod parse).
  route(app, t, r.productStock, ({ actor, query }) => service.productStock(d, actor, query), {
    serialize: 'json',
    grants: 'first-statement',
  });
  route(app, t, r.productLocation, ({ actor, query }) => service.productLocations(d, actor, query));
  route(app, t, r.locationStock, ({ actor, query }) => service.locationStock(d, actor, query));
  // The stock log (list with its count, and export) reads on the streaming replica when it has the caller's writes;
  // the caller's grants are then read on the primary first (a role change acts at once, never a replica's lag later).
  const replica = !!deps.database.replica;
  route(
    app,
    t,
    r.stockLog,
    async ({ actor, query }) => readOn(deps.database, actor, (db) => service.stockLog({ db }, actor, query)),
    { serialize: 'json', grants: replica ? 'before' : 'first-statement' },
  );
  route(app, t, r.exportStockLog, async ({ actor, query, lang, reply }) => {
    // As the screen shows them: the reason in the user's language, the time in Taipei.
    const rows = (await readOn(deps.database, actor, (db) => service.exportStockLog({ db }, actor, query))).map(
      (m) => ({
        ...m,
        created_at: taipeiDateTime(m.created_at),
        reason: STOCK_REASON_LABELS[m.reason as TStockReason]?.[lang] ?? m.reason,
      }),
    );
    return sendXlsx(reply, 'stock-log.xlsx', await writeWorkbook('stock-log', LOG_COLUMNS, rows, lang));
  });
  route(app, t, r.transfer, ({ actor, body }) => service.transferOne(d, actor, body));
  route(app, t, r.multiTransfer, ({ actor, body }) => service.transferMany(d, actor, body));
  route(app, t, r.expiryCandidates, ({ actor, query }) => service.expiryCandidates(d, actor, query));
  route(app, t, r.expiryTransfer, ({ actor, body }) => service.transferExpired(d, actor, body));
}
