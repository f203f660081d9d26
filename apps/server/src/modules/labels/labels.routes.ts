import { labelRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import * as service from './labels.service';

export function registerLabelRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, printerHosts: deps.config.labelPrinterHosts };
  const t = deps.tokens;
  route(app, t, r.listLabelSheets, ({ actor, query }) => service.listSheets(d, actor, query.cells));
  route(app, t, r.createLabelSheet, ({ actor, body }) => service.createSheet(d, actor, body), { status: 201 });
  route(app, t, r.updateLabelSheet, ({ actor, params, body }) => service.updateSheet(d, actor, params.id, body));
  route(app, t, r.deleteLabelSheet, ({ actor, params }) => service.deleteSheet(d, actor, params.id));
  route(app, t, r.renderLabels, ({ actor, body }) => service.renderLabels(d, actor, body));
  route(app, t, r.sendLabelsToPrinter, ({ actor, body }) => service.sendLabelsToPrinter(d, actor, body));
}
