import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { errorMessage, pickLanguage } from '@wms/contracts';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { registerAccountRoutes } from './modules/account/account.routes';
import { registerAnalysisRoutes } from './modules/analysis/analysis.routes';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { registerBillingRoutes } from './modules/billing/billing.routes';
import { registerCarrierRoutes } from './modules/carriers/carriers.routes';
import { registerCatalogRoutes } from './modules/catalog/catalog.routes';
import { registerCompanyRoutes } from './modules/company/company.routes';
import { registerCrmRoutes } from './modules/crm/crm.routes';
import { registerInboundRoutes } from './modules/inbound/inbound.routes';
import { registerIntegrationRoutes } from './modules/integrations/integrations.routes';
import { registerLabelRoutes } from './modules/labels/labels.routes';
import { registerOutboundRoutes } from './modules/outbound/outbound.routes';
import { registerPartnerApiRoutes } from './modules/partner-api/partner-api.routes';
import { registerPartnerRoutes } from './modules/partners/partners.routes';
import { registerRetentionRoutes } from './modules/retention/retention.routes';
import { registerReturnRoutes } from './modules/returns/returns.routes';
import { registerShipRoutes } from './modules/ships/ships.routes';
import { registerShopeeRoutes } from './modules/shopee/shopee.routes';
import { registerStockRoutes } from './modules/stock/stock.routes';
import { registerStocktakeRoutes } from './modules/stocktake/stocktake.routes';
import { registerStoreRoutes } from './modules/store/store.routes';
import { registerSupportRoutes } from './modules/support/support.routes';
import { registerSystemRoutes } from './modules/system/system.routes';
import { registerUsageRoutes } from './modules/usage/usage.routes';
import { registerUserRoutes } from './modules/users/users.routes';
import { registerWarehouseRoutes } from './modules/warehouse/warehouse.routes';
import type { TAppDeps } from './platform/deps';
import { installErrorHandler } from './platform/error-handler';
import { refuseUnstorableText, useGrantLoader, useWriteMarker } from './platform/http';
import { createLogger } from './platform/logger';
import { registerOpenApi } from './platform/openapi';
import { loadUserGrants } from './platform/permissions.repository';
import { markWrite } from './platform/replica';
import { registerSecurityHeaders } from './platform/security-headers';

/** Every module's routes, in one place. A new bounded context adds its register function here. */
const MODULES: Array<(app: FastifyInstance, deps: TAppDeps) => void> = [
  registerSystemRoutes,
  registerAuthRoutes,
  registerAccountRoutes,
  registerWarehouseRoutes,
  registerShipRoutes,
  registerCatalogRoutes,
  registerCompanyRoutes,
  registerPartnerRoutes,
  registerLabelRoutes,
  registerInboundRoutes,
  registerStockRoutes,
  registerReturnRoutes,
  registerStocktakeRoutes,
  registerOutboundRoutes,
  registerIntegrationRoutes,
  registerAnalysisRoutes,
  registerPartnerApiRoutes,
  registerStoreRoutes,
  registerSupportRoutes,
  registerCrmRoutes,
  registerShopeeRoutes,
  registerCarrierRoutes,
  registerBillingRoutes,
  registerUsageRoutes,
  registerUserRoutes,
  registerRetentionRoutes,
];

/**
 * One log line per request, written when it is answered (method, URL, status, duration), instead of Fastify's two
 * ("incoming request" + "request completed").
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** buildApp(deps): plugins first, then every module's routes, then the web app (SPA fallback). */
export async function buildApp(
  deps: TAppDeps,
  opts: { logger?: boolean; loggerInstance?: FastifyBaseLogger } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    // The process's logger when given (main.ts: the one the job runner and the mailer write to), else one of its own.
    ...(opts.logger === false
      ? { logger: false }
      : { loggerInstance: opts.loggerInstance ?? (createLogger(deps.config) as FastifyBaseLogger) }),
    bodyLimit: deps.config.bodyLimit,
    logController: new OneLinePerRequest(),
    // A hop count is accepted by Fastify at run time; its types only list the other forms.
    trustProxy: deps.config.trustProxy as boolean | string[],
    ajv: undefined,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  refuseUnstorableText(app);
  // CSP, no framing, nosniff, referrer policy and (behind TLS) HSTS on every answer.
  await registerSecurityHeaders(app, {
    https: deps.config.publicUrl.startsWith('https:'),
    // NewebPay's gateway (billing) when set up; ECPay logistics' print page (carrier labels: a form posted to a new tab).
    formActions: [
      ...(deps.config.newebpay.merchantId ? [new URL(deps.config.newebpay.baseUrl).origin] : []),
      new URL(deps.config.ecpayLogisticsUrl).origin,
    ],
    scriptOrigins: deps.config.tappay.appId ? ['https://js.tappaysdk.com'] : [],
  });
  // Outside systems' callbacks (contract `callback: true`) are public: a burst from one address is refused (429).
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.callback)
      await deps.rateLimits.consume('callback-ip', req.ip, {
        points: deps.config.callbackIpLimitPerMinute,
        durationSeconds: 60,
      });
  });
  app.addHook('onSend', async (req, reply, payload) => {
    // API answers (tokens, profiles, documents) are never kept by a browser or a shared cache.
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  // Before the routes: it records each route as it is registered (GET /api/openapi.json serves the document).
  await registerOpenApi(app, deps.config.version);

  // Every user call reads the caller's current grants: deactivation and role changes act at once.
  useGrantLoader(deps.tokens, (userId) => loadUserGrants(deps.database.db, userId));
  // With a streaming replica, each answered write records where the primary's WAL stands for its writer.
  if (deps.database.replica) useWriteMarker(deps.tokens, (actor) => markWrite(deps.database, actor));
  await app.register(
    async (api) => {
      for (const register of MODULES) register(api, deps);
    },
    { prefix: '' },
  );

  const dist = deps.config.webDist;
  const hasWeb = existsSync(path.join(dist, 'index.html'));
  // Hashed build files (/assets/) never change under their name: cached for good; any other file is revalidated.
  const assets = path.join(dist, 'assets') + path.sep;
  if (hasWeb)
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: (res, file) =>
        res.setHeader('cache-control', file.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
  app.setNotFoundHandler((req, reply) => {
    const notFound = () => {
      const lang = pickLanguage(req.headers['accept-language']);
      return reply
        .status(404)
        .send({ error: { code: 'NOT_FOUND', message: errorMessage('NOT_FOUND', lang), params: {} } });
    };
    if (!hasWeb || req.url.startsWith('/api/') || req.method !== 'GET') return notFound();
    const file = req.url.split('?')[0]!;
    if (file.startsWith('/assets/') || file.startsWith('/manual/')) {
      // Files added by a rebuild after start-up are not registered routes: serve them here.
      const rel = decodeURIComponent(file.slice(1));
      if (rel.includes('..') || !existsSync(path.join(dist, rel))) return notFound();
      reply.header('cache-control', file.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      return reply.sendFile(rel);
    }
    // Every other GET is a screen of the single-page app.
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
  return app;
}
