import type {
  TConfirmInboundReceipt,
  TCreateInboundReceipt,
  TInboundCategory,
  TInboundCountQuery,
  TInboundCounts,
  TInboundListQuery,
  TInboundPrint,
  TInboundQrLabel,
  TInboundReceipt,
  TInboundReceiptDetail,
  TInboundStatus,
  TQuickInbound,
} from '@wms/contracts';
import QRCode from 'qrcode';
import type { Db, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { EXPORT_MAX_ROWS } from '../../platform/listing';
import { nextDocumentNumber } from '../../platform/sequences';
import { findProductByCode } from '../catalog/catalog.repository';
import { barcodeSvg, pickSymbology } from '../labels/labels.barcode';
import * as stock from '../stock/stock.engine';
import { lotRuleViolation, sellableUntil } from '../stock/stock.rules';
import * as repo from './inbound.repository';
import * as workflow from './inbound.workflow';

export interface TInboundDeps {
  db: Db;
}

function toReceipt(r: repo.TReceiptSummaryRow): TInboundReceipt {
  return {
    ...r,
    category: r.category as TInboundCategory,
    line_count: Number(r.line_count),
    total_quantity: Number(r.total_quantity),
  };
}

function toDetail(r: repo.TReceiptSummaryRow, lines: repo.TLineRow[]): TInboundReceiptDetail {
  return {
    ...toReceipt(r),
    actions: workflow.actionsFor(r.status),
    lines: lines.map((l) => ({
      id: l.id,
      line_no: l.line_no,
      product_id: l.product_id,
      product_number: l.product_number,
      product_name: l.product_name,
      product_barcode: l.product_barcode,
      shelf_life_months: l.shelf_life_months,
      quantity: l.quantity,
      expiry_date: l.expiry_date,
      sellable_until: sellableUntil(l.expiry_date, l.sellable_rule_months),
      accepted_quantity: l.accepted_quantity,
      defective_quantity: l.defective_quantity,
      good_quantity: l.good_quantity,
      difference: l.accepted_quantity === null ? null : l.accepted_quantity - l.quantity,
      location_id: l.location_id,
      location_code: l.location_code,
      defective_location_id: l.defective_location_id,
      defective_location_code: l.defective_location_code,
    })),
  };
}

async function loadDetail(ex: Db | Tx, customerId: string, id: string): Promise<TInboundReceiptDetail> {
  const summary = await repo.findReceiptSummary(ex, customerId, id);
  if (!summary) throw notFound();
  return toDetail(summary, await repo.findLines(ex, customerId, id));
}

/** A guarded update matched no row: 404 when the receipt is not this seller's, else 409 for its status. */
async function refuseTransition(tx: Tx, customerId: string, id: string): Promise<never> {
  const receipt = await repo.findReceipt(tx, customerId, id);
  if (!receipt) throw notFound();
  throw new AppError('INVALID_STATUS_TRANSITION', { status: receipt.status });
}

/** Check the planned lines: whole quantities ≥ 1, this seller's single products, the lot rule for expiry dates. */
async function checkPlannedLines(tx: Tx, customerId: string, lines: TCreateInboundReceipt['lines']) {
  const found = new Map(
    (
      await repo.findProducts(
        tx,
        customerId,
        lines.map((l) => l.product_id),
      )
    ).map((p) => [p.id, p]),
  );
  return lines.map((l, i) => {
    const line = i + 1;
    if (!workflow.isPlannedQuantity(l.quantity))
      throw new AppError('ABNORMAL_QUANTITY', { field: 'quantity', line, value: l.quantity });
    const product = found.get(l.product_id);
    if (!product) throw new AppError('NOT_FOUND', { field: 'product_id', line });
    const expiry = l.expiry_date ?? null;
    const violation = lotRuleViolation(product, expiry);
    if (violation === 'PRODUCT_ABNORMAL') throw new AppError(violation, { field: 'product_id', line });
    if (violation) throw new AppError(violation, { field: 'expiry_date', line, product_number: product.number });
    return { product_id: l.product_id, quantity: l.quantity, expiry_date: expiry };
  });
}

export async function listReceipts(deps: TInboundDeps, actor: TActor, q: TInboundListQuery) {
  const { count, rows } = await repo.listReceipts(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toReceipt) };
}

export async function getReceipt(deps: TInboundDeps, actor: TActor, id: string) {
  return loadDetail(deps.db, tenantOf(actor), id);
}

/** Create a receipt (pending confirmation) with its number from the seller's IN sequence. */
export async function createReceipt(deps: TInboundDeps, actor: TActor, input: TCreateInboundReceipt) {
  const customerId = tenantOf(actor);
  const id = await withTx(deps.db, async (tx) => {
    const receipt = await insertReceipt(tx, actor, input, false);
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'inbound_receipt',
      entityId: receipt.id,
      after: { number: receipt.number, lines: input.lines.length },
    });
    return receipt.id;
  });
  return loadDetail(deps.db, customerId, id);
}

async function insertReceipt(tx: Tx, actor: TActor, input: TCreateInboundReceipt, quick: boolean) {
  const customerId = tenantOf(actor);
  if (!(await repo.findWarehouse(tx, customerId, input.warehouse_id)))
    throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
  const lines = await checkPlannedLines(tx, customerId, input.lines);
  const receipt = await repo.insertReceipt(tx, {
    customer_id: customerId,
    number: await nextDocumentNumber(tx, customerId, 'IN'),
    warehouse_id: input.warehouse_id,
    category: input.category,
    planned_date: input.planned_date,
    remark: input.remark ?? '',
    quick,
    created_by: actor.id,
  });
  await repo.replaceLines(tx, customerId, receipt.id, lines);
  return receipt;
}

/** Replace header and lines of a receipt that has no stock posted (pending or cancelled-confirmed). */
export async function updateReceipt(deps: TInboundDeps, actor: TActor, id: string, input: TCreateInboundReceipt) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findReceipt(tx, customerId, id);
    if (!before) throw notFound();
    if (!(await repo.findWarehouse(tx, customerId, input.warehouse_id)))
      throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
    const lines = await checkPlannedLines(tx, customerId, input.lines);
    const updated = await repo.updateReceiptInStatus(tx, customerId, id, workflow.statusesAllowing('edit'), {
      warehouse_id: input.warehouse_id,
      category: input.category,
      planned_date: input.planned_date,
      remark: input.remark ?? '',
    });
    if (!updated) await refuseTransition(tx, customerId, id);
    await repo.replaceLines(tx, customerId, id, lines);
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'inbound_receipt',
      entityId: id,
      before: { warehouse_id: before.warehouse_id, category: before.category, planned_date: before.planned_date },
      after: { ...input, lines: input.lines.length },
    });
  });
  return loadDetail(deps.db, customerId, id);
}

export async function deleteReceipt(deps: TInboundDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await repo.findReceipt(tx, customerId, id);
    if (!(await repo.deleteReceiptInStatus(tx, customerId, id, workflow.statusesAllowing('delete'))))
      await refuseTransition(tx, customerId, id);
    await writeAudit(tx, actor, {
      action: 'delete',
      entity: 'inbound_receipt',
      entityId: id,
      before: { number: before?.number, status: before?.status },
    });
  });
  return { ok: true as const };
}

/**
 * Confirm inside the caller's transaction: the guarded status change first (it locks the receipt, so a second
 * confirmation waits and then gets 409), then the per-line numbers and locations, then the stock posting.
 */
async function confirmInTx(tx: Tx, actor: TActor, id: string, input: TConfirmInboundReceipt) {
  const customerId = tenantOf(actor);
  const from = await repo.findReceipt(tx, customerId, id);
  if (!from) throw notFound();
  const receipt = await repo.updateReceiptInStatus(tx, customerId, id, workflow.statusesAllowing('confirm'), {
    status: workflow.targetStatus('confirm'),
    confirmed_at: new Date(),
    confirmed_by: actor.id,
  });
  if (!receipt) return refuseTransition(tx, customerId, id);

  const lines = await repo.findLines(tx, customerId, id);
  const byId = new Map(lines.map((l) => [l.id, l]));
  const seen = new Set<string>();
  for (const l of input.lines) {
    if (!byId.has(l.line_id) || seen.has(l.line_id)) throw new AppError('INVALID_FIELD', { field: 'line_id' });
    seen.add(l.line_id);
  }
  const missing = lines.find((l) => !seen.has(l.id));
  if (missing) throw new AppError('REQUIRED_FIELD', { field: 'line_id', line: missing.line_no });

  const locations = new Map(
    (
      await repo.findLocations(
        tx,
        customerId,
        input.lines.flatMap((l) => [l.location_id, l.defective_location_id].filter((x): x is string => !!x)),
      )
    ).map((l) => [l.id, l]),
  );
  const checkLocation = (locationId: string | null | undefined, kind: string, field: string, line: number) => {
    if (!locationId) throw new AppError('REQUIRED_FIELD', { field, line });
    const loc = locations.get(locationId);
    if (!loc) throw new AppError('NOT_FOUND', { field, line });
    if (loc.warehouse_id !== receipt.warehouse_id || loc.kind !== kind || !loc.is_active)
      throw new AppError('INVALID_FIELD', { field, line });
    return loc.id;
  };

  const postings: stock.TInboundLine[] = [];
  const summary: Array<Record<string, unknown>> = [];
  for (const l of input.lines) {
    const line = byId.get(l.line_id)!;
    const checked = workflow.checkConfirmQuantities(l);
    if (!checked.ok)
      throw new AppError('ABNORMAL_QUANTITY', {
        field: checked.field,
        line: line.line_no,
        accepted_quantity: l.accepted_quantity,
        defective_quantity: l.defective_quantity,
        good_quantity: l.good_quantity,
      });
    const { accepted, defective, good } = checked.value;
    const expiry = l.expiry_date !== undefined ? l.expiry_date : line.expiry_date;
    const violation = lotRuleViolation({ type: line.product_type, shelfLifeMonths: line.shelf_life_months }, expiry);
    if (violation === 'PRODUCT_ABNORMAL') throw new AppError(violation, { field: 'product_id', line: line.line_no });
    if (violation) throw new AppError(violation, { field: 'expiry_date', line: line.line_no });
    const goodLocation = good > 0 ? checkLocation(l.location_id, 'sellable', 'location_id', line.line_no) : null;
    const defectiveLocation =
      defective > 0 ? checkLocation(l.defective_location_id, 'defective', 'defective_location_id', line.line_no) : null;
    await repo.setLineConfirmation(tx, customerId, line.id, {
      accepted_quantity: accepted,
      defective_quantity: defective,
      good_quantity: good,
      location_id: goodLocation,
      defective_location_id: defectiveLocation,
      expiry_date: expiry ?? null,
    });
    if (goodLocation)
      postings.push({
        productId: line.product_id,
        locationId: goodLocation,
        expiryDate: expiry ?? null,
        quantity: good,
      });
    if (defectiveLocation)
      postings.push({
        productId: line.product_id,
        locationId: defectiveLocation,
        expiryDate: expiry ?? null,
        quantity: defective,
      });
    summary.push({ line: line.line_no, planned: line.quantity, accepted, defective, good });
  }
  await stock.postInbound(tx, stock.stockActorOf(actor), {
    document: { type: 'inbound', id: receipt.id, number: receipt.number },
    reason: 'inbound',
    lines: postings,
  });
  await writeAudit(tx, actor, {
    action: 'confirm',
    entity: 'inbound_receipt',
    entityId: id,
    before: { status: from.status },
    after: { status: receipt.status, lines: summary },
  });
  return receipt;
}

/** /entry-confirm: accepted, defective and good per line into their locations; posts the stock in the same transaction. */
export async function confirmReceipt(deps: TInboundDeps, actor: TActor, id: string, input: TConfirmInboundReceipt) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, (tx) => confirmInTx(tx, actor, id, input));
  return loadDetail(deps.db, customerId, id);
}

/**
 * Undo a confirmation: the received stock is taken back out of the locations it went to. Only possible while that
 * stock is still there and free (not reserved, not moved or shipped); otherwise INVENTORY_SHORTAGE and nothing changes.
 */
export async function cancelConfirmation(deps: TInboundDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const receipt = await repo.updateReceiptInStatus(tx, customerId, id, workflow.statusesAllowing('cancel'), {
      status: workflow.targetStatus('cancel'),
      cancelled_at: new Date(),
      cancelled_by: actor.id,
    });
    if (!receipt) await refuseTransition(tx, customerId, id);
    const lines = await repo.findLines(tx, customerId, id);
    const reversal: stock.TAdjustmentLine[] = [];
    for (const l of lines) {
      if (l.location_id && l.good_quantity)
        reversal.push({
          productId: l.product_id,
          locationId: l.location_id,
          expiryDate: l.expiry_date,
          delta: -l.good_quantity,
        });
      if (l.defective_location_id && l.defective_quantity)
        reversal.push({
          productId: l.product_id,
          locationId: l.defective_location_id,
          expiryDate: l.expiry_date,
          delta: -l.defective_quantity,
        });
    }
    if (reversal.length)
      await stock.postAdjustment(tx, stock.stockActorOf(actor), {
        document: { type: 'inbound', id, number: receipt!.number },
        reason: 'inbound_cancel',
        lines: reversal,
      });
    await writeAudit(tx, actor, {
      action: 'cancel_confirmation',
      entity: 'inbound_receipt',
      entityId: id,
      before: { status: 'confirmed' },
      after: { status: receipt!.status, reversed_units: reversal.reduce((s, r) => s - r.delta, 0) },
    });
  });
  return loadDetail(deps.db, customerId, id);
}

/** /entry-quick: a scanned product, a quantity and a scanned location become a confirmed receipt in one transaction. */
export async function quickInbound(deps: TInboundDeps, actor: TActor, input: TQuickInbound) {
  const customerId = tenantOf(actor);
  const id = await withTx(deps.db, async (tx) => {
    const found = await findProductByCode(tx, customerId, input.code);
    if (!found) throw new AppError('NOT_FOUND', { field: 'code', code: input.code });
    const locations = await repo.findLocationsByCode(tx, customerId, input.location_code, input.warehouse_id);
    if (locations.length === 0) throw new AppError('NOT_FOUND', { field: 'location_code', code: input.location_code });
    if (locations.length > 1) throw new AppError('INVALID_FIELD', { field: 'warehouse_id' });
    const location = locations[0]!;
    const receipt = await insertReceipt(
      tx,
      actor,
      {
        warehouse_id: location.warehouse_id,
        category: input.category,
        planned_date: taipeiToday(),
        remark: input.remark,
        lines: [{ product_id: found.product.id, quantity: input.quantity, expiry_date: input.expiry_date ?? null }],
      },
      true,
    );
    const [line] = await repo.findLines(tx, customerId, receipt.id);
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'inbound_receipt',
      entityId: receipt.id,
      after: { number: receipt.number, quick: true },
    });
    await confirmInTx(tx, actor, receipt.id, {
      lines: [
        { line_id: line!.id, accepted_quantity: input.quantity, defective_quantity: 0, location_id: location.id },
      ],
    });
    return receipt.id;
  });
  return loadDetail(deps.db, customerId, id);
}

/** Lines of the receipts matching the list filters, for /entry-export. */
export async function exportReceipts(deps: TInboundDeps, actor: TActor, q: TInboundListQuery) {
  return repo.exportLines(deps.db, tenantOf(actor), q, EXPORT_MAX_ROWS);
}

/** /entry-cnt: receipts and units by status, in total and per product, for the filters. */
export async function countReceipts(deps: TInboundDeps, actor: TActor, q: TInboundCountQuery): Promise<TInboundCounts> {
  const customerId = tenantOf(actor);
  const [byStatus, total, byProduct] = [
    await repo.countByStatus(deps.db, customerId, q),
    await repo.countTotal(deps.db, customerId, q),
    await repo.countByProduct(deps.db, customerId, q),
  ];
  const order: TInboundStatus[] = ['pending', 'confirmed', 'cancelled'];
  return {
    by_status: byStatus.sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status)),
    total,
    by_product: { count: byProduct.count, results: byProduct.rows },
  };
}

export async function printReceipt(deps: TInboundDeps, actor: TActor, id: string): Promise<TInboundPrint> {
  const customerId = tenantOf(actor);
  const receipt = await loadDetail(deps.db, customerId, id);
  const company = await repo.findCompany(deps.db, customerId);
  return {
    receipt,
    number_barcode_svg: barcodeSvg(receipt.number, 'code128'),
    line_barcodes: receipt.lines.map((l) => {
      const value = l.product_barcode || l.product_number;
      return { line_id: l.id, value, svg: barcodeSvg(value, pickSymbology(value, 'auto')) };
    }),
    company: { name: company?.name ?? '', phone: company?.phone ?? null, address: company?.invoice_address ?? null },
    printed_at: new Date().toISOString(),
  };
}

export async function receiptQrLabel(deps: TInboundDeps, actor: TActor, id: string): Promise<TInboundQrLabel> {
  const summary = await repo.findReceiptSummary(deps.db, tenantOf(actor), id);
  if (!summary) throw notFound();
  return {
    id: summary.id,
    number: summary.number,
    warehouse_code: summary.warehouse_code,
    planned_date: summary.planned_date,
    status: summary.status,
    line_count: Number(summary.line_count),
    total_quantity: Number(summary.total_quantity),
    qr_text: summary.number,
    qr_data_url: await QRCode.toDataURL(summary.number, { margin: 1, width: 320, errorCorrectionLevel: 'M' }),
  };
}
