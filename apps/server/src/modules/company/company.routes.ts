import { companyRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import * as service from './company.service';

export function registerCompanyRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db };
  route(app, deps.tokens, r.getCompany, ({ actor }) => service.getCompany(d, actor));
  route(app, deps.tokens, r.updateCompany, ({ actor, body }) => service.updateCompany(d, actor, body));
}
