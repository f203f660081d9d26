import {
  fieldLabel,
  RETURN_VALUE_LABELS,
  type TCreateSupplierReturn,
  type TLanguage,
  type TReturnPrint,
  type TSupplierReturn,
  type TSupplierReturnDetail,
  type TSupplierReturnPile,
  type TUpdateSupplierReturn,
} from '@wms/contracts';
import type { Executor, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { EXPORT_MAX_ROWS, iso } from '../../platform/listing';
import { nextDocumentNumber } from '../../platform/sequences';
import { barcodeSvg } from '../labels';
import * as stock from '../stock';
import * as repo from './returns.repository';
import { barcodeOf, type TReturnsDeps } from './returns.service';
import * as workflow from './returns.workflow';
import * as supplierRepo from './supplier-returns.repository';

type TPage = { page: number; page_size: number; search?: string; ordering?: string };
const DOCUMENT_TYPE = 'supplier_return';

function toSupplierReturn(r: supplierRepo.TSupplierSummaryRow): TSupplierReturn {
  return {
    id: r.id,
    number: r.number,
    warehouse_id: r.warehouse_id,
    warehouse_code: r.warehouse_code,
    status: r.status,
    reason: r.reason,
    supplier_name: r.supplier_name,
    supplier_contact: r.supplier_contact,
    supplier_phone: r.supplier_phone,
    supplier_address: r.supplier_address,
    planned_date: r.planned_date,
    consignment_number: r.consignment_number,
    remark: r.remark,
    line_count: Number(r.line_count),
    quantity: Number(r.quantity),
    dispatched_at: iso(r.dispatched_at),
    cancelled_at: iso(r.cancelled_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

export async function loadDetail(ex: Executor, customerId: string, id: string): Promise<TSupplierReturnDetail> {
  const summary = await supplierRepo.findSupplierSummary(ex, customerId, id);
  if (!summary) throw notFound();
  const lines = await supplierRepo.findSupplierLines(ex, customerId, id);
  return {
    ...toSupplierReturn(summary),
    warehouse_name: summary.warehouse_name,
    actions: workflow.supplierActionsFor(summary.status),
    lines: lines.map((l) => ({ ...l, quantity: Number(l.quantity) })),
  };
}

export async function refuseTransition(tx: Tx, customerId: string, id: string): Promise<never> {
  const row = await supplierRepo.findSupplierReturn(tx, customerId, id);
  if (!row) throw notFound();
  throw new AppError('INVALID_STATUS_TRANSITION', { status: row.status });
}

export const document = (row: { id: string; number: string }): stock.TStockDocument => ({
  type: DOCUMENT_TYPE,
  id: row.id,
  number: row.number,
});

export async function listSupplierReturns(
  deps: TReturnsDeps,
  actor: TActor,
  q: TPage & supplierRepo.TSupplierListFilter,
): Promise<{ count: number; results: TSupplierReturn[] }> {
  const order = supplierRepo.supplierOrder(q.ordering);
  if (!order) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  const { rows, count } = await supplierRepo.listSupplierReturns(
    deps.db,
    tenantOf(actor),
    q,
    order,
    q.page_size,
    (q.page - 1) * q.page_size,
  );
  return { count, results: rows.map(toSupplierReturn) };
}

export async function getSupplierReturn(deps: TReturnsDeps, actor: TActor, id: string) {
  return loadDetail(deps.db, tenantOf(actor), id);
}

/** Piles of a warehouse with stock a new return-to-supplier order can take. */
export async function listPiles(
  deps: TReturnsDeps,
  actor: TActor,
  q: TPage & { warehouse_id: string; location_kind?: string },
): Promise<{ count: number; results: TSupplierReturnPile[] }> {
  const customerId = tenantOf(actor);
  if (!(await repo.findWarehouse(deps.db, customerId, q.warehouse_id)))
    throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
  const { rows, count } = await supplierRepo.listPiles(deps.db, customerId, q, q.page_size, (q.page - 1) * q.page_size);
  return {
    count,
    results: rows.map((r) => {
      const onHand = Number(r.on_hand);
      const reserved = Number(r.reserved);
      return {
        balance_id: r.balance_id,
        product_id: r.product_id,
        product_number: r.product_number,
        product_name: r.product_name,
        location_id: r.location_id,
        location_code: r.location_code,
        location_kind: r.location_kind,
        expiry_date: r.expiry_date,
        on_hand: onHand,
        reserved,
        available: workflow.claimable({ onHand, reserved, claimed: Number(r.claimed) }),
      };
    }),
  };
}

/**
 * Create a return-to-supplier order and hold its stock at once, all lines or none: sellable piles are reserved in
 * the stock engine, other piles (defective, expired, staging) are claimed by the order (workflow.holdOf). Stock that
 * is reserved for something else, claimed by another open order, or not there answers INVENTORY_SHORTAGE.
 */
export async function createSupplierReturn(deps: TReturnsDeps, actor: TActor, input: TCreateSupplierReturn) {
  const customerId = tenantOf(actor);
  const id = await withTx(deps.db, async (tx) => {
    const warehouse = await repo.findWarehouse(tx, customerId, input.warehouse_id);
    if (!warehouse) throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
    const wanted = new Map<string, number>();
    for (const l of input.lines) wanted.set(l.balance_id, (wanted.get(l.balance_id) ?? 0) + l.quantity);
    // Lock every pile in the engine's key order first: the claim check below and the engine's reservation then see
    // numbers no one else can change, and a second order for the same pile waits here.
    const piles = await stock.lockBalances(tx, customerId, [...wanted.keys()]);
    for (const pile of piles.values())
      if (pile.warehouseId !== warehouse.id) throw new AppError('INVALID_FIELD', { field: 'balance_id', id: pile.id });

    const number = await nextDocumentNumber(tx, customerId, 'RS');
    const row = await supplierRepo.insertSupplierReturn(tx, {
      customer_id: customerId,
      number,
      warehouse_id: warehouse.id,
      status: 'reserved',
      reason: input.reason,
      supplier_name: input.supplier_name,
      supplier_contact: input.supplier_contact ?? '',
      supplier_phone: input.supplier_phone ?? '',
      supplier_address: input.supplier_address ?? '',
      planned_date: input.planned_date,
      consignment_number: input.consignment_number ?? '',
      remark: input.remark ?? '',
      created_by: actor.id,
    });

    const claims = [...piles.values()].filter((p) => workflow.holdOf(p.locationKind) === 'claim');
    const claimed = await supplierRepo.claimedOn(
      tx,
      customerId,
      claims.map((p) => p.id),
      row.id,
    );
    for (const p of claims) {
      const q = wanted.get(p.id)!;
      const available = workflow.claimable({ onHand: p.onHand, reserved: p.reserved, claimed: claimed.get(p.id) ?? 0 });
      if (q > available)
        throw new AppError('INVENTORY_SHORTAGE', {
          balance_id: p.id,
          product_id: p.productId,
          location_id: p.locationId,
          requested: q,
          available,
        });
    }
    const reservations = [...piles.values()].filter((p) => workflow.holdOf(p.locationKind) === 'reservation');
    if (reservations.length)
      await stock.reserve(tx, stock.stockActorOf(actor), {
        document: document(row),
        lines: reservations.map((p) => ({ balanceId: p.id, quantity: wanted.get(p.id)! })),
      });

    await supplierRepo.insertSupplierLines(
      tx,
      [...wanted.entries()].map(([balanceId, quantity], i) => {
        const p = piles.get(balanceId)!;
        return {
          customer_id: customerId,
          supplier_return_id: row.id,
          line_no: i + 1,
          balance_id: p.id,
          product_id: p.productId,
          location_id: p.locationId,
          expiry_date: p.expiryDate,
          quantity,
        };
      }),
    );
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'supplier_return',
      entityId: row.id,
      after: {
        number,
        supplier_name: row.supplier_name,
        reason: row.reason,
        lines: [...wanted.entries()].map(([balance_id, quantity]) => ({ balance_id, quantity })),
      },
    });
    return row.id;
  });
  return loadDetail(deps.db, customerId, id);
}

/** Edit the header while the order is reserved. */
export async function updateSupplierReturn(
  deps: TReturnsDeps,
  actor: TActor,
  id: string,
  input: TUpdateSupplierReturn,
) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await supplierRepo.findSupplierReturn(tx, customerId, id);
    if (!before) throw notFound();
    const row = await supplierRepo.updateSupplierInStatus(
      tx,
      customerId,
      id,
      workflow.supplierStatusesAllowing('edit'),
      input,
    );
    if (!row) await refuseTransition(tx, customerId, id);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'supplier_return',
      entityId: id,
      before: Object.fromEntries(Object.keys(input).map((k) => [k, before[k as keyof typeof before]])),
      after: input,
    });
  });
  return loadDetail(deps.db, customerId, id);
}

export async function exportSupplierReturns(
  deps: TReturnsDeps,
  actor: TActor,
  q: TPage & supplierRepo.TSupplierListFilter,
  lang: TLanguage,
) {
  const order = supplierRepo.supplierOrder(q.ordering);
  if (!order) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  const rows = await supplierRepo.exportSupplierLines(deps.db, tenantOf(actor), q, order, EXPORT_MAX_ROWS);
  return rows.map((r) => ({
    supplier_return_number: r.number,
    warehouse_code: r.warehouse_code,
    status: RETURN_VALUE_LABELS.supplier_status[r.status][lang],
    supplier_return_reason: RETURN_VALUE_LABELS.reason[r.reason][lang],
    supplier_name: r.supplier_name,
    dispatch_date: r.planned_date,
    line_no: r.line_no,
    product_number: r.product_number,
    product_name: r.product_name,
    location_code: r.location_code,
    expiry_date: r.expiry_date,
    quantity: r.quantity,
    consignment_number: r.consignment_number,
    dispatched_at: iso(r.dispatched_at),
    remark: r.remark,
  }));
}

/** The printable return-to-supplier document (same print screen as a return receipt). */
export async function printSupplierReturn(
  deps: TReturnsDeps,
  actor: TActor,
  id: string,
  lang: TLanguage,
): Promise<TReturnPrint> {
  const customerId = tenantOf(actor);
  const r = await loadDetail(deps.db, customerId, id);
  const label = (key: string) => fieldLabel(key, lang);
  return {
    kind: 'supplier_return',
    number: r.number,
    number_barcode_svg: barcodeSvg(r.number, 'code128'),
    title: RETURN_VALUE_LABELS.document.supplier_return[lang],
    status_label: RETURN_VALUE_LABELS.supplier_status[r.status][lang],
    company_name: await repo.companyName(deps.db, customerId),
    warehouse_code: r.warehouse_code,
    warehouse_name: r.warehouse_name,
    fields: [
      { label: label('supplier_name'), value: r.supplier_name },
      { label: label('supplier_contact'), value: r.supplier_contact },
      { label: label('supplier_phone'), value: r.supplier_phone },
      { label: label('supplier_address'), value: r.supplier_address },
      { label: label('supplier_return_reason'), value: RETURN_VALUE_LABELS.reason[r.reason][lang] },
      { label: label('dispatch_date'), value: r.planned_date },
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
      location_code: l.location_code,
      quantity: l.quantity,
      accepted_quantity: null,
      good_quantity: null,
      defective_quantity: null,
    })),
    printed_at: new Date().toISOString(),
  };
}
