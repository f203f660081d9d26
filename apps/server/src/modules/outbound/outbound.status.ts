import type { TOrder, TOrderAction, TOrderDetail, TOrderStatus } from '@wms/contracts';
import type { Db, Executor, Tx } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import * as catalog from '../catalog';
import * as engine from '../stock';
import * as lookupRepo from './outbound.lookups.repository';
import { draftOf, orderIssue } from './outbound.orders';
import * as orderRepo from './outbound.orders.repository';
import * as packRepo from './outbound.packing.repository';
import { expectedFromAllocations, illegal, orderDetail, orderSummary, type TOutboundDeps } from './outbound.views';
import { canApply, isShippedOut, nextStatus, ORDER_RULES, stockEffect, type TOrderEvent } from './outbound.workflow';

/**
 * Status changes of orders, driven by the workflow's rule table (`ORDER_RULES`): the table says from which statuses
 * an event may start, where it leads and what it does to stock; `moveOrder` writes that as one conditional update.
 * The seller's actions (export, start packing, cancel-export requests, cancel), the returns module's events, and the
 * move the packing station and collection batches make when they open an order.
 */

/** What an event records on the order besides its status: times, who, the status to go back to, the batch it leaves. */
export function recordOf(
  event: TOrderEvent,
  order: orderRepo.TOrderRow,
  actor: TActor,
): Partial<orderRepo.TOrderInsert> {
  const now = new Date();
  switch (event) {
    case 'export':
      return { exported_at: now, abnormal_code: null, abnormal_params: null };
    case 'start_packing':
      return { online_at: now };
    case 'ship':
      return { closed_at: now, closed_by: actor.id, shipping_date: order.shipping_date ?? taipeiToday() };
    case 'request_cancel_export':
      return { status_before_cancel: order.status };
    case 'grant_cancel_export':
      return { status_before_cancel: null, exported_at: null, online_at: null, batch_id: null };
    case 'refuse_cancel_export':
      return { status_before_cancel: null };
    case 'cancel':
      return { cancelled_at: now };
    default:
      return {};
  }
}

/**
 * Apply an event to a locked order as the rule table says: one conditional update from the event's from-statuses to
 * its next status, with what the event records. Zero rows (or an event the status does not allow) → 409.
 */
export async function moveOrder(
  tx: Tx,
  actor: TActor,
  order: orderRepo.TOrderRow,
  event: TOrderEvent,
): Promise<orderRepo.TOrderRow> {
  const to = nextStatus(event, order.status as TOrderStatus, order.status_before_cancel as TOrderStatus | null);
  if (!to) throw illegal(order.status, event);
  const moved = await orderRepo.changeStatus(tx, order.customer_id, order.id, ORDER_RULES[event].from, {
    ...recordOf(event, order, actor),
    status: to,
  });
  if (!moved) throw illegal(order.status, event);
  return moved;
}

/** Why an export failed, kept on the order so the list shows it (with the product number for a shortage). */
async function abnormalOf(ex: Executor, customerId: string, err: AppError): Promise<Record<string, unknown>> {
  return (await abnormalsOf(ex, customerId, [err]))[0]!;
}

/** `abnormalOf` for many refusals: the product numbers they name in one statement. */
export async function abnormalsOf(
  ex: Executor,
  customerId: string,
  errors: AppError[],
): Promise<Array<Record<string, unknown>>> {
  const ids = errors.map((e) => e.params?.product_id).filter((id): id is string => typeof id === 'string');
  const numbers = new Map((await catalog.productsByIds(ex, customerId, ids)).map((p) => [p.id, p.number]));
  return errors.map((err) => {
    const params = { ...err.params };
    const number = typeof params.product_id === 'string' ? numbers.get(params.product_id) : undefined;
    if (number) params.product_number = number;
    return params;
  });
}

/**
 * The reserving effect of an export on a locked order: validate it, then reserve all its lines through the stock
 * engine (a shortage leaves nothing reserved). Returns the refusal instead of throwing it when the
 * order should stay pending with the reason recorded (shortage, product or pathway problems).
 */
async function reserveOrder(tx: Tx, actor: TActor, order: orderRepo.TOrderRow): Promise<AppError | null> {
  const customerId = order.customer_id;
  const lines = await orderRepo.orderLines(tx, customerId, [order.id]);
  const lineProducts = await catalog.productsByIds(
    tx,
    customerId,
    lines.map((l) => l.product_id),
  );
  const providers = order.logistics_provider_id ? await lookupRepo.providersOf(tx, customerId) : [];
  const issue = exportIssue(order, lineProducts, providers);
  if (issue) return issue;
  // The bulk export's engine call with one document: a refused document reserves nothing (no savepoint needed), and
  // the products read above are handed on (not read again).
  const [reserved] = await engine.reserveForOrders(
    tx,
    engine.stockActorOf(actor),
    [
      {
        document: { type: orderRepo.ORDER_DOCUMENT, id: order.id, number: order.number },
        warehouseId: order.warehouse_id,
        lines: lines.map((l) => ({ productId: l.product_id, quantity: l.quantity, ref: l.id })),
      },
    ],
    { products: stockProducts(lineProducts) },
  );
  if (reserved instanceof AppError) {
    if (reserved.status >= 500) throw reserved;
    return reserved;
  }
  return null;
}

/** The products as the stock engine reads them (handed to it so that it does not read them again). */
export function stockProducts(list: Iterable<catalog.TProductInfo>): Map<string, engine.TProductInfo> {
  const known = new Map<string, engine.TProductInfo>();
  for (const p of list)
    known.set(p.id, {
      id: p.id,
      number: p.number,
      type: p.type,
      shelfLifeMonths: p.shelf_life_months,
      sellableRuleMonths: p.sellable_rule_months,
    });
  return known;
}

/** What keeps an order from being exported before stock is looked at: its data, its warehouse, its carrier. */
export function exportIssue(
  order: orderRepo.TOrderRow,
  lineProducts: catalog.TProductInfo[],
  providers: Array<{ id: string; is_active: boolean }>,
): AppError | null {
  const issue = orderIssue(draftOf({}, order), lineProducts);
  if (issue) return issue;
  if (!order.warehouse_id) return new AppError('REQUIRED_FIELD', { field: 'warehouse' });
  if (order.logistics_provider_id) {
    const provider = providers.find((p) => p.id === order.logistics_provider_id);
    if (!provider?.is_active) return new AppError('PATHWAY_ABNORMAL', { field: 'logistics_provider' });
  }
  return null;
}

/** The releasing effect of a granted cancel-export: the reservation goes back, and the box is emptied. */
async function releaseOrder(tx: Tx, actor: TActor, order: orderRepo.TOrderRow): Promise<void> {
  await engine.release(tx, engine.stockActorOf(actor), {
    document: { type: orderRepo.ORDER_DOCUMENT, id: order.id, number: order.number },
  });
  await packRepo.resetPack(tx, order.customer_id, order.id);
  await packRepo.deletePackItems(tx, order.customer_id, order.id);
}

/** Open a locked order for packing: what to pack comes from its reservations (combinations as their components). */
export async function startPackingLocked(
  tx: Tx,
  actor: TActor,
  order: orderRepo.TOrderRow,
): Promise<orderRepo.TOrderRow> {
  const expected = expectedFromAllocations(
    await engine.orderAllocations(tx, order.customer_id, orderRepo.ORDER_DOCUMENT, [order.id]),
  );
  await packRepo.insertPackItems(
    tx,
    order.customer_id,
    order.id,
    [...expected].map(([productId, n]) => ({ productId, expected: n })),
  );
  return moveOrder(tx, actor, order, 'start_packing');
}

/** A refused export, written on the order (it stays pending with the reason visible) and audited. */
async function recordRefusal(
  tx: Tx,
  actor: TActor,
  order: orderRepo.TOrderRow,
  action: TOrderAction,
  failure: AppError,
): Promise<AppError> {
  const params = await abnormalOf(tx, order.customer_id, failure);
  await orderRepo.updateOrder(tx, order.customer_id, order.id, {
    abnormal_code: failure.code,
    abnormal_params: params,
  });
  await writeAudit(tx, actor, {
    action: `${action}_refused`,
    entity: 'outbound_order',
    entityId: order.id,
    after: { code: failure.code, params },
  });
  return new AppError(failure.code, params, failure.status);
}

/**
 * Apply one of the seller's actions to one order in the caller's transaction, with the stock effect the rule table
 * gives it. Returns a refusal that must be recorded on the order (a failed export); other refusals are thrown.
 */
export async function applyAction(tx: Tx, actor: TActor, id: string, action: TOrderAction): Promise<AppError | null> {
  const order = await orderRepo.lockOrder(tx, tenantOf(actor), id);
  if (!order) throw notFound();
  const status = order.status as TOrderStatus;
  if (!canApply(action, status)) throw illegal(status, action);
  let moved: orderRepo.TOrderRow;
  switch (stockEffect(action)) {
    case 'reserve': {
      const failure = await reserveOrder(tx, actor, order);
      if (failure) return recordRefusal(tx, actor, order, action, failure);
      moved = await moveOrder(tx, actor, order, action);
      break;
    }
    case 'release':
      await releaseOrder(tx, actor, order);
      moved = await moveOrder(tx, actor, order, action);
      break;
    case 'consume':
      // Shipping consumes the stock only through the packing station's checks (shipOrder).
      throw illegal(status, action);
    case 'none':
      moved =
        action === 'start_packing'
          ? await startPackingLocked(tx, actor, order)
          : await moveOrder(tx, actor, order, action);
      break;
  }
  await writeAudit(tx, actor, {
    action,
    entity: 'outbound_order',
    entityId: id,
    before: { status },
    after: { status: moved.status },
  });
  return null;
}

/**
 * One status change of one order (one transaction). A refused export is recorded on the order (it stays pending
 * with the reason visible) and then answered with its code, e.g. 409 INVENTORY_SHORTAGE.
 */
export async function transitionOrder(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  action: TOrderAction,
): Promise<TOrderDetail> {
  const customerId = tenantOf(actor);
  const failure = await withTx(deps.db, (tx) => applyAction(tx, actor, id, action));
  if (failure) throw failure;
  return orderDetail(deps.db, customerId, id);
}

/** Export one order in its own transaction; the refusal (recorded on the order) is returned, not thrown. */
export async function exportOrderInTx(db: Db, actor: TActor, id: string): Promise<AppError | null> {
  try {
    return await withTx(db, (tx) => applyAction(tx, actor, id, 'export'));
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

/** Orders per transaction of a bulk export. */
export const EXPORT_CHUNK = 500;

// ---- returns (issue #7) ----

export type TReturnEvent = Extract<
  TOrderEvent,
  'return_registered' | 'return_confirmed' | 'return_unconfirmed' | 'return_cancelled'
>;

/**
 * For the returns module: move a shipped order along the returns part of the workflow **in the caller's
 * transaction** (closed → returned → closed_returned, and back). Leaving closed frees the order's IMEIs so the
 * returned devices may ship again; coming back to closed takes them back (409 SERIAL_ALREADY_SHIPPED if one has
 * shipped again meanwhile). Stock is the returns module's business
 * (it posts the returned goods through the stock engine). 404 for another seller's order, 409 from any other status.
 */
export async function applyReturnEvent(
  tx: Tx,
  actor: TActor,
  input: { orderId: string; event: TReturnEvent; returnNumber?: string },
): Promise<TOrder> {
  const customerId = tenantOf(actor);
  const order = await orderRepo.lockOrder(tx, customerId, input.orderId);
  if (!order) throw notFound();
  const to = (await moveOrder(tx, actor, order, input.event)).status as TOrderStatus;
  // The goods are back from the moment the order leaves closed; back in closed, its IMEIs count as shipped again.
  if (isShippedOut(order.status as TOrderStatus)) await packRepo.setSerialsReturned(tx, customerId, order.id, true);
  if (isShippedOut(to)) {
    try {
      await tx.transaction((sp) => packRepo.setSerialsReturned(sp, customerId, order.id, false));
    } catch (err) {
      if (sqlState(err) === '23505') throw new AppError('SERIAL_ALREADY_SHIPPED', { order_number: order.number });
      throw err;
    }
  }
  await writeAudit(tx, actor, {
    action: input.event,
    entity: 'outbound_order',
    entityId: order.id,
    before: { status: order.status },
    after: { status: to, return_number: input.returnNumber ?? null },
  });
  return orderSummary(tx, customerId, order.id);
}
