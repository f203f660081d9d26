import { ANALYSIS_COLUMN_LABELS, analysisRoutes as r, STOCK_AGE_BUCKETS } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import type { TActor } from '../../platform/auth';
import { taipeiDateTime } from '../../platform/calendar';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { readOn } from '../../platform/replica';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as service from './analysis.service';

const col = (key: string, width = 12, text = false): TSheetColumn => ({
  key,
  width,
  text,
  ...(ANALYSIS_COLUMN_LABELS[key] ? { header: ANALYSIS_COLUMN_LABELS[key] } : {}),
});
const PRODUCT_COLUMNS = [col('product_number', 16, true), col('product_name', 28)];

const ADVICE_COLUMNS: TSheetColumn[] = [
  ...PRODUCT_COLUMNS,
  col('warehouse_code', 10, true),
  col('safety_stock'),
  col('stocking_days'),
  col('units_out'),
  col('avg_daily_out'),
  col('on_hand'),
  col('available'),
  col('incoming'),
  col('days_left'),
  col('advised'),
];
const TURNOVER_COLUMNS: TSheetColumn[] = [
  ...PRODUCT_COLUMNS,
  col('units_out'),
  col('avg_stock'),
  col('on_hand'),
  col('turnover'),
  col('days_of_supply'),
  col('cost'),
  col('stock_value'),
  col('last_out_at', 18),
  col('slow'),
  col('dead'),
];
const AGE_COLUMNS: TSheetColumn[] = [
  ...PRODUCT_COLUMNS,
  col('warehouse_code', 10, true),
  col('location_code', 14, true),
  col('on_hand'),
  ...STOCK_AGE_BUCKETS.map((b) => col(b)),
  col('oldest_days'),
  col('nearest_expiry'),
  col('sellable_rule_months'),
];
const DELIVER_COLUMNS: TSheetColumn[] = [
  col('period'),
  col('key', 14),
  col('orders'),
  col('lines'),
  col('units'),
  col('cod_orders'),
  col('cod_amount'),
  col('avg_hours_to_ship'),
];

const OCCUPANCY_COLUMNS: TSheetColumn[] = [
  col('warehouse_code', 10, true),
  col('area_code', 10, true),
  col('shelf_code', 10, true),
  col('locations'),
  col('cells'),
  col('empty'),
  col('in_use'),
  col('full'),
  col('piles'),
  col('units'),
  col('expired_locations'),
  col('unsellable_locations'),
];

const yesNo = (v: boolean) => (v ? 'Y' : '');

export function registerAnalysisRoutes(app: FastifyInstance, deps: TAppDeps): void {
  // Every call here reads a lot and writes nothing: on the streaming replica when it has the caller's writes.
  const on = <T>(actor: TActor, work: (d: { db: Db }) => Promise<T>) =>
    readOn(deps.database, actor, (db) => work({ db }));
  const t = deps.tokens;
  route(app, t, r.purchaseAdvice, async ({ actor, query }) =>
    on(actor, (d) => service.purchaseAdvice(d, actor, query)),
  );
  route(app, t, r.exportPurchaseAdvice, async ({ actor, query, lang, reply }) => {
    const rows = await on(actor, (d) => service.exportPurchaseAdvice(d, actor, query));
    return sendXlsx(reply, 'purchase-advice.xlsx', await writeWorkbook('purchase-advice', ADVICE_COLUMNS, rows, lang));
  });
  route(app, t, r.productTurnover, async ({ actor, query }) =>
    on(actor, (d) => service.productTurnover(d, actor, query)),
  );
  route(app, t, r.exportProductTurnover, async ({ actor, query, lang, reply }) => {
    const rows = (await on(actor, (d) => service.exportProductTurnover(d, actor, query))).map((x) => ({
      ...x,
      last_out_at: taipeiDateTime(x.last_out_at),
      slow: yesNo(x.slow),
      dead: yesNo(x.dead),
    }));
    return sendXlsx(reply, 'product-turnover.xlsx', await writeWorkbook('turnover', TURNOVER_COLUMNS, rows, lang));
  });
  route(app, t, r.stockAge, async ({ actor, query }) => on(actor, (d) => service.stockAge(d, actor, query)));
  route(app, t, r.exportStockAge, async ({ actor, query, lang, reply }) => {
    const rows = (await on(actor, (d) => service.exportStockAge(d, actor, query))).map(({ buckets, ...x }) => ({
      ...x,
      ...buckets,
    }));
    return sendXlsx(reply, 'stock-age.xlsx', await writeWorkbook('stock-age', AGE_COLUMNS, rows, lang));
  });
  route(app, t, r.deliverStatistics, async ({ actor, query }) =>
    on(actor, (d) => service.deliverStatistics(d, actor, query)),
  );
  route(app, t, r.exportDeliverStatistics, async ({ actor, query, lang, reply }) => {
    const stats = await on(actor, (d) => service.deliverStatistics(d, actor, query));
    return sendXlsx(
      reply,
      'deliver-statistics.xlsx',
      await writeWorkbook('deliver-statistics', DELIVER_COLUMNS, stats.rows, lang),
    );
  });
  route(app, t, r.locationOccupancy, async ({ actor, query }) =>
    on(actor, (d) => service.locationOccupancy(d, actor, query)),
  );
  route(app, t, r.exportLocationOccupancy, async ({ actor, query, lang, reply }) => {
    const { results } = await on(actor, (d) => service.locationOccupancy(d, actor, query));
    return sendXlsx(
      reply,
      'location-occupancy.xlsx',
      await writeWorkbook('occupancy', OCCUPANCY_COLUMNS, results, lang),
    );
  });
  route(app, t, r.dashboard, async ({ actor }) => on(actor, (d) => service.dashboard(d, actor)));
}
