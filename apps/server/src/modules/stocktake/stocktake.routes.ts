import { stocktakeRoutes as r, STOCKTAKE_VALUE_LABELS, type TLanguage, type TStocktakeReport } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as closing from './close-stocktake';
import * as counting from './count-stocktake';
import * as creating from './create-stocktake';
import * as service from './stocktake.service';

const REPORT_COLUMNS: TSheetColumn[] = [
  { key: 'location_code' },
  { key: 'product_number', width: 18 },
  { key: 'product_name', width: 28 },
  { key: 'expiry_date', width: 12 },
  { key: 'count_1', width: 10 },
  { key: 'book_1', width: 10 },
  { key: 'count_2', width: 10 },
  { key: 'book_2', width: 10 },
  { key: 'count_3', width: 10 },
  { key: 'book_3', width: 10 },
  { key: 'difference', width: 10 },
  { key: 'variance', width: 10 },
  { key: 'on_hand_after', width: 12 },
];

function reportRows(report: TStocktakeReport, lang: TLanguage) {
  const s = report.stocktake;
  const head = [
    {
      location_code: `${s.number} ${s.name}`,
      product_number: STOCKTAKE_VALUE_LABELS.type[s.type][lang],
      product_name: STOCKTAKE_VALUE_LABELS.status[s.status][lang],
      expiry_date: String(s.year),
    },
  ];
  return [...head, ...report.lines.map((l) => ({ ...l }))];
}

export function registerStocktakeRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db };
  const t = deps.tokens;
  route(app, t, r.listStocktakes, ({ actor, query }) => service.listStocktakes(d, actor, query));
  route(app, t, r.createStocktake, ({ actor, body }) => creating.createStocktake(d, actor, body), { status: 201 });
  route(app, t, r.getStocktake, ({ actor, params }) => service.getStocktake(d, actor, params.id));
  route(app, t, r.updateStocktake, ({ actor, params, body }) => creating.updateStocktake(d, actor, params.id, body));
  route(app, t, r.listStocktakeLocations, ({ actor, params, query }) =>
    service.listStocktakeLocations(d, actor, params.id, query),
  );
  route(app, t, r.listStocktakeLines, ({ actor, params, query }) =>
    service.listStocktakeLines(d, actor, params.id, query),
  );
  route(app, t, r.scanStocktakeLocation, ({ actor, params, query }) =>
    counting.scanLocation(d, actor, params.id, query.code),
  );
  route(app, t, r.scanStocktakeProduct, ({ actor, params, query }) =>
    counting.scanProduct(d, actor, params.id, query.code),
  );
  route(app, t, r.submitStocktakeCount, ({ actor, params, body }) => counting.submitCount(d, actor, params.id, body));
  route(app, t, r.nextStocktakeRound, ({ actor, params }) => closing.nextRound(d, actor, params.id));
  route(app, t, r.closeStocktake, ({ actor, params }) => closing.closeStocktake(d, actor, params.id));
  route(app, t, r.cancelStocktake, ({ actor, params }) => closing.cancelStocktake(d, actor, params.id));
  route(app, t, r.stocktakeReport, ({ actor, params }) => service.stocktakeReport(d, actor, params.id));
  route(app, t, r.exportStocktakeReport, async ({ actor, params, lang, reply }) => {
    const report = await service.stocktakeReport(d, actor, params.id);
    const file = await writeWorkbook('variance', REPORT_COLUMNS, reportRows(report, lang), lang);
    return sendXlsx(reply, `stocktake-${report.stocktake.number}.xlsx`, file);
  });
}
