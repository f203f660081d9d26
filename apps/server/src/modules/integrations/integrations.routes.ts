import { integrationRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import * as service from './integrations.service';

export function registerIntegrationRoutes(app: FastifyInstance, deps: TAppDeps): void {
  route(app, deps.tokens, r.listIntegrationAttempts, ({ actor, query }) =>
    service.listAttempts(deps.database.db, actor, query),
  );
}
