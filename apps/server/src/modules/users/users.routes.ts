import { userRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { taipeiDateTime } from '../../platform/calendar';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as service from './users.service';

const AUDIT_COLUMNS: TSheetColumn[] = [
  { key: 'created_at', width: 22, header: { 'zh-TW': '時間', ja: '日時', en: 'Time' } },
  { key: 'actor_name', width: 18, header: { 'zh-TW': '使用者', ja: 'ユーザー', en: 'User' } },
  { key: 'action', width: 18, header: { 'zh-TW': '動作', ja: '操作', en: 'Action' } },
  { key: 'entity', width: 18, header: { 'zh-TW': '對象', ja: '対象', en: 'Record type' } },
  { key: 'entity_id', width: 38, text: true, header: { 'zh-TW': '對象 ID', ja: '対象 ID', en: 'Record ID' } },
  { key: 'before', width: 40, header: { 'zh-TW': '變更前', ja: '変更前', en: 'Before' } },
  { key: 'after', width: 40, header: { 'zh-TW': '變更後', ja: '変更後', en: 'After' } },
];

export function registerUserRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, config: deps.config, jobs: deps.jobs, rateLimits: deps.rateLimits };
  const t = deps.tokens;
  route(app, t, r.listCompanyUsers, ({ actor, query }) => service.listUsers(d, actor, query));
  route(app, t, r.inviteCompanyUser, ({ actor, body, lang }) => service.inviteUser(d, actor, body, lang), {
    status: 201,
  });
  route(app, t, r.updateCompanyUser, ({ actor, params, body }) => service.updateUser(d, actor, params.id, body));
  route(app, t, r.deactivateCompanyUser, ({ actor, params }) => service.setActive(d, actor, params.id, false));
  route(app, t, r.activateCompanyUser, ({ actor, params }) => service.setActive(d, actor, params.id, true));
  route(app, t, r.resetCompanyUserPassword, ({ actor, params }) => service.resetPassword(d, actor, params.id));
  route(app, t, r.listAuditTrail, ({ actor, query }) => service.auditTrail(d, actor, query));
  route(app, t, r.exportAuditTrail, async ({ actor, query, lang, reply }) => {
    const rows = (await service.auditTrailForExport(d, actor, query)).map((a) => ({
      created_at: taipeiDateTime(a.created_at.toISOString()),
      actor_name: a.actor_name ?? a.actor_type,
      action: a.action,
      entity: a.entity,
      entity_id: a.entity_id,
      before: a.before === null ? '' : JSON.stringify(a.before),
      after: a.after === null ? '' : JSON.stringify(a.after),
    }));
    return sendXlsx(reply, 'audit-trail.xlsx', await writeWorkbook('audit', AUDIT_COLUMNS, rows, lang));
  });
}
