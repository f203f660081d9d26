import { partnerApiRoutes as r } from '@wms/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import * as service from './partner-api.service';

const idempotencyKeyOf = (req: FastifyRequest) => {
  const v = req.headers['idempotency-key'];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};

/** The public partner API (`/api/v1/`): API-key callers, rate-limited per key (see api-settings.service). */
export function registerPartnerApiRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const t = deps.tokens;
  const d = { db: deps.database.db };
  route(
    app,
    t,
    r.apiCreateOrder,
    async ({ actor, body, req, setStatus }) => {
      const out = await service.createOrder(d, actor, body, idempotencyKeyOf(req));
      setStatus(out.status);
      return out.body;
    },
    { status: 201 },
  );
  route(app, t, r.apiGetOrder, ({ actor, params }) => service.getOrderByCode(d, actor, params.code));
  route(app, t, r.apiCancelOrder, ({ actor, params }) => service.cancelOrder(d, actor, params.code));
  route(app, t, r.apiListProducts, ({ actor, query }) => service.listProducts(d, actor, query));
  route(app, t, r.apiStock, ({ actor, query }) => service.stockOf(d, actor, query));
  route(app, t, r.apiStatements, ({ actor, query }) => service.listStatements(d, actor, query));
  route(app, t, r.apiStatement, ({ actor, params }) => service.getStatement(d, actor, params.id));
  route(app, t, r.apiStatementEvents, ({ actor, params, query }) =>
    service.statementEvents(d, actor, params.id, query),
  );
  route(
    app,
    t,
    r.apiCreateInbound,
    async ({ actor, body, req, setStatus }) => {
      const out = await service.createInbound(d, actor, body, idempotencyKeyOf(req));
      setStatus(out.status);
      return out.body;
    },
    { status: 201 },
  );
}
