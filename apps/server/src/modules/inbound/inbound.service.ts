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
import type { JobQueue } from '../../platform/jobs';
import { EXPORT_MAX_ROWS } from '../../platform/listing';
import { nextDocumentNumber } from '../../platform/sequences';
import { findProductByCode } from '../catalog';
import { barcodeSvg, pickSymbology } from '../labels';
import * as receipts from '../receiving';
import * as receiving from '../receiving';
import * as workflow from '../receiving';
import { sellableUntil } from '../stock';
import { findWarehouse } from '../warehouse';
import { publishReceiptConfirmed } from './inbound.events';
import * as repo from './inbound.repository';

export interface TInboundDeps {
  db: Db;
  /** For the events a confirmation publishes in its transaction (inbound.receipt-confirmed). */
  jobs: JobQueue;
}

function toReceipt(r: repo.TReceiptSummaryRow): TInboundReceipt {
  return {
    ...r,
    category: r.category as TInboundCategory,
    line_count: Number(r.line_count),
    total_quantity: Number(r.total_quantity),
  };
}

function toDetail(r: repo.TReceiptSummaryRow, lines: receipts.TReceiptLineRow[]): TInboundReceiptDetail {
  return {
    ...toReceipt(r),
    actions: workflow.actionsFor(r.status),
    lines: lines.map((l) => ({
      ...receiving.toReceiptLine(l),
      shelf_life_months: l.shelf_life_months,
      sellable_until: sellableUntil(l.expiry_date, l.sellable_rule_months),
      difference: l.accepted_quantity === null ? null : l.accepted_quantity - l.quantity,
    })),
  };
}

async function loadDetail(ex: Db | Tx, customerId: string, id: string): Promise<TInboundReceiptDetail> {
  const summary = await repo.findReceiptSummary(ex, customerId, id);
  if (!summary) throw notFound();
  return toDetail(summary, await receipts.findLines(ex, 'inbound', customerId, id));
}

export async function listReceipts(deps: TInboundDeps, actor: TActor, q: TInboundListQuery) {
  const { count, rows } = await repo.listReceipts(deps.db, tenantOf(actor), q);
  return { count, results: rows.map(toReceipt) };
}

export async function getReceipt(deps: Pick<TInboundDeps, 'db'>, actor: TActor, id: string) {
  return loadDetail(deps.db, tenantOf(actor), id);
}

/** Create a receipt (pending confirmation) with its number from the seller's IN sequence. */
export async function createReceipt(
  deps: Pick<TInboundDeps, 'db'>,
  actor: TActor,
  input: TCreateInboundReceipt,
  opts: { afterWrite?: (receiptId: string, tx: Tx) => Promise<void> } = {},
) {
  const customerId = tenantOf(actor);
  const id = await withTx(deps.db, async (tx) => {
    const receipt = await insertReceipt(tx, actor, input, false);
    await opts.afterWrite?.(receipt.id, tx);
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
  if (!(await findWarehouse(tx, customerId, input.warehouse_id)))
    throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
  const lines = await receiving.checkPlannedLines(tx, customerId, input.lines);
  const receipt = await receipts.insertReceipt(tx, 'inbound', {
    customer_id: customerId,
    number: await nextDocumentNumber(tx, customerId, 'IN'),
    warehouse_id: input.warehouse_id,
    category: input.category,
    planned_date: input.planned_date,
    remark: input.remark ?? '',
    quick,
    created_by: actor.id,
  });
  await receipts.replaceLines(tx, 'inbound', customerId, receipt.id, lines);
  return receipt;
}

/** Replace header and lines of a receipt that has no stock posted (pending or cancelled-confirmed). */
export async function updateReceipt(deps: TInboundDeps, actor: TActor, id: string, input: TCreateInboundReceipt) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    const before = await receiving.requireReceipt(tx, 'inbound', customerId, id);
    if (!(await findWarehouse(tx, customerId, input.warehouse_id)))
      throw new AppError('NOT_FOUND', { field: 'warehouse_id' });
    await receiving.editReceipt(tx, actor, 'inbound', id, {
      set: {
        warehouse_id: input.warehouse_id,
        category: input.category,
        planned_date: input.planned_date,
        remark: input.remark ?? '',
      },
      lines: await receiving.checkPlannedLines(tx, customerId, input.lines),
      before: { warehouse_id: before.warehouse_id, category: before.category, planned_date: before.planned_date },
      after: { ...input, lines: input.lines.length },
    });
  });
  return loadDetail(deps.db, customerId, id);
}

export async function deleteReceipt(deps: TInboundDeps, actor: TActor, id: string) {
  await withTx(deps.db, (tx) => receiving.deleteReceipt(tx, actor, 'inbound', id));
  return { ok: true as const };
}

/** /entry-confirm: accepted, defective and good per line into their locations; posts the stock in the same transaction. */
export async function confirmReceipt(deps: TInboundDeps, actor: TActor, id: string, input: TConfirmInboundReceipt) {
  await withTx(deps.db, async (tx) => {
    const receipt = await receiving.confirmReceipt(tx, actor, 'inbound', id, input);
    await publishReceiptConfirmed(tx, deps.jobs, receipt);
  });
  deps.jobs.kick('outbox.deliver');
  return loadDetail(deps.db, tenantOf(actor), id);
}

/**
 * Undo a confirmation: the received stock is taken back out of the locations it went to. Only possible while that
 * stock is still there and free (not reserved, not moved or shipped); otherwise INVENTORY_SHORTAGE and nothing changes.
 */
export async function cancelConfirmation(deps: TInboundDeps, actor: TActor, id: string) {
  await withTx(deps.db, (tx) => receiving.cancelConfirmation(tx, actor, 'inbound', id));
  return loadDetail(deps.db, tenantOf(actor), id);
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
    const [line] = await receipts.findLines(tx, 'inbound', customerId, receipt.id);
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'inbound_receipt',
      entityId: receipt.id,
      after: { number: receipt.number, quick: true },
    });
    const confirmed = await receiving.confirmReceipt(tx, actor, 'inbound', receipt.id, {
      lines: [
        { line_id: line!.id, accepted_quantity: input.quantity, defective_quantity: 0, location_id: location.id },
      ],
    });
    await publishReceiptConfirmed(tx, deps.jobs, confirmed);
    return receipt.id;
  });
  deps.jobs.kick('outbox.deliver');
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
