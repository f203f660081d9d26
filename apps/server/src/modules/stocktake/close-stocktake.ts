/**
 * Use cases of a sheet's rounds: open the next round with the lines still differing, close (post the variances into
 * stock, one transaction), cancel (nothing posted).
 */
import type { TStocktakeDetail, TStocktakeStatus, TStocktakeType } from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { postAdjustment, stockActorOf, stockKeyString } from '../stock';
import * as linesRepo from './stocktake.lines.repository';
import * as repo from './stocktake.repository';
import { badStatus, countsOf, present, type TStocktakeDeps } from './stocktake.service';
import { canDo, goesToNextRound, roundOf, type TRound, targetStatus, varianceOf } from './stocktake.workflow';

// ---- rounds and close ----

async function lockForRoundChange(
  tx: Executor,
  customerId: string,
  id: string,
  action: 'next_round' | 'close' | 'cancel',
) {
  const sheet = await repo.findSheet(tx, customerId, id, 'update');
  if (!sheet) throw notFound();
  const status = sheet.status as TStocktakeStatus;
  if (!canDo(status, sheet.type as TStocktakeType, action)) throw badStatus(status);
  return { sheet, status, round: roundOf(status)! };
}

/** Close the open round and open the next one with the lines whose count differs from the book. */
export async function nextRound(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const { sheet, status, round } = await lockForRoundChange(tx, customerId, id, 'next_round');
    const remaining = await linesRepo.pendingLocations(tx, sheet.id, round);
    if (remaining > 0) throw new AppError('STOCKTAKE_INCOMPLETE', { remaining });
    const lines = await linesRepo.lineCounts(tx, sheet.id, round);
    const recount = lines.filter((l) => goesToNextRound(countsOf(l), round)).map((l) => l.id);
    if (recount.length === 0) throw new AppError('STOCKTAKE_NOTHING_TO_RECOUNT');
    const next = (round + 1) as TRound;
    await linesRepo.advanceLines(tx, recount, next);
    const row = await repo.moveStatus(tx, customerId, id, [status], {
      status: targetStatus(status, 'next_round'),
      round_started_at: await repo.dbNow(tx),
    });
    if (!row) throw badStatus(status);
    await writeAudit(tx, actor, {
      action: 'stocktake.next_round',
      entity: 'stocktake',
      entityId: id,
      before: { status },
      after: { status: row.status, lines: recount.length },
    });
    return present(tx, customerId, row);
  });
}

/**
 * Close the case: every line's variance (count − book of its last round) is posted as one stocktake adjustment
 * through the stock engine, in this transaction. A shortage (the stock to remove is reserved by now) refuses the
 * whole close, nothing is posted.
 */
export async function closeStocktake(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const { sheet, status, round } = await lockForRoundChange(tx, customerId, id, 'close');
    const remaining = await linesRepo.pendingLocations(tx, sheet.id, round);
    if (remaining > 0) throw new AppError('STOCKTAKE_INCOMPLETE', { remaining });
    const lines = await linesRepo.lineCounts(tx, sheet.id);
    const variances = lines
      .map((l) => ({ line: l, variance: varianceOf(countsOf(l)) ?? 0 }))
      .filter((v) => v.variance !== 0);
    const movements = variances.length
      ? await postAdjustment(tx, stockActorOf(actor), {
          document: { type: 'stocktake', id: sheet.id, number: sheet.number },
          reason: 'stocktake',
          note: sheet.name,
          lines: variances.map((v) => ({
            productId: v.line.product_id,
            locationId: v.line.location_id,
            expiryDate: v.line.expiry_date,
            delta: v.variance,
          })),
        })
      : [];
    const after = new Map(movements.map((m) => [stockKeyString(m), m.onHandAfter]));
    await linesRepo.recordVariances(
      tx,
      sheet.id,
      variances.map((v) => ({
        id: v.line.id,
        variance: v.variance,
        onHandAfter: after.get(
          stockKeyString({
            productId: v.line.product_id,
            locationId: v.line.location_id,
            expiryDate: v.line.expiry_date,
          }),
        )!,
      })),
    );
    const row = await repo.moveStatus(tx, customerId, id, [status], {
      status: 'closed',
      closed_at: new Date(),
      closed_by: actor.id,
    });
    if (!row) throw badStatus(status);
    const over = variances.filter((v) => v.variance > 0).reduce((s, v) => s + v.variance, 0);
    const short = variances.filter((v) => v.variance < 0).reduce((s, v) => s - v.variance, 0);
    await writeAudit(tx, actor, {
      action: 'stocktake.close',
      entity: 'stocktake',
      entityId: id,
      before: { status },
      after: { status: 'closed', variance_lines: variances.length, units_over: over, units_short: short },
    });
    return present(tx, customerId, row);
  });
}

/** Abandon an open sheet: nothing is posted. */
export async function cancelStocktake(deps: TStocktakeDeps, actor: TActor, id: string): Promise<TStocktakeDetail> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const { status } = await lockForRoundChange(tx, customerId, id, 'cancel');
    const row = await repo.moveStatus(tx, customerId, id, [status], {
      status: targetStatus(status, 'cancel'),
      cancelled_at: new Date(),
      cancelled_by: actor.id,
    });
    if (!row) throw badStatus(status);
    await writeAudit(tx, actor, {
      action: 'stocktake.cancel',
      entity: 'stocktake',
      entityId: id,
      before: { status },
      after: { status: row.status },
    });
    return present(tx, customerId, row);
  });
}
