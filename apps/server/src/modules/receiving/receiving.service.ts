import type { TConfirmLineInput, TReceiptLine } from '@wms/contracts';
import type { Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import * as stock from '../stock';
import { lotRuleViolation } from '../stock';
import type { TReceiptKind, TReceiptLineRow, TReceiptRow } from './receiving.repository';
import * as repo from './receiving.repository';
import * as workflow from './receiving.workflow';

/**
 * The receiving routine of inbound receipts and return receipts (modules/receiving/README.md): planned lines,
 * the guarded status changes, the confirmation (numbers and locations per line, one stock posting) and its
 * cancellation (one reversal). Every function runs in the caller's transaction; the caller's service opens it, and
 * does what only its kind does (a return moves its order) through the `beforeAudit` hook.
 */

/** What differs between the kinds here: the audit entity, the ledger reasons, the audit's word for the plan. */
const KINDS: Record<
  TReceiptKind,
  { entity: string; postReason: stock.TStockReason; reverseReason: stock.TStockReason; plannedKey: string }
> = {
  inbound: { entity: 'inbound_receipt', postReason: 'inbound', reverseReason: 'inbound_cancel', plannedKey: 'planned' },
  return: { entity: 'return_receipt', postReason: 'return', reverseReason: 'return_cancel', plannedKey: 'expected' },
};

/** The audit entity of a kind of receipt (`inbound_receipt`, `return_receipt`). */
export function auditEntity(kind: TReceiptKind): string {
  return KINDS[kind].entity;
}

/** Runs after the stock moved and before the audit row, in the same transaction. */
type THook<K extends TReceiptKind> = (receipt: TReceiptRow<K>) => Promise<void>;

/** The receipt, or 404 when it is not this seller's. */
export async function requireReceipt<K extends TReceiptKind>(
  tx: Tx,
  kind: K,
  customerId: string,
  id: string,
): Promise<TReceiptRow<K>> {
  const row = await repo.findReceipt(tx, kind, customerId, id);
  if (!row) throw notFound();
  return row;
}

/** A guarded update matched no row: 404 when the receipt is not this seller's, else 409 for its status. */
async function refuseTransition(tx: Tx, kind: TReceiptKind, customerId: string, id: string): Promise<never> {
  const receipt = await requireReceipt(tx, kind, customerId, id);
  throw new AppError('INVALID_STATUS_TRANSITION', { status: receipt.status });
}

/**
 * Check planned lines: whole quantities ≥ 1, this seller's single products (a combination product is refused), the
 * lot rule for expiry dates. `lotMayStayOpen`: a shelf-life product's lot may be left for the confirmation (a return
 * is often registered before anyone has seen the goods).
 */
export async function checkPlannedLines(
  tx: Tx,
  customerId: string,
  lines: ReadonlyArray<{ product_id: string; quantity: number; expiry_date?: string | null }>,
  opts: { lotMayStayOpen?: boolean } = {},
) {
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
    if (violation && !(violation === 'REQUIRED_FIELD' && opts.lotMayStayOpen))
      throw new AppError(violation, { field: 'expiry_date', line, product_number: product.number });
    return { product_id: l.product_id, quantity: l.quantity, expiry_date: expiry };
  });
}

/**
 * Edit a receipt that has no stock posted (pending or cancelled-confirmed): the guarded header update, then the
 * checked lines (when given) replace all lines; audit row with the caller's before/after.
 */
export async function editReceipt<K extends TReceiptKind>(
  tx: Tx,
  actor: TActor,
  kind: K,
  id: string,
  edit: {
    set: Partial<repo.TReceiptInsert<K>>;
    lines: Awaited<ReturnType<typeof checkPlannedLines>> | null;
    before: unknown;
    after: unknown;
  },
): Promise<void> {
  const customerId = tenantOf(actor);
  const row = await repo.updateReceiptInStatus(tx, kind, customerId, id, workflow.statusesAllowing('edit'), edit.set);
  if (!row) await refuseTransition(tx, kind, customerId, id);
  if (edit.lines) await repo.replaceLines(tx, kind, customerId, id, edit.lines);
  await writeAudit(tx, actor, {
    action: 'update',
    entity: KINDS[kind].entity,
    entityId: id,
    before: edit.before,
    after: edit.after,
  });
}

/** Delete a pending receipt (nothing was ever posted for it); its lines go with it. */
export async function deleteReceipt(tx: Tx, actor: TActor, kind: TReceiptKind, id: string): Promise<void> {
  const customerId = tenantOf(actor);
  const row = await repo.deleteReceiptInStatus(tx, kind, customerId, id, workflow.statusesAllowing('delete'));
  if (!row) return refuseTransition(tx, kind, customerId, id);
  await writeAudit(tx, actor, {
    action: 'delete',
    entity: KINDS[kind].entity,
    entityId: id,
    before: { number: row.number, status: row.status },
  });
}

/**
 * Confirm: the guarded status change first (it locks the receipt, so a second confirmation waits and then gets 409),
 * then per line the numbers (accepted = good + defective), the lot rule, good stock to an active sellable location
 * and defective stock to an active defective location of the receipt's warehouse, then one stock posting
 * (`postInbound`, reason inbound or return), the caller's hook, and the audit row. Any refusal rolls all of it back.
 */
export async function confirmReceipt<K extends TReceiptKind>(
  tx: Tx,
  actor: TActor,
  kind: K,
  id: string,
  input: { lines: readonly TConfirmLineInput[] },
  beforeAudit?: THook<K>,
): Promise<TReceiptRow<K>> {
  const customerId = tenantOf(actor);
  const from = await requireReceipt(tx, kind, customerId, id);
  const receipt = await repo.updateReceiptInStatus(tx, kind, customerId, id, workflow.statusesAllowing('confirm'), {
    status: workflow.targetStatus('confirm'),
    confirmed_at: new Date(),
    confirmed_by: actor.id,
  });
  if (!receipt) return refuseTransition(tx, kind, customerId, id);

  const lines = await repo.findLines(tx, kind, customerId, id);
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
  const checkLocation = (locationId: string | null | undefined, locationKind: string, field: string, line: number) => {
    if (!locationId) throw new AppError('REQUIRED_FIELD', { field, line });
    const loc = locations.get(locationId);
    if (!loc) throw new AppError('NOT_FOUND', { field, line });
    if (loc.warehouse_id !== receipt.warehouse_id || loc.kind !== locationKind || !loc.is_active)
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
    const expiry = (l.expiry_date !== undefined ? l.expiry_date : line.expiry_date) ?? null;
    const violation = lotRuleViolation({ type: line.product_type, shelfLifeMonths: line.shelf_life_months }, expiry);
    if (violation === 'PRODUCT_ABNORMAL') throw new AppError(violation, { field: 'product_id', line: line.line_no });
    if (violation) throw new AppError(violation, { field: 'expiry_date', line: line.line_no });
    const goodLocation = good > 0 ? checkLocation(l.location_id, 'sellable', 'location_id', line.line_no) : null;
    const defectiveLocation =
      defective > 0 ? checkLocation(l.defective_location_id, 'defective', 'defective_location_id', line.line_no) : null;
    await repo.setLineConfirmation(tx, kind, customerId, line.id, {
      accepted_quantity: accepted,
      defective_quantity: defective,
      good_quantity: good,
      location_id: goodLocation,
      defective_location_id: defectiveLocation,
      expiry_date: expiry,
    });
    const key = { productId: line.product_id, expiryDate: expiry };
    if (goodLocation) postings.push({ ...key, locationId: goodLocation, quantity: good });
    if (defectiveLocation) postings.push({ ...key, locationId: defectiveLocation, quantity: defective });
    summary.push({ line: line.line_no, [KINDS[kind].plannedKey]: line.quantity, accepted, defective, good });
  }
  // postInbound with no lines (everything accepted as 0) writes nothing.
  await stock.postInbound(tx, stock.stockActorOf(actor), {
    document: { type: kind, id: receipt.id, number: receipt.number },
    reason: KINDS[kind].postReason,
    lines: postings,
  });
  await beforeAudit?.(receipt);
  await writeAudit(tx, actor, {
    action: 'confirm',
    entity: KINDS[kind].entity,
    entityId: id,
    before: { status: from.status },
    after: { status: receipt.status, lines: summary },
  });
  return receipt;
}

/**
 * Undo a confirmation: the received stock is taken back out of the locations it went to (`postAdjustment`, reason
 * inbound_cancel or return_cancel). Only possible while that stock is still there and free (not reserved, moved or
 * shipped); otherwise INVENTORY_SHORTAGE and nothing changes. The line numbers stay until the next confirmation.
 */
export async function cancelConfirmation<K extends TReceiptKind>(
  tx: Tx,
  actor: TActor,
  kind: K,
  id: string,
  beforeAudit?: THook<K>,
): Promise<TReceiptRow<K>> {
  const customerId = tenantOf(actor);
  const receipt = await repo.updateReceiptInStatus(tx, kind, customerId, id, workflow.statusesAllowing('cancel'), {
    status: workflow.targetStatus('cancel'),
    cancelled_at: new Date(),
    cancelled_by: actor.id,
  });
  if (!receipt) return refuseTransition(tx, kind, customerId, id);
  const reversal: stock.TAdjustmentLine[] = [];
  for (const l of await repo.findLines(tx, kind, customerId, id)) {
    const key = { productId: l.product_id, expiryDate: l.expiry_date };
    if (l.location_id && l.good_quantity) reversal.push({ ...key, locationId: l.location_id, delta: -l.good_quantity });
    if (l.defective_location_id && l.defective_quantity)
      reversal.push({ ...key, locationId: l.defective_location_id, delta: -l.defective_quantity });
  }
  if (reversal.length)
    await stock.postAdjustment(tx, stock.stockActorOf(actor), {
      document: { type: kind, id, number: receipt.number },
      reason: KINDS[kind].reverseReason,
      lines: reversal,
    });
  await beforeAudit?.(receipt);
  await writeAudit(tx, actor, {
    action: 'cancel_confirmation',
    entity: KINDS[kind].entity,
    entityId: id,
    before: { status: 'confirmed' },
    after: { status: receipt.status, reversed_units: reversal.reduce((s, r) => s - r.delta, 0) },
  });
  return receipt;
}

/** The fields every receipt line answers with (each kind adds its own: shelf life, sellable-until, difference …). */
export function toReceiptLine(l: TReceiptLineRow): TReceiptLine {
  return {
    id: l.id,
    line_no: l.line_no,
    product_id: l.product_id,
    product_number: l.product_number,
    product_name: l.product_name,
    product_barcode: l.product_barcode,
    quantity: l.quantity,
    expiry_date: l.expiry_date,
    accepted_quantity: l.accepted_quantity,
    defective_quantity: l.defective_quantity,
    good_quantity: l.good_quantity,
    location_id: l.location_id,
    location_code: l.location_code,
    defective_location_id: l.defective_location_id,
    defective_location_code: l.defective_location_code,
  };
}
