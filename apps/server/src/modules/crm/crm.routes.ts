import { crmRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import * as service from './crm.service';

/** /api/crm/…: the employees' reads across sellers and their actions on a seller (every route `auth: employee`). */
export function registerCrmRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, config: deps.config, jobs: deps.jobs };
  const t = deps.tokens;
  route(app, t, r.dashboard, () => service.dashboard(d));
  route(app, t, r.listCustomers, ({ query }) => service.listCustomers(d, query));
  route(app, t, r.getCustomer, ({ params }) => service.getCustomer(d, params.id));
  route(app, t, r.setCustomerActive, ({ actor, params, body }) =>
    service.setCustomerActive(d, actor, params.id, body.is_active),
  );
  route(app, t, r.resetUserPassword, ({ actor, params, body }) =>
    service.resetUserPassword(d, actor, params.id, body.user_id),
  );
  route(app, t, r.rack, ({ query }) => service.rack(d, query));
  route(app, t, r.rackLabels, ({ body }) => service.rackLabels(d, body));
  route(app, t, r.stock, ({ query }) => service.stock(d, query));
  route(app, t, r.stockMovements, ({ params }) => service.stockMovements(d, params.id));
}
