import {
  fieldLabel,
  RETURN_VALUE_LABELS,
  type TConfirmReturnReceipt,
  type TCreateReturnReceipt,
  type TLanguage,
  type TReturnCategory,
  type TReturnCounts,
  type TReturnListQuery,
  type TReturnOrderLookup,
  type TReturnPrint,
  type TReturnReceipt,
  type TReturnReceiptDetail,
  type TReturnStatus,
  type TUpdateReturnReceipt,
} from '@wms/contracts';
import type { Db, Executor, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs';
import { EXPORT_MAX_ROWS, iso } from '../../platform/listing';
import { nextDocumentNumber } from '../../platform/sequences';
import { barcodeSvg, pickSymbology } from '../labels';
import * as outbound from '../outbound';
import * as receipts from '../receiving';
import * as receiving from '../receiving';
import { publishReturnConfirmed } from './returns.events';
import * as repo from './returns.repository';
import * as workflow from './returns.workflow';

export interface TReturnsDeps {
  db: Db;
  /** For the domain events published with a confirmation (usage billing's returns handling). */
  jobs?: JobQueue;
}

const num = (n: number | null) => (n === null || n === undefined ? null : Number(n));

function toReturn(r: repo.TReturnSummaryRow): TReturnReceipt {
  return {
    id: r.id,
    number: r.number,
    warehouse_id: r.warehouse_id,
    warehouse_code: r.warehouse_code,
    category: r.category,
    planned_date: r.planned_date,
    status: r.status,
    order_id: r.order_id,
    order_number: r.order_number,
    consignment_number: r.consignment_number,
    remark: r.remark,
    line_count: Number(r.line_count),
    quantity: Number(r.quantity),
    accepted_quantity: num(r.accepted_quantity),
    defective_quantity: num(r.defective_quantity),
    good_quantity: num(r.good_quantity),
    confirmed_at: iso(r.confirmed_at),
    cancelled_at: iso(r.cancelled_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

async function loadDetail(ex: Executor, customerId: string, id: string): Promise<TReturnReceiptDetail> {
  const summary = await repo.findReturnSummary(ex, customerId, id);
  if (!summary) throw notFound();
  const lines = await receipts.findLines(ex, 'return', customerId, id);
  return {
    ...toReturn(summary),
    warehouse_name: summary.warehouse_name,
    actions: workflow.actionsFor(summary.status),
    order_status: summary.order_status,
    lines: lines.map((l) => ({ ...receiving.toReceiptLine(l), has_shelf_life: !!l.shelf_life_months })),
  };
}

/**
 * The expected lines: this seller's single products (a combination product comes back as its components), the lot
 * rule for expiry dates — except that a shelf-life product's lot may stay open until the confirmation, because a
 * return is often registered before anyone has seen the goods.
 */
function checkPlannedLines(tx: Tx, customerId: string, lines: TCreateReturnReceipt['lines']) {
  return receiving.checkPlannedLines(tx, customerId, lines, { lotMayStayOpen: true });
}

/** The order a return names must be one of this seller's orders; its number is copied onto the receipt. */
async function linkedOrder(tx: Tx, customerId: string, orderId: string | null | undefined) {
  if (!orderId) return null;
  try {
    const { order } = await outbound.findShippedOrder(tx, customerId, orderId);
    return order;
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', { field: 'order_id' });
    throw err;
  }
}

// ---- reads ----

export async function listReturns(deps: TReturnsDeps, actor: TActor, q: TReturnListQuery) {
  const order = repo.returnOrder(q.ordering);
  if (!order) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  const { rows, count } = await repo.listReturns(
    deps.db,
    tenantOf(actor),
    q,
    order,
    q.page_size,
    (q.page - 1) * q.page_size,
  );
  return { count, results: rows.map(toReturn) };
}

export async function getReturn(deps: TReturnsDeps, actor: TActor, id: string) {
  return loadDetail(deps.db, tenantOf(actor), id);
}

/** Prefill a return from an order: what left the warehouse for it (per product and lot), and its earlier returns. */
export async function lookupReturnOrder(deps: TReturnsDeps, actor: TActor, code: string): Promise<TReturnOrderLookup> {
  const customerId = tenantOf(actor);
  const found = await outbound.lookupOrder(deps, actor, code);
  const { order, shipped } = await outbound.findShippedOrder(deps.db, customerId, found.id);
  const products = new Map(
    (
      await receipts.findProducts(
        deps.db,
        customerId,
        shipped.map((s) => s.product_id),
      )
    ).map((p) => [p.id, p]),
  );
  return {
    order_id: order.id,
    order_number: order.number,
    order_status: order.status,
    consignment_number: order.consignment_number ?? '',
    warehouse_id: order.warehouse_id,
    lines: shipped.map((s) => ({
      product_id: s.product_id,
      product_number: products.get(s.product_id)?.number ?? '',
      product_name: products.get(s.product_id)?.name ?? '',
      expiry_date: s.expiry_date,
      quantity: Number(s.quantity),
    })),
    returns: await repo.returnsOfOrder(deps.db, customerId, order.id),
  };
}

// ---- create, edit, delete ----

export async function createReturn(deps: TReturnsDeps, actor: TActor, input: TCreateReturnReceipt) {
  const customerId = tenantOf(actor);
  const id = await withTx(deps.db, async (tx) => {
    const warehouse = await repo.findWarehouse(tx, customerId, input.warehouse_id);
    if (!warehouse) throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
    const order = await linkedOrder(tx, customerId, input.order_id);
    const lines = await checkPlannedLines(tx, customerId, input.lines);
    const number = await nextDocumentNumber(tx, customerId, 'RT');
    const row = await receipts.insertReceipt(tx, 'return', {
      customer_id: customerId,
      number,
      warehouse_id: warehouse.id,
      category: input.category,
      planned_date: input.planned_date,
      order_id: order?.id ?? null,
      order_number: order?.number ?? input.order_number ?? '',
      consignment_number: input.consignment_number ?? '',
      remark: input.remark ?? '',
      created_by: actor.id,
    });
    await receipts.replaceLines(tx, 'return', customerId, row.id, lines);
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'return_receipt',
      entityId: row.id,
      after: { number, category: row.category, order_number: row.order_number, lines },
    });
    return row.id;
  });
  return loadDetail(deps.db, customerId, id);
}

/** Edit while pending (or after a cancelled confirmation); `lines`, when given, replace all lines. */
export async function updateReturn(deps: TReturnsDeps, actor: TActor, id: string, input: TUpdateReturnReceipt) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await receiving.requireReceipt(tx, 'return', customerId, id);
    const set: Partial<receipts.TReceiptInsert<'return'>> = {};
    if (input.warehouse_id !== undefined) {
      if (!(await repo.findWarehouse(tx, customerId, input.warehouse_id)))
        throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
      set.warehouse_id = input.warehouse_id;
    }
    if (input.order_id !== undefined) {
      const order = await linkedOrder(tx, customerId, input.order_id);
      set.order_id = order?.id ?? null;
      set.order_number = order?.number ?? input.order_number ?? '';
    } else if (input.order_number !== undefined && !before.order_id) set.order_number = input.order_number;
    if (input.category !== undefined) set.category = input.category;
    if (input.planned_date !== undefined) set.planned_date = input.planned_date;
    if (input.consignment_number !== undefined) set.consignment_number = input.consignment_number;
    if (input.remark !== undefined) set.remark = input.remark;
    const lines = input.lines ? await checkPlannedLines(tx, customerId, input.lines) : null;
    await receiving.editReceipt(tx, actor, 'return', id, {
      set,
      lines,
      before: { category: before.category, order_number: before.order_number, planned_date: before.planned_date },
      after: { ...set, lines: lines ?? undefined },
    });
  });
  return loadDetail(deps.db, customerId, id);
}

/** Only a pending receipt can be deleted (nothing was ever posted for it). */
export async function deleteReturn(deps: TReturnsDeps, actor: TActor, id: string) {
  await withTx(deps.db, (tx) => receiving.deleteReceipt(tx, actor, 'return', id));
  return { ok: true as const };
}

// ---- confirm and cancel ----

/** Apply the order events of a return, reporting an order that is not in a fitting status as RETURN_ORDER_STATUS. */
async function moveOrder(
  tx: Tx,
  actor: TActor,
  receipt: receipts.TReceiptRow<'return'>,
  events: workflow.TOrderReturnEvent[],
): Promise<void> {
  if (!receipt.order_id || events.length === 0) return;
  // Only the first confirmed return of an order moves it (and only the last one to go moves it back).
  if ((await repo.otherConfirmedReturns(tx, receipt.customer_id, receipt.order_id, receipt.id)) > 0) return;
  for (const event of events) {
    try {
      await outbound.applyReturnEvent(tx, actor, {
        orderId: receipt.order_id,
        event,
        returnNumber: receipt.number,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'INVALID_STATUS_TRANSITION')
        throw new AppError('RETURN_ORDER_STATUS', {
          order_number: receipt.order_number,
          status: err.params.status,
          field: 'order_id',
        });
      throw err;
    }
  }
}

/**
 * /return-confirm, in one transaction: the receiving routine (guarded status change, numbers and locations per line,
 * one stock posting with reason `return`), then the original order's status (outbound module) and the
 * `returns.return-confirmed` event. Any refusal rolls all of it back.
 */
export async function confirmReturn(deps: TReturnsDeps, actor: TActor, id: string, input: TConfirmReturnReceipt) {
  await withTx(deps.db, async (tx) => {
    const receipt = await receiving.confirmReceipt(tx, actor, 'return', id, input, (r) =>
      moveOrder(tx, actor, r, workflow.orderEventsOnConfirm(r.category as TReturnCategory)),
    );
    if (deps.jobs) await publishReturnConfirmed(tx, deps.jobs, receipt);
  });
  deps.jobs?.kick('outbox.deliver');
  return loadDetail(deps.db, tenantOf(actor), id);
}

/**
 * Undo a confirmation: the returned stock is taken back out of the locations it went to (only while it is still
 * there and free, else INVENTORY_SHORTAGE and nothing changes), and the order's status walks back.
 */
export async function cancelReturnConfirmation(deps: TReturnsDeps, actor: TActor, id: string) {
  await withTx(deps.db, (tx) =>
    receiving.cancelConfirmation(tx, actor, 'return', id, (receipt) =>
      moveOrder(tx, actor, receipt, workflow.orderEventsOnCancel(receipt.category as TReturnCategory)),
    ),
  );
  return loadDetail(deps.db, tenantOf(actor), id);
}

// ---- export, counts, print ----

export async function exportReturns(deps: TReturnsDeps, actor: TActor, q: TReturnListQuery, lang: TLanguage) {
  const order = repo.returnOrder(q.ordering);
  if (!order) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  const rows = await repo.exportReturnLines(deps.db, tenantOf(actor), q, order, EXPORT_MAX_ROWS);
  return rows.map((r) => ({
    return_number: r.number,
    warehouse_code: r.warehouse_code,
    return_category: RETURN_VALUE_LABELS.category[r.category][lang],
    return_planned_date: r.planned_date,
    status: RETURN_VALUE_LABELS.status[r.status][lang],
    order_number: r.order_number,
    consignment_number: r.consignment_number,
    line_no: r.line_no,
    product_number: r.product_number,
    product_name: r.product_name,
    expiry_date: r.expiry_date,
    quantity: r.quantity,
    accepted_quantity: r.accepted_quantity,
    good_quantity: r.good_quantity,
    defective_quantity: r.defective_quantity,
    location_code: r.location_code,
    defective_location_code: r.defective_location_code,
    confirmed_at: iso(r.confirmed_at),
    remark: r.remark,
  }));
}

export async function returnCounts(
  deps: TReturnsDeps,
  actor: TActor,
  q: { warehouse_id?: string; date_from?: string; date_to?: string },
): Promise<TReturnCounts> {
  const { byStatus, byCategory, products, supplier } = await repo.countReturns(deps.db, tenantOf(actor), q);
  const statuses: TReturnStatus[] = ['pending', 'confirmed', 'cancelled'];
  return {
    total: byStatus.reduce((s, r) => s + Number(r.count), 0),
    by_status: statuses.map((status) => ({
      status,
      count: Number(byStatus.find((r) => r.status === status)?.count ?? 0),
    })),
    by_category: (['customer_return', 'undeliverable', 'other'] as const).map((category) => ({
      category,
      count: Number(byCategory.find((r) => r.category === category)?.count ?? 0),
    })),
    products: products.map((p) => ({
      ...p,
      receipts: Number(p.receipts),
      accepted_quantity: Number(p.accepted_quantity ?? 0),
      good_quantity: Number(p.good_quantity ?? 0),
      defective_quantity: Number(p.defective_quantity ?? 0),
    })),
    supplier_returns: (['reserved', 'dispatched', 'cancelled'] as const).map((status) => ({
      status,
      count: Number(supplier.find((r) => r.status === status)?.count ?? 0),
    })),
  };
}

/** Code 128 of a document number, or the right symbology of a product barcode (EAN-13 when it is one). */
export function barcodeOf(value: string | null): string | null {
  if (!value) return null;
  return barcodeSvg(value, pickSymbology(value, 'auto'));
}

/** /return-print/{id}: the receipt with its lines and barcodes, labels in the caller's language. */
export async function printReturn(
  deps: TReturnsDeps,
  actor: TActor,
  id: string,
  lang: TLanguage,
): Promise<TReturnPrint> {
  const customerId = tenantOf(actor);
  const r = await loadDetail(deps.db, customerId, id);
  const label = (key: string) => fieldLabel(key, lang);
  return {
    kind: 'return',
    number: r.number,
    number_barcode_svg: barcodeSvg(r.number, 'code128'),
    title: RETURN_VALUE_LABELS.document.return[lang],
    status_label: RETURN_VALUE_LABELS.status[r.status][lang],
    company_name: await repo.companyName(deps.db, customerId),
    warehouse_code: r.warehouse_code,
    warehouse_name: r.warehouse_name,
    fields: [
      { label: label('return_category'), value: RETURN_VALUE_LABELS.category[r.category][lang] },
      { label: label('return_planned_date'), value: r.planned_date },
      { label: label('order_number'), value: r.order_number },
      { label: label('consignment_number'), value: r.consignment_number },
      { label: label('remark'), value: r.remark },
    ],
    lines: r.lines.map((l) => ({
      line_no: l.line_no,
      product_number: l.product_number,
      product_name: l.product_name,
      barcode: l.product_barcode,
      barcode_svg: barcodeOf(l.product_barcode ?? l.product_number),
      expiry_date: l.expiry_date,
      location_code: [l.location_code, l.defective_location_code].filter(Boolean).join(' / ') || null,
      quantity: l.quantity,
      accepted_quantity: l.accepted_quantity,
      good_quantity: l.good_quantity,
      defective_quantity: l.defective_quantity,
    })),
    printed_at: new Date().toISOString(),
  };
}
