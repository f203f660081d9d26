import { shopeeRoutes as r } from '@wms/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { MAX_INPUT_DEPTH, route } from '../../platform/http';
import * as service from './shopee.service';

const rawBodies = new WeakMap<FastifyRequest, string>();

export function registerShopeeRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const t = deps.tokens;
  route(app, t, r.shopeeAuthUrl, async ({ actor }) => service.authUrl(deps, actor));
  route(app, t, r.listShopeeShops, ({ actor }) => service.listShops(deps, actor));
  route(app, t, r.connectShopeeShop, ({ actor, body }) => service.connectShop(deps, actor, body));
  route(app, t, r.disconnectShopeeShop, ({ actor, params }) => service.disconnectShop(deps, actor, params.id));
  route(app, t, r.syncShopeeShop, ({ actor, params }) => service.syncNow(deps, actor, params.id), { status: 202 });
  route(app, t, r.setShopeeShipMode, ({ actor, params, body }) => service.setShipMode(deps, actor, params.id, body));
  route(app, t, r.shopeeShipOptions, ({ actor, params }) => service.shipOptions(deps, actor, params.id));
  route(app, t, r.retryShopeeOrders, ({ actor, params, body }) => service.retryOrders(deps, actor, params.id, body), {
    status: 202,
  });
  route(app, t, r.listShopeeOrders, ({ actor, params, query, lang }) =>
    service.listShopOrders(deps, actor, params.id, query, lang),
  );
  // The push is signed over its raw body: in its own scope, JSON is parsed here and the text kept for the check.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, text, done) => {
      rawBodies.set(req, text as string);
      try {
        done(null, text === '' ? {} : JSON.parse(text as string));
      } catch (err) {
        done(
          err instanceof RangeError
            ? new AppError('BODY_TOO_DEEP', { max: MAX_INPUT_DEPTH })
            : new AppError('INVALID_FIELD', { field: 'body' }),
          undefined,
        );
      }
    });
    // Shopee takes a push as delivered only on 2xx with an empty body: nothing is serialised here.
    scope.setSerializerCompiler(() => (data) => (typeof data === 'string' ? data : JSON.stringify(data)));
    route(scope, t, r.shopeePush, async ({ req, body, reply }) => {
      await service.handlePush(deps, rawBodies.get(req) ?? '', req.headers.authorization, body);
      reply.type('text/plain; charset=utf-8');
      return '' as const;
    });
  });
}
