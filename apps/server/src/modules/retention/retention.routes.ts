import { retentionRoutes as r, type TRetentionKind } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { taipeiDateTime } from '../../platform/calendar';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as service from './retention.service';

const EXPORT_COLUMNS: TSheetColumn[] = [
  { key: 'ref', width: 26, text: true, header: { 'zh-TW': '單號／名稱', ja: '番号／名称', en: 'Number / name' } },
  { key: 'status', width: 16, header: { 'zh-TW': '狀態', ja: 'ステータス', en: 'Status' } },
  { key: 'at', width: 22, header: { 'zh-TW': '完成時間', ja: '完了日時', en: 'Finished at' } },
  { key: 'detail', width: 40, header: { 'zh-TW': '說明', ja: '詳細', en: 'Detail' } },
];

const SHEET: Record<TRetentionKind, string> = {
  outbound_orders: 'orders',
  inbound_receipts: 'receipts',
  return_receipts: 'returns',
  stocktakes: 'stocktakes',
  job_logs: 'jobs',
  attempt_logs: 'attempts',
};

export function registerRetentionRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, jobs: deps.jobs, ageScale: deps.config.retentionAgeScale };
  const t = deps.tokens;
  route(app, t, r.previewRetention, ({ actor, query }) => service.preview(d, actor, query.months));
  route(app, t, r.exportRetention, async ({ actor, query, lang, reply }) => {
    const rows = (await service.exportRows(d, actor, query.months, query.kind)).map((row) => ({
      ref: row.ref,
      status: row.status,
      at: taipeiDateTime(row.at === null ? null : new Date(row.at).toISOString()),
      detail: row.detail ?? '',
    }));
    const sheet = SHEET[query.kind];
    return sendXlsx(reply, `purge-${sheet}.xlsx`, await writeWorkbook(sheet, EXPORT_COLUMNS, rows, lang));
  });
  route(app, t, r.purgeRetention, ({ actor, body }) => service.requestPurge(d, actor, body), { status: 202 });
  route(app, t, r.getRetentionSettings, ({ actor }) => service.getSettings(d, actor));
  route(app, t, r.updateRetentionSettings, ({ actor, body }) => service.updateSettings(d, actor, body));
}
