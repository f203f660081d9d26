import type { TConsignmentItem, TLanguage, TOrder, TOrderStatus, TSetConsignment } from '@wms/contracts';
import type { Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { rejectRows, type TRowIssue } from '../../platform/importing';
import { orderConstraintError } from './outbound.orders';
import * as orderRepo from './outbound.orders.repository';
import { illegal, orderSummary, type TOutboundDeps } from './outbound.views';
import { acceptsConsignment } from './outbound.workflow';

/**
 * Consignment numbers (/deliver-operation): one order's number, shipping date and piece count, or many orders' at
 * once (typed, scanned, or read from a carrier's file by the importer); unique per seller, until the order ships.
 */

/** The consignment fields of an input item that were given (shipping date and piece count are optional). */
function consignmentPatch(item: TSetConsignment) {
  return {
    consignment_number: item.consignment_number,
    ...(item.shipping_date !== undefined ? { shipping_date: item.shipping_date } : {}),
    ...(item.piece_count !== undefined ? { piece_count: item.piece_count } : {}),
  };
}

export async function setConsignment(
  deps: TOutboundDeps,
  actor: TActor,
  id: string,
  input: TSetConsignment,
  /** From a carrier's API: never replace a number the order got meanwhile; `source` goes into the audit row. */
  opts: {
    onlyIfEmpty?: boolean;
    source?: Record<string, unknown>;
    /** More writes in the same transaction (the carrier's label with its number). */
    also?: (tx: Tx) => Promise<void>;
  } = {},
): Promise<TOrder> {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await orderRepo.lockOrder(tx, customerId, id);
    if (!before) throw notFound();
    if (!acceptsConsignment(before.status as TOrderStatus)) throw illegal(before.status, 'set_consignment');
    if (opts.onlyIfEmpty && before.consignment_number)
      throw new AppError('CONSIGNMENT_ALREADY_SET', { consignment_number: before.consignment_number });
    const patch = consignmentPatch(input);
    await orderRepo.updateOrder(tx, customerId, id, patch).catch(orderConstraintError);
    await writeAudit(tx, actor, {
      action: 'set_consignment',
      entity: 'outbound_order',
      entityId: id,
      before: {
        consignment_number: before.consignment_number,
        shipping_date: before.shipping_date,
        piece_count: before.piece_count,
      },
      after: opts.source ? { ...patch, source: opts.source } : patch,
    });
    if (opts.also) await opts.also(tx);
  });
  return orderSummary(deps.db, customerId, id);
}

/**
 * Consignment numbers for many orders at once (scanned, typed or from a file): all or nothing. A number used twice
 * in the input or already on another order, an unknown order, or an order past shipping refuses the whole input
 * with every problem and its row.
 */
export async function setConsignments(
  deps: TOutboundDeps,
  actor: TActor,
  items: Array<TConsignmentItem & { row?: number }>,
  lang: TLanguage,
): Promise<{ updated: number }> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const errors: Array<TRowIssue & { row: number }> = [];
    const seen = new Map<string, number>();
    const resolved: Array<{ id: string; item: TConsignmentItem; row: number }> = [];
    for (const [i, item] of items.entries()) {
      const row = item.row ?? i + 1;
      const prev = seen.get(item.consignment_number);
      if (prev !== undefined)
        errors.push({ row, code: 'DUPLICATE_VALUE', field: 'consignment_number', value: item.consignment_number });
      seen.set(item.consignment_number, row);
      const match = await orderRepo.findOrderByNumber(tx, customerId, item.order);
      if (!match) errors.push({ row, code: 'NOT_FOUND', field: 'order', value: item.order });
      else if (!acceptsConsignment(match.status as TOrderStatus))
        errors.push({ row, code: 'INVALID_STATUS_TRANSITION', field: 'order', value: item.order });
      else resolved.push({ id: match.id, item, row });
    }
    const inInput = new Set(resolved.map((r) => r.id));
    for (const taken of await orderRepo.ordersByConsignment(tx, customerId, [...seen.keys()])) {
      // Held by an order of this input, which gets its number from the input: not a conflict.
      if (!inInput.has(taken.id))
        errors.push({
          row: seen.get(taken.consignment_number)!,
          code: 'DUPLICATE_VALUE',
          field: 'consignment_number',
          value: taken.consignment_number,
        });
    }
    if (errors.length) rejectRows(errors, lang);
    // Clear first, then set: two orders may swap numbers within one input.
    await orderRepo.clearConsignments(
      tx,
      customerId,
      resolved.map((r) => r.id),
    );
    for (const r of resolved) await orderRepo.updateOrder(tx, customerId, r.id, consignmentPatch(r.item));
    await writeAudit(tx, actor, {
      action: 'set_consignments',
      entity: 'outbound_order',
      after: { count: resolved.length, items: resolved.slice(0, 200).map((r) => ({ id: r.id, ...r.item })) },
    });
    return { updated: resolved.length };
  });
}
