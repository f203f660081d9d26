import { carrierRoutes as r } from '@wms/contracts';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { carrier_events, carrier_labels, logistics_providers, outbound_orders } from '../../db/schema';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { decryptSecret } from '../../platform/crypto';
import type { TAppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http';
import {
  cvsOverdue,
  deleteOrderCvsStore,
  ecpayMapReply,
  getOrderCvsStore,
  openCvsMap,
  setOrderCvsStore,
} from './carriers.cvs';
import { codCollected, ecpayLabelForms, fetchConsignments, orderCarrierEvents, printLabels } from './carriers.service';
import { verifyEcpayCheckMacValue } from './providers/ecpay';

/**
 * ECPay's status callback: the seller is the one whose logistics provider (merchant id) has the hash key and IV the
 * CheckMacValue verifies with; the status goes into the order's tracking history (`carrier_events`, the order found by
 * its consignment number = BookingNote, or by its number = MerchantTradeNo; stored once however often ECPay resends)
 * with an audit row, and is answered `1|OK`. Anything that does not verify is refused (401) and changes nothing.
 */
export async function ecpayNotify(deps: TAppDeps, fields: Record<string, string>): Promise<string> {
  const db = deps.database.db;
  const merchantId = fields.MerchantID ?? '';
  const candidates = merchantId
    ? await db.select().from(logistics_providers).where(eq(logistics_providers.merchant_id, merchantId))
    : [];
  const key = deps.config.encryptionKey;
  const verified = candidates.filter(
    (p) =>
      p.hash_key_enc &&
      p.hash_iv_enc &&
      verifyEcpayCheckMacValue(fields, decryptSecret(key, p.hash_key_enc), decryptSecret(key, p.hash_iv_enc)),
  );
  if (!verified.length) throw new AppError('CARRIER_SIGNATURE_INVALID');
  // ECPay's AllPayLogisticsID is unique at ECPay: when a merchant id is on several providers (one seller's two
  // contracts, or sellers sharing an ECPay account), the order whose label has that id is the one; else the first.
  let provider = verified[0]!;
  let labelled: string | null = null;
  if (fields.AllPayLogisticsID) {
    const [hit] = await db
      .select({ orderId: carrier_labels.order_id, customerId: carrier_labels.customer_id })
      .from(carrier_labels)
      .where(
        and(
          eq(carrier_labels.carrier, 'ecpay'),
          eq(carrier_labels.file_no, fields.AllPayLogisticsID),
          inArray(
            carrier_labels.customer_id,
            verified.map((p) => p.customer_id),
          ),
        ),
      )
      .limit(1);
    if (hit) {
      provider = verified.find((p) => p.customer_id === hit.customerId) ?? provider;
      labelled = hit.orderId;
    }
  }
  await withTx(db, async (tx) => {
    const bookingNote = fields.BookingNote ?? '';
    const [order] = labelled
      ? [{ id: labelled }]
      : await tx
          .select({ id: outbound_orders.id })
          .from(outbound_orders)
          .where(
            and(
              eq(outbound_orders.customer_id, provider.customer_id),
              or(
                eq(outbound_orders.number, fields.MerchantTradeNo ?? ''),
                bookingNote ? eq(outbound_orders.consignment_number, bookingNote) : undefined,
              ),
            ),
          )
          .limit(1);
    const [event] = await tx
      .insert(carrier_events)
      .values({
        customer_id: provider.customer_id,
        logistics_provider_id: provider.id,
        order_id: order?.id ?? null,
        carrier: 'ecpay',
        merchant_trade_no: fields.MerchantTradeNo ?? '',
        logistics_id: fields.AllPayLogisticsID ?? '',
        booking_note: bookingNote,
        status_code: fields.RtnCode ?? '',
        status_text: fields.RtnMsg ?? '',
        status_at: fields.UpdateStatusDate ?? '',
      })
      .onConflictDoNothing()
      .returning({ id: carrier_events.id });
    // A resend of a status already stored: answered 1|OK again, nothing written twice.
    if (!event) return;
    await writeAudit(
      tx,
      { kind: 'system', id: null, customerId: provider.customer_id },
      {
        action: 'ecpay.status',
        entity: order ? 'outbound_order' : 'logistics_provider',
        entityId: order?.id ?? provider.id,
        customerId: provider.customer_id,
        after: {
          merchant_trade_no: fields.MerchantTradeNo ?? null,
          rtn_code: fields.RtnCode ?? null,
          rtn_msg: fields.RtnMsg ?? null,
          logistics_id: fields.AllPayLogisticsID ?? null,
          booking_note: fields.BookingNote ?? null,
        },
      },
    );
  });
  return '1|OK';
}

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
