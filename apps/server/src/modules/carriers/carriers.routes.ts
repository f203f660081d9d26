import { carrierRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import {
  cvsOverdue,
  deleteOrderCvsStore,
  ecpayMapReply,
  getOrderCvsStore,
  openCvsMap,
  setOrderCvsStore,
} from './carriers.cvs';
import { ecpayNotify } from './carriers.notify';
import { codCollected, orderCarrierEvents } from './carriers.service';
import { fetchConsignments } from './fetch-consignments';
import { ecpayLabelForms, printLabels } from './print-labels';

export function registerCarrierRoutes(app: FastifyInstance, deps: TAppDeps): void {
  route(app, deps.tokens, r.orderCarrierEvents, ({ actor, params }) => orderCarrierEvents(deps, actor, params.id));
  route(app, deps.tokens, r.fetchConsignments, async ({ actor, body, lang }) => ({
    results: await fetchConsignments(deps, actor, body.order_ids, lang),
  }));
  route(app, deps.tokens, r.printLabels, async ({ actor, body, reply }) => {
    const file = await printLabels(deps, actor, body.order_ids);
    reply.header('content-type', 'application/pdf');
    reply.header('content-disposition', 'inline; filename="labels.pdf"');
    reply.header('x-labels-pages', String(file.pages));
    reply.header('x-labels-missing', String(file.missing.length));
    reply.header('x-labels-missing-orders', encodeURIComponent(file.missing.join(',')));
    reply.header('x-labels-ecpay-orders', encodeURIComponent(file.ecpay.join(',')));
    return file.pdf;
  });
  route(app, deps.tokens, r.ecpayLabelForms, ({ actor, body }) => ecpayLabelForms(deps, actor, body.order_ids));
  route(app, deps.tokens, r.cvsOverdue, ({ actor }) => cvsOverdue(deps, actor));
  route(app, deps.tokens, r.codCollected, ({ actor, query }) => codCollected(deps, actor, query));
  route(app, deps.tokens, r.getOrderCvsStore, ({ actor, params }) => getOrderCvsStore(deps, actor, params.id));
  route(app, deps.tokens, r.setOrderCvsStore, ({ actor, params, body }) =>
    setOrderCvsStore(deps, actor, params.id, body),
  );
  route(app, deps.tokens, r.deleteOrderCvsStore, ({ actor, params }) => deleteOrderCvsStore(deps, actor, params.id));
  route(app, deps.tokens, r.openCvsMap, ({ actor, params, body }) => openCvsMap(deps, actor, params.id, body.subtype));
  // Form posts, answered in plain text: in their own scope.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) => {
      done(null, Object.fromEntries(new URLSearchParams(text as string)));
    });
    scope.setSerializerCompiler(() => (data) => (typeof data === 'string' ? data : JSON.stringify(data)));
    route(scope, deps.tokens, r.ecpayLogisticsNotify, async ({ body, reply }) => {
      const answer = await ecpayNotify(deps, body);
      reply.type('text/plain; charset=utf-8');
      return answer;
    });
    // The store map's answer comes through the buyer's browser: back to the order on /deliver.
    route(scope, deps.tokens, r.ecpayMapReply, async ({ body, reply, setStatus }) => {
      const orderId = await ecpayMapReply(deps, body);
      setStatus(303);
      reply.header('location', `/deliver?order=${orderId}&cvs=chosen`).type('text/plain; charset=utf-8');
      return '';
    });
  });
}
