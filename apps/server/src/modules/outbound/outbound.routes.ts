import { outboundRoutes as r, releaseChannelRoutes as rc, shipWaveRoutes } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { UPLOAD_BODY_LIMIT } from '../../platform/importing';
import { sendXlsx } from '../../platform/spreadsheet';
import * as batches from './outbound.batches';
import * as channels from './outbound.channels';
import * as consignments from './outbound.consignments';
import { exportOrdersFile, importTemplate } from './outbound.export';
import * as forms from './outbound.forms';
import * as importer from './outbound.importer';
import * as orders from './outbound.orders';
import * as packing from './outbound.packing';
import * as picking from './outbound.picking';
import * as pipeline from './outbound.pipeline';
import * as status from './outbound.status';
import { releaseWave } from './outbound.waves';

export function registerOutboundRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, jobs: deps.jobs };
  const t = deps.tokens;

  // The list's rows come out of SQL in the contract's shape (outbound.list.int.test compares them with the detail).
  route(app, t, r.listOrders, ({ actor, query }) => orders.listOrders(d, actor, query), {
    serialize: 'json',
    grants: 'first-statement',
  });
  route(app, t, r.createOrder, ({ actor, body }) => orders.createOrder(d, actor, body), { status: 201 });
  route(app, t, r.lookupOrder, ({ actor, query }) => orders.lookupOrder(d, actor, query.code));
  route(app, t, r.orderCounts, ({ actor, query }) => orders.orderCounts(d, actor, query));
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
  route(app, t, r.bulkTransition, ({ actor, body }) => pipeline.bulkTransition(d, actor, body));
  route(app, t, r.setConsignments, ({ actor, body, lang }) => consignments.setConsignments(d, actor, body.items, lang));
  route(app, t, r.uploadConsignments, ({ actor, body, lang }) => importer.uploadConsignments(d, actor, body, lang), {
    bodyLimit: UPLOAD_BODY_LIMIT,
  });
  route(app, t, r.getOrder, ({ actor, params }) => orders.getOrder(d, actor, params.id));
  route(app, t, r.updateOrder, ({ actor, params, body }) => orders.updateOrder(d, actor, params.id, body));
  route(app, t, r.transitionOrder, ({ actor, params, body }) =>
    status.transitionOrder(d, actor, params.id, body.action),
  );
  route(app, t, r.setConsignment, ({ actor, params, body }) => consignments.setConsignment(d, actor, params.id, body));
  route(app, t, r.packView, ({ actor, params }) => packing.packView(d, actor, params.id));
  route(app, t, r.packScan, ({ actor, params, body }) => packing.packScan(d, actor, params.id, body), {
    grants: 'first-statement',
  });
  route(app, t, r.packReset, ({ actor, params }) => packing.packReset(d, actor, params.id));
  route(app, t, r.shipOrder, ({ actor, params, body }) => packing.shipOrder(d, actor, params.id, body));

  route(app, t, r.listBatches, ({ actor, query }) => batches.listBatches(d, actor, query));
  route(app, t, r.createBatch, ({ actor, body }) => batches.createBatch(d, actor, body), { status: 201 });
  route(app, t, r.getBatch, ({ actor, params }) => batches.getBatch(d, actor, params.id));
  route(app, t, r.startBatchPicking, ({ actor, params }) => batches.startBatchPicking(d, actor, params.id));
  route(app, t, r.removeBatchOrders, ({ actor, params, body }) =>
    batches.removeBatchOrders(d, actor, params.id, body.order_ids),
  );
  route(app, t, r.batchPickList, ({ actor, params }) => batches.batchPickList(d, actor, params.id));
  route(app, t, r.pickView, ({ actor, params }) => picking.pickView(d, actor, params.id));
  route(app, t, r.pickScan, ({ actor, params, body }) => picking.pickScan(d, actor, params.id, body));
  route(app, t, r.pickShort, ({ actor, params, body }) => picking.pickShort(d, actor, params.id, body));
  route(app, t, r.pickTote, ({ actor, params, body }) => picking.pickTote(d, actor, params.id, body));
  route(app, t, shipWaveRoutes.releaseWave, ({ actor, body }) => releaseWave(d, actor, body), { status: 201 });
  route(app, t, rc.listReleaseChannels, ({ actor, query }) => channels.listChannels(d, actor, query));
  route(app, t, rc.createReleaseChannel, ({ actor, body }) => channels.createChannel(d, actor, body), { status: 201 });
  route(app, t, rc.getReleaseChannel, ({ actor, params }) => channels.getChannel(d, actor, params.id));
  route(app, t, rc.updateReleaseChannel, ({ actor, params, body }) =>
    channels.updateChannel(d, actor, params.id, body),
  );
  route(app, t, rc.deleteReleaseChannel, ({ actor, params }) => channels.deleteChannel(d, actor, params.id));
  route(app, t, rc.releaseChannelWave, ({ actor, params }) => channels.releaseChannelWave(d, actor, params.id), {
    status: 201,
  });
  route(app, t, r.printData, ({ actor, params, query }) => batches.printData(d, actor, params.id, query.orderby));
  route(app, t, r.printSelection, ({ actor, query }) => batches.printSelection(d, actor, query.ids, query.orderby));

  route(app, t, r.listSerials, ({ actor, query }) => packing.listSerials(d, actor, query));

  route(app, t, r.listImportForms, ({ actor }) => forms.listForms(d, actor));
  route(app, t, r.createImportForm, ({ actor, body }) => forms.createForm(d, actor, body), { status: 201 });
  route(app, t, r.inspectImportFile, ({ actor, body }) => forms.inspectFile(d, actor, body), {
    bodyLimit: UPLOAD_BODY_LIMIT,
  });
  route(app, t, r.getImportForm, ({ actor, params }) => forms.getForm(d, actor, params.id));
  route(app, t, r.updateImportForm, ({ actor, params, body }) => forms.updateForm(d, actor, params.id, body));
  route(app, t, r.deleteImportForm, ({ actor, params }) => forms.deleteForm(d, actor, params.id));

  route(app, t, r.getColumnSettings, ({ actor }) => orders.getColumnSettings(d, actor));
  route(app, t, r.saveColumnSettings, ({ actor, body }) => orders.saveColumnSettings(d, actor, body));
}
