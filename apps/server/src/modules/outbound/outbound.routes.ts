import { outboundRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { UPLOAD_BODY_LIMIT } from '../../platform/importing';
import { sendXlsx } from '../../platform/spreadsheet';
import * as batches from './outbound.batches';
import { exportOrdersFile, importTemplate } from './outbound.export';
import * as importer from './outbound.importer';
import * as service from './outbound.service';
import { parseIds } from './outbound.service';

export function registerOutboundRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, jobs: deps.jobs };
  const t = deps.tokens;
  deps.jobs.register(importer.IMPORT_JOB, importer.runOrderImport);

  route(app, t, r.listOrders, ({ actor, query }) => service.listOrders(d, actor, query));
  route(app, t, r.createOrder, ({ actor, body }) => service.createOrder(d, actor, body), { status: 201 });
  route(app, t, r.lookupOrder, ({ actor, query }) => service.lookupOrder(d, actor, query.code));
  route(app, t, r.orderCounts, ({ actor, query }) => service.orderCounts(d, actor, query));
  route(app, t, r.exportFile, async ({ actor, query, lang, reply }) => {
    const file = await exportOrdersFile(d, actor, query, lang);
    reply.header('content-type', file.contentType);
    reply.header('content-disposition', `attachment; filename="${file.filename}"`);
    return file.stream;
  });
  route(app, t, r.importTemplate, async ({ lang, reply }) =>
    sendXlsx(reply, `order-import-template-${lang}.xlsx`, await importTemplate(lang)),
  );
  route(app, t, r.importOrders, ({ actor, body, lang }) => importer.queueOrderImport(d, actor, body, lang), {
    status: 202,
    bodyLimit: UPLOAD_BODY_LIMIT,
  });
  route(app, t, r.bulkTransition, ({ actor, body }) => service.bulkTransition(d, actor, body));
  route(app, t, r.setConsignments, ({ actor, body, lang }) => service.setConsignments(d, actor, body.items, lang));
  route(app, t, r.uploadConsignments, ({ actor, body, lang }) => importer.uploadConsignments(d, actor, body, lang), {
    bodyLimit: UPLOAD_BODY_LIMIT,
  });
  route(app, t, r.getOrder, ({ actor, params }) => service.getOrder(d, actor, params.id));
  route(app, t, r.updateOrder, ({ actor, params, body }) => service.updateOrder(d, actor, params.id, body));
  route(app, t, r.transitionOrder, ({ actor, params, body }) =>
    service.transitionOrder(d, actor, params.id, body.action),
  );
  route(app, t, r.setConsignment, ({ actor, params, body }) => service.setConsignment(d, actor, params.id, body));
  route(app, t, r.packView, ({ actor, params }) => service.packView(d, actor, params.id));
  route(app, t, r.packScan, ({ actor, params, body }) => service.packScan(d, actor, params.id, body));
  route(app, t, r.packReset, ({ actor, params }) => service.packReset(d, actor, params.id));
  route(app, t, r.shipOrder, ({ actor, params, body }) => service.shipOrder(d, actor, params.id, body));

  route(app, t, r.listBatches, ({ actor, query }) => batches.listBatches(d, actor, query));
  route(app, t, r.createBatch, ({ actor, body }) => batches.createBatch(d, actor, body), { status: 201 });
  route(app, t, r.getBatch, ({ actor, params }) => batches.getBatch(d, actor, params.id));
  route(app, t, r.startBatchPicking, ({ actor, params }) => batches.startBatchPicking(d, actor, params.id));
  route(app, t, r.removeBatchOrders, ({ actor, params, body }) =>
    batches.removeBatchOrders(d, actor, params.id, body.order_ids),
  );
  route(app, t, r.batchPickList, ({ actor, params }) => batches.batchPickList(d, actor, params.id));
  route(app, t, r.printData, ({ actor, params, query }) => batches.printData(d, actor, params.id, query.orderby));
  route(app, t, r.printSelection, ({ actor, query }) =>
    batches.printSelection(d, actor, parseIds(query.ids) ?? [], query.orderby),
  );

  route(app, t, r.listSerials, ({ actor, query }) => service.listSerials(d, actor, query));

  route(app, t, r.listImportForms, ({ actor }) => importer.listForms(d, actor));
  route(app, t, r.createImportForm, ({ actor, body }) => importer.createForm(d, actor, body), { status: 201 });
  route(app, t, r.inspectImportFile, ({ actor, body }) => importer.inspectFile(d, actor, body), {
    bodyLimit: UPLOAD_BODY_LIMIT,
  });
  route(app, t, r.getImportForm, ({ actor, params }) => importer.getForm(d, actor, params.id));
  route(app, t, r.updateImportForm, ({ actor, params, body }) => importer.updateForm(d, actor, params.id, body));
  route(app, t, r.deleteImportForm, ({ actor, params }) => importer.deleteForm(d, actor, params.id));

  route(app, t, r.getColumnSettings, ({ actor }) => service.getColumnSettings(d, actor));
  route(app, t, r.saveColumnSettings, ({ actor, body }) => service.saveColumnSettings(d, actor, body));
}
