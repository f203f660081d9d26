import { randomUUID } from 'node:crypto';
import type {
  TBalanceRow,
  TExpiryCandidatesQuery,
  TExpiryTransferRequest,
  TLocationStockQuery,
  TLotState,
  TProductLocationQuery,
  TProductStockQuery,
  TStockLogPage,
  TStockLogQuery,
  TStockMovementRow,
  TStockMultiTransferRequest,
  TStockReason,
  TStockTransferRequest,
  TStockTransferResult,
} from '@wms/contracts';
import type { Db, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError } from '../../platform/errors';
import { EXPORT_MAX_ROWS } from '../../platform/listing';
import { nextDocumentNumber } from '../../platform/sequences';
import * as engine from './stock.engine';
import * as logRepo from './stock.log.repository';
import * as repo from './stock.repository';
import { isExpiredOn, isSellableOn, isWholePositive, sellableUntil } from './stock.rules';

export interface TStockDeps {
  db: Db;
}

function lotState(r: repo.TBalanceRaw, today: string): TLotState {
  if (isExpiredOn(r.expiry_date, today)) return 'expired';
  if (r.location_kind !== 'sellable' || !r.location_active) return 'blocked';
  return isSellableOn(r.expiry_date, r.sellable_rule_months, today) ? 'sellable' : 'unsellable';
}

function toBalanceRow(r: repo.TBalanceRaw, today: string): TBalanceRow {
  return {
    balance_id: r.balance_id,
    product_id: r.product_id,
    product_number: r.product_number,
    product_name: r.product_name,
    barcode: r.barcode,
    warehouse_id: r.warehouse_id,
    warehouse_code: r.warehouse_code,
    location_id: r.location_id,
    location_code: r.location_code,
    location_kind: r.location_kind,
    shelf_code: r.shelf_code,
    expiry_date: r.expiry_date,
    sellable_until: sellableUntil(r.expiry_date, r.sellable_rule_months),
    state: lotState(r, today),
    on_hand: Number(r.on_hand),
    reserved: Number(r.reserved),
    free: Number(r.free),
    received_at: r.received_at,
  };
}

function toMovementRow(r: logRepo.TMovementRaw): TStockMovementRow {
  return {
    ...r,
    id: Number(r.id),
    quantity: Number(r.quantity),
    on_hand_after: Number(r.on_hand_after),
    reason: r.reason as TStockReason,
  };
}

export async function productStock(deps: TStockDeps, actor: TActor, q: TProductStockQuery) {
  const { count, capped, rows } = await repo.productStock(deps.db, tenantOf(actor), q, taipeiToday());
  return {
    count,
    count_capped: capped,
    results: rows.map((r) => ({
      ...r,
      on_hand: Number(r.on_hand),
      reserved: r.reserved === null ? null : Number(r.reserved),
      available: Number(r.available),
      unsellable: r.unsellable === null ? null : Number(r.unsellable),
      safety_stock: Number(r.safety_stock),
    })),
  };
}

export async function productLocations(deps: TStockDeps, actor: TActor, q: TProductLocationQuery) {
  const today = taipeiToday();
  const { count, rows } = await repo.productLocations(deps.db, tenantOf(actor), q);
  return { count, results: rows.map((r) => toBalanceRow(r, today)) };
}

export async function locationStock(deps: TStockDeps, actor: TActor, q: TLocationStockQuery) {
  const today = taipeiToday();
  const { count, rows } = await repo.locationStock(deps.db, tenantOf(actor), q);
  return { count, results: rows.map((r) => toBalanceRow(r, today)) };
}

export async function expiryCandidates(deps: TStockDeps, actor: TActor, q: TExpiryCandidatesQuery) {
  const today = taipeiToday();
  const { count, rows } = await repo.expiryCandidates(deps.db, tenantOf(actor), q, today);
  return { count, results: rows.map((r) => toBalanceRow(r, today)) };
}

export async function stockLog(deps: TStockDeps, actor: TActor, q: TStockLogQuery): Promise<TStockLogPage> {
  const { count, capped, rows } = await logRepo.stockLog(deps.db, tenantOf(actor), q);
  return { count, count_capped: capped, results: rows.map(toMovementRow) };
}

export async function exportStockLog(deps: TStockDeps, actor: TActor, q: TStockLogQuery) {
  return (await logRepo.stockLogExport(deps.db, tenantOf(actor), q, EXPORT_MAX_ROWS)).map(toMovementRow);
}

type TKind = 'single' | 'multi' | 'expiry';

/**
 * One transfer document: number from the seller's TR sequence, the engine moves the stock (all lines or none),
 * the document row and an audit row in the same transaction.
 */
async function runTransfer(
  tx: Tx,
  actor: TActor,
  kind: TKind,
  remark: string,
  lines: engine.TTransferLine[],
): Promise<TStockTransferResult> {
  const customerId = tenantOf(actor);
  const id = randomUUID();
  const number = await nextDocumentNumber(tx, customerId, 'TR');
  const result = await engine.transfer(tx, engine.stockActorOf(actor), {
    document: { type: 'transfer', id, number },
    reason: kind === 'expiry' ? 'expiry_transfer' : 'transfer',
    note: remark,
    lines,
  });
  const units = result.lines.reduce((s, l) => s + l.quantity, 0);
  await repo.insertTransfer(tx, {
    id,
    customer_id: customerId,
    number,
    kind,
    remark,
    line_count: result.lines.length,
    unit_count: units,
    created_by: actor.id,
  });
  const balances = new Map(
    (
      await repo.balancesByIds(
        tx,
        customerId,
        result.lines.flatMap((l) => [l.fromBalanceId, l.toBalanceId]),
      )
    ).map((b) => [b.balance_id, b]),
  );
  const outLines = result.lines.map((l) => {
    const from = balances.get(l.fromBalanceId)!;
    return {
      product_id: from.product_id,
      product_number: from.product_number,
      expiry_date: from.expiry_date,
      from_location_code: from.location_code,
      to_location_code: balances.get(l.toBalanceId)!.location_code,
      quantity: l.quantity,
    };
  });
  await writeAudit(tx, actor, {
    action: `transfer_${kind}`,
    entity: 'stock_transfer',
    entityId: id,
    after: {
      number,
      lines: outLines.map((l) => [l.product_number, l.from_location_code, l.to_location_code, l.quantity]),
    },
  });
  return { id, number, kind, line_count: outLines.length, unit_count: units, lines: outLines, reserved_left: 0 };
}

function checkQuantities(lines: Array<{ quantity: number }>) {
  lines.forEach((l, i) => {
    if (!isWholePositive(l.quantity))
      throw new AppError('ABNORMAL_QUANTITY', { field: 'quantity', line: i + 1, value: l.quantity });
  });
}

const toEngineLines = (lines: TStockMultiTransferRequest['lines']): engine.TTransferLine[] =>
  lines.map((l) => ({ balanceId: l.balance_id, toLocationId: l.to_location_id, quantity: l.quantity }));

/** /stock-transfer: one pile (product, lot, location), a quantity, to another location. Free stock only. */
export async function transferOne(deps: TStockDeps, actor: TActor, input: TStockTransferRequest) {
  checkQuantities([input]);
  return withTx(deps.db, (tx) => runTransfer(tx, actor, 'single', input.remark ?? '', toEngineLines([input])));
}

/** /stock-multi-transfer: many lines in one transaction; one line short and nothing moves. */
export async function transferMany(deps: TStockDeps, actor: TActor, input: TStockMultiTransferRequest) {
  checkQuantities(input.lines);
  return withTx(deps.db, (tx) => runTransfer(tx, actor, 'multi', input.remark ?? '', toEngineLines(input.lines)));
}

/**
 * /stock-expire-transfer: move the chosen piles' free stock into an `expired` location of the same warehouse in one
 * action. Reserved units stay (they belong to orders) and are reported as `reserved_left`.
 */
export async function transferExpired(deps: TStockDeps, actor: TActor, input: TExpiryTransferRequest) {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const [target] = await repo.findLocations(tx, customerId, [input.to_location_id]);
    if (!target) throw new AppError('NOT_FOUND', { field: 'to_location_id' });
    if (target.kind !== 'expired' || !target.is_active)
      throw new AppError('INVALID_FIELD', { field: 'to_location_id' });
    const sources = await repo.balancesByIds(tx, customerId, input.balance_ids);
    if (sources.length !== new Set(input.balance_ids).size) throw new AppError('NOT_FOUND', { field: 'balance_ids' });
    if (sources.some((s) => s.warehouse_id !== target.warehouse_id))
      throw new AppError('INVALID_FIELD', { field: 'to_location_id' });
    const movable = sources.filter((s) => s.location_id !== target.id);
    const result = await runTransfer(
      tx,
      actor,
      'expiry',
      input.remark ?? '',
      movable.map((s) => ({ balanceId: s.balance_id, toLocationId: target.id, quantity: 'free' as const })),
    );
    if (result.line_count === 0) throw new AppError('INVENTORY_SHORTAGE', { reason: 'nothing_free' });
    const after = await repo.balancesByIds(
      tx,
      customerId,
      movable.map((s) => s.balance_id),
    );
    return { ...result, reserved_left: after.reduce((s, b) => s + Number(b.reserved), 0) };
  });
}
