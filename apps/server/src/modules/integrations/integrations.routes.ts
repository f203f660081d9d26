import { apiSettingRoutes as a, integrationRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route, useApiKeyAuthenticator } from '../../platform/http';
import * as settings from './api-settings.service';
import * as deliveries from './callback-deliveries';
import * as service from './integrations.service';

export function registerIntegrationRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const t = deps.tokens;
  useApiKeyAuthenticator(t, (key) => settings.authenticateApiKey(deps, key));
  route(app, t, r.listIntegrationAttempts, ({ actor, query }) => service.listAttempts(deps.database.db, actor, query));
  route(app, t, a.listApiSettings, ({ actor, query }) => settings.listSettings(deps, actor, query.kind));
  route(app, t, a.getApiSetting, ({ actor, params }) => settings.getSetting(deps, actor, params.id));
  route(app, t, a.createApiSetting, ({ actor, body }) => settings.createSetting(deps, actor, body), { status: 201 });
  route(app, t, a.updateApiSetting, ({ actor, params, body }) => settings.updateSetting(deps, actor, params.id, body));
  route(app, t, a.deleteApiSetting, ({ actor, params }) => settings.deleteSetting(deps, actor, params.id));
  route(app, t, a.enableApiSetting, async ({ actor, params, reply }) => {
    // The key is in this answer only: no cache may keep it.
    reply.header('cache-control', 'no-store');
    return settings.enableSetting(deps, actor, params.id);
  });
  route(app, t, a.disableApiSetting, ({ actor, params }) => settings.disableSetting(deps, actor, params.id));
  route(app, t, a.testApiConnection, ({ actor, params }) => settings.testConnection(deps, actor, params.id));
  route(app, t, a.sendTestCallback, ({ actor, params }) => deliveries.sendTestEvent(deps, actor, params.id), {
    status: 201,
  });
  route(app, t, a.listCallbackDeliveries, ({ actor, params, query }) =>
    deliveries.listDeliveries(deps, actor, params.id, query),
  );
  route(
    app,
    t,
    a.resendCallback,
    ({ actor, params }) => deliveries.resendDelivery(deps, actor, params.id, params.delivery_id),
    { status: 201 },
  );
}
