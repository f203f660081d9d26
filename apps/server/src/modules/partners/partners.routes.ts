import { partnerRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { boolCell } from '../../platform/cells';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as service from './partners.service';

const PROVIDER_COLUMNS: TSheetColumn[] = [
  { key: 'code' },
  { key: 'name', width: 24 },
  { key: 'merchant_id' },
  { key: 'contract_type' },
  { key: 'temperature_code' },
  { key: 'specification_code' },
  { key: 'billing_basis' },
  { key: 'is_active' },
];
const PLATFORM_COLUMNS: TSheetColumn[] = [
  { key: 'code' },
  { key: 'name', width: 24 },
  { key: 'store_number' },
  { key: 'url', width: 40 },
  { key: 'callback_enabled' },
];

export function registerPartnerRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, encryptionKey: deps.config.encryptionKey };
  const t = deps.tokens;
  route(app, t, r.listLogisticsProviders, ({ actor, query }) => service.listProviders(d, actor, query));
  route(app, t, r.exportLogisticsProviders, async ({ actor, query, lang, reply }) => {
    const rows = (await service.exportProviders(d, actor, query)).map((p) => ({
      ...p,
      is_active: boolCell(p.is_active),
    }));
    return sendXlsx(reply, 'logistics-providers.xlsx', await writeWorkbook('providers', PROVIDER_COLUMNS, rows, lang));
  });
  route(app, t, r.createLogisticsProvider, ({ actor, body }) => service.createProvider(d, actor, body), {
    status: 201,
  });
  route(app, t, r.getLogisticsProvider, ({ actor, params }) => service.getProvider(d, actor, params.id));
  route(app, t, r.updateLogisticsProvider, ({ actor, params, body }) =>
    service.updateProvider(d, actor, params.id, body),
  );
  route(app, t, r.deleteLogisticsProvider, ({ actor, params }) => service.deleteProvider(d, actor, params.id));

  route(app, t, r.listEcommercePlatforms, ({ actor, query }) => service.listPlatforms(d, actor, query));
  route(app, t, r.exportEcommercePlatforms, async ({ actor, query, lang, reply }) => {
    const rows = (await service.exportPlatforms(d, actor, query)).map((p) => ({
      ...p,
      callback_enabled: boolCell(p.callback_enabled),
    }));
    return sendXlsx(reply, 'ecommerce-platforms.xlsx', await writeWorkbook('platforms', PLATFORM_COLUMNS, rows, lang));
  });
  route(app, t, r.createEcommercePlatform, ({ actor, body }) => service.createPlatform(d, actor, body), {
    status: 201,
  });
  route(app, t, r.getEcommercePlatform, ({ actor, params }) => service.getPlatform(d, actor, params.id));
  route(app, t, r.updateEcommercePlatform, ({ actor, params, body }) =>
    service.updatePlatform(d, actor, params.id, body),
  );
  route(app, t, r.deleteEcommercePlatform, ({ actor, params }) => service.deletePlatform(d, actor, params.id));
}
