import type { TBulkResult, TOrderAction, TOrderStatus } from '@wms/contracts';
import type { Db, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { type TAuditEntry, writeAudits } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import * as catalog from '../catalog';
import * as engine from '../stock';
import * as lookupRepo from './outbound.lookups.repository';
import * as orderRepo from './outbound.orders.repository';
import * as pipelineRepo from './outbound.pipeline.repository';
import { abnormalsOf, applyAction, EXPORT_CHUNK, exportIssue, recordOf, stockProducts } from './outbound.status';
import { illegal, type TOutboundDeps } from './outbound.views';
import { canApply, nextStatus, ORDER_RULES } from './outbound.workflow';

/**
 * The export pipeline: many orders exported set-based, a chunk of `EXPORT_CHUNK` orders per transaction, chunks in
 * flight on their own connections and handed on in list order (the bulk transition, export-on-import, the bench).
 * The chunk size stays in outbound.status.ts (the bench reads it there); the single-order checks come from there.
 */

/** Bulk export chunks in flight at once (each on its own connection). */
export const EXPORT_IN_FLIGHT = 2;

/** What a bulk export did to one order: its number and status after, and the refusal if it was not exported. */
export interface TExportOutcome {
  id: string;
  number: string | null;
  status: TOrderStatus | null;
  error: AppError | null;
}

/**
 * Export many orders set-based, `EXPORT_CHUNK` orders per transaction: the chunk's orders are locked in id order, their
 * lines, products and carriers read in a few statements, the stock engine plans and reserves all of them at once
 * (`reserveForOrders`: one lock statement, one write per table), oldest order first; then one statement moves the
 * exported orders, one writes the abnormal marks of the refused ones, one the audit rows. Each order is exported fully
 * or refused exactly as `transitionOrder` would refuse it (same codes, recorded on the order); the rest of the chunk
 * goes on. Outcomes come back in the order of `ids` (each id once). `onChunk` reports the orders done so far.
 *
 * `inFlight` chunks (two) are in flight: while one plans and writes, the next locks and reads its orders, lines and
 * products (on another connection; PGlite runs them one after the other). The next one locks its piles only after this
 * one has locked its own and reserved (so it waits for this one's reservations on the piles they share, and sees them),
 * and commits only after this one has committed: the chunks that commit are always a prefix of the list, as if run one
 * by one. A chunk first guesses that all its orders get their stock and writes their statuses, marks and audit rows
 * before it locks its piles (in a savepoint it rolls back when the guess is wrong), so that the piles stay locked only
 * for the reservations.
 */
export async function exportOrders(
  db: Db,
  actor: TActor,
  ids: string[],
  onChunk?: (done: number) => Promise<void> | void,
  inFlight = EXPORT_IN_FLIGHT,
): Promise<TExportOutcome[]> {
  const unique = [...new Set(ids)];
  const outcomes = new Map<string, TExportOutcome>();
  const runs: Array<Promise<TExportOutcome[]>> = [];
  let turn: Promise<void> = Promise.resolve();
  let before: Promise<unknown> = Promise.resolve();
  const hint = { short: false };
  const settle = async (k: number) => {
    for (const o of await runs[k]!) outcomes.set(o.id, o);
    await onChunk?.(Math.min(unique.length, (k + 1) * EXPORT_CHUNK));
  };
  try {
    for (let i = 0, k = 0; i < unique.length; i += EXPORT_CHUNK, k++) {
      if (k >= inFlight) await settle(k - inFlight);
      let locked!: () => void;
      const next = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const chunk = unique.slice(i, i + EXPORT_CHUNK);
      const order = { turn: { wait: turn, locked }, after: before, hint };
      const run = withTx(db, (tx) => exportChunk(tx, actor, chunk, order));
      // A chunk that fails before locking its piles lets the next go on (to fail on `after`, and roll back).
      run.then(locked, locked);
      runs.push(run);
      turn = next;
      before = run;
    }
    for (let k = Math.max(0, runs.length - inFlight); k < runs.length; k++) await settle(k);
  } catch (err) {
    await Promise.allSettled(runs);
    throw err;
  }
  return unique.map((id) => outcomes.get(id)!);
}

async function exportChunk(
  tx: Tx,
  actor: TActor,
  ids: string[],
  order: { turn: { wait: Promise<void>; locked: () => void }; after: Promise<unknown>; hint: { short: boolean } },
): Promise<TExportOutcome[]> {
  const customerId = tenantOf(actor);
  const locked = new Map((await pipelineRepo.lockOrders(tx, customerId, ids)).map((o) => [o.id, o]));
  const outcomes = new Map<string, TExportOutcome>();
  const refused: Array<{ order: orderRepo.TOrderRow; error: AppError }> = [];
  const candidates: orderRepo.TOrderRow[] = [];
  for (const id of ids) {
    const order = locked.get(id);
    if (!order) outcomes.set(id, { id, number: null, status: null, error: notFound() });
    else if (!canApply('export', order.status as TOrderStatus))
      outcomes.set(id, {
        id,
        number: order.number,
        status: order.status as TOrderStatus,
        error: illegal(order.status, 'export'),
      });
    else candidates.push(order);
  }
  // Oldest order first: the one that has waited longest gets the stock when there is not enough for all.
  candidates.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.number < b.number ? -1 : 1));

  const lines = await pipelineRepo.demandLines(
    tx,
    customerId,
    candidates.map((o) => o.id),
  );
  const linesOf = new Map<string, typeof lines>();
  for (const l of lines) {
    const own = linesOf.get(l.order_id);
    if (own) own.push(l);
    else linesOf.set(l.order_id, [l]);
  }
  const products = new Map(
    (
      await catalog.productsByIds(
        tx,
        customerId,
        lines.map((l) => l.product_id),
      )
    ).map((p) => [p.id, p]),
  );
  const known = stockProducts(products.values());
  const providers = candidates.some((o) => o.logistics_provider_id) ? await lookupRepo.providersOf(tx, customerId) : [];
  const reservable: orderRepo.TOrderRow[] = [];
  for (const order of candidates) {
    const own = linesOf.get(order.id) ?? [];
    const lineProducts = [...new Set(own.map((l) => l.product_id))].flatMap((id) => products.get(id) ?? []);
    const issue = exportIssue(order, lineProducts, providers);
    if (issue) refused.push({ order, error: issue });
    else reservable.push(order);
  }

  const who = engine.stockActorOf(actor);
  const demands = reservable.map((order) => ({
    document: { type: orderRepo.ORDER_DOCUMENT, id: order.id, number: order.number },
    warehouseId: order.warehouse_id,
    lines: (linesOf.get(order.id) ?? []).map((l) => ({ productId: l.product_id, quantity: l.quantity, ref: l.id })),
  }));
  const noop = () => {};
  // These orders are locked: if none holds a reservation now, none gets one before this commits.
  const fresh = !(await engine.holdsReservations(
    tx,
    customerId,
    orderRepo.ORDER_DOCUMENT,
    reservable.map((o) => o.id),
  ));

  // The common case first: every order that passed the checks gets its stock. The orders' statuses, marks and audit
  // rows are then written before the piles are locked (in a savepoint), so that the piles stay locked only for the
  // reservations themselves. If an order is short, the guess is rolled back and the chunk plans again on the piles
  // locked anew (the next chunk still waits for its turn); the chunks after it no longer guess.
  let written: TExportOutcome[] | null = null;
  if (!order.hint.short) {
    try {
      written = await tx.transaction(async (sp) => {
        const guess = await writeOutcomes(sp, actor, reservable, refused);
        const reservations = await engine.reserveForOrders(sp, who, demands, {
          products: known,
          turn: { wait: order.turn.wait, locked: noop },
          allOrNothing: true,
          fresh,
          // Every order gets its stock: this chunk keeps its piles now (no rollback follows for want of stock), so the
          // next chunk may send its pile lock, which reads and sorts while this one writes and waits only for the
          // piles this one holds (it then sees what this one reserved).
          covered: order.turn.locked,
        });
        for (const r of reservations) if (r instanceof AppError) throw r.status >= 500 ? r : SHORT;
        return guess;
      });
    } catch (err) {
      if (err !== SHORT) throw err;
      order.hint.short = true;
    }
  }
  if (!written) {
    await order.turn.wait;
    const reservations = await engine.reserveForOrders(tx, who, demands, { products: known, fresh });
    const exported = reservable.filter((o, k) => {
      const r = reservations[k]!;
      if (!(r instanceof AppError)) return true;
      if (r.status >= 500) throw r;
      refused.push({ order: o, error: r });
      return false;
    });
    written = await writeOutcomes(tx, actor, exported, refused);
  }
  // The piles are locked and this chunk's reservations made: the next chunk may lock its own.
  order.turn.locked();
  for (const o of written) outcomes.set(o.id, o);
  // Commit after the chunk before this one (a failed one rolls this one back too).
  await order.after;
  return ids.map((id) => outcomes.get(id)!);
}

/** Thrown inside a bulk export's guess to roll it back: an order of the chunk is short of stock. */
const SHORT = Symbol('short');

/**
 * Write what a bulk export chunk did: one statement moves the exported orders per target status (pending orders all go
 * to one), one writes the refused orders' abnormal marks, one the audit rows. Returns each order's outcome.
 */
async function writeOutcomes(
  tx: Tx,
  actor: TActor,
  exported: orderRepo.TOrderRow[],
  refused: Array<{ order: orderRepo.TOrderRow; error: AppError }>,
): Promise<TExportOutcome[]> {
  const customerId = tenantOf(actor);
  const outcomes: TExportOutcome[] = [];
  const audits: TAuditEntry[] = [];
  const byStatus = new Map<TOrderStatus, orderRepo.TOrderRow[]>();
  for (const order of exported) {
    const to = nextStatus('export', order.status as TOrderStatus, order.status_before_cancel as TOrderStatus | null)!;
    const same = byStatus.get(to);
    if (same) same.push(order);
    else byStatus.set(to, [order]);
  }
  for (const [to, orders] of byStatus) {
    const moved = await pipelineRepo.changeStatuses(
      tx,
      customerId,
      orders.map((o) => o.id),
      ORDER_RULES.export.from,
      { ...recordOf('export', orders[0]!, actor), status: to },
    );
    if (moved.length !== orders.length) throw new Error('bulk export: a locked order refused its status change');
    for (const o of orders) {
      outcomes.push({ id: o.id, number: o.number, status: to, error: null });
      audits.push({
        action: 'export',
        entity: 'outbound_order',
        entityId: o.id,
        before: { status: o.status },
        after: { status: to },
      });
    }
  }
  const params = await abnormalsOf(
    tx,
    customerId,
    refused.map((r) => r.error),
  );
  await pipelineRepo.markAbnormal(
    tx,
    customerId,
    refused.map((r, k) => ({ id: r.order.id, code: r.error.code, params: params[k]! })),
  );
  refused.forEach(({ order, error }, k) => {
    outcomes.push({
      id: order.id,
      number: order.number,
      status: order.status as TOrderStatus,
      error: new AppError(error.code, params[k], error.status),
    });
    audits.push({
      action: 'export_refused',
      entity: 'outbound_order',
      entityId: order.id,
      after: { code: error.code, params: params[k] },
    });
  });
  await writeAudits(tx, actor, audits);
  return outcomes;
}

/**
 * The same action on many orders: an export is set-based (`exportOrders`); any other action runs each order in its
 * own transaction. Every order is done fully or not at all.
 */
export async function bulkTransition(
  deps: TOutboundDeps,
  actor: TActor,
  input: { action: TOrderAction; ids: string[] },
): Promise<TBulkResult> {
  const customerId = tenantOf(actor);
  const results: TBulkResult['results'] = [];
  if (input.action === 'export') {
    for (const o of await exportOrders(deps.db, actor, input.ids))
      results.push({
        id: o.id,
        number: o.number,
        ok: !o.error,
        status: o.status,
        error: o.error ? { code: o.error.code, params: o.error.params } : null,
      });
    const succeeded = results.filter((r) => r.ok).length;
    return { results, succeeded, failed: results.length - succeeded };
  }
  for (const id of [...new Set(input.ids)]) {
    let error: AppError | null;
    try {
      error = await withTx(deps.db, (tx) => applyAction(tx, actor, id, input.action));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      error = err;
    }
    const view = await orderRepo.findOrderView(deps.db, customerId, id);
    results.push({
      id,
      number: view?.order.number ?? null,
      ok: !error,
      status: (view?.order.status as TOrderStatus | undefined) ?? null,
      error: error ? { code: error.code, params: error.params } : null,
    });
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}
