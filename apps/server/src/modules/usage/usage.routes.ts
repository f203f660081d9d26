import { usageRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import * as service from './usage.service';

/** /api/billing/usage/…: the seller's usage; /api/crm/usage/…: the CRM's rate cards and sellers' usage (employees). */
export function registerUsageRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db };
  const t = deps.tokens;
  route(app, t, r.usage, ({ actor, query }) => service.monthUsage(d, tenantOf(actor), query.month));
  route(app, t, r.usageEvents, ({ actor, query }) => service.monthEvents(d, tenantOf(actor), query));
  route(app, t, r.crmUsage, ({ params, query }) => service.monthUsage(d, params.id, query.month));
  route(app, t, r.crmUsageEvents, ({ params, query }) => service.monthEvents(d, params.id, query));
  route(app, t, r.crmRateCards, ({ query }) => service.listRateCards(d, query.customer_id));
  route(app, t, r.crmCreateRateCard, ({ actor, body }) => service.createRateCard(d, actor, body), { status: 201 });
  route(app, t, r.crmUpdateRateCard, ({ actor, params, body }) => service.updateRateCard(d, actor, params.id, body));
  route(app, t, r.crmDeleteRateCard, ({ actor, params }) => service.deleteRateCard(d, actor, params.id));
}
