import type { TRetentionKind } from '@wms/contracts';
import type { Executor } from '../../db/client';
import type { TPurgeKind } from '../../platform/purge';
import { deleteCarrierEventsOfOrders } from '../carriers';
import { inboundReceiptsPurge } from '../inbound';
import { outboundOrdersPurge } from '../outbound';
import { returnReceiptsPurge, unlinkReturnsFromOrders } from '../returns';
import { unlinkShopeeOrders } from '../shopee';
import { deleteEmptyReservations } from '../stock';
import { stocktakesPurge } from '../stocktake';
import { deleteStoreOrdersOf } from '../store';
import * as repo from './retention.repository';

/**
 * What each purgeable kind is (`TPurgeKind`, platform/purge.ts): its table, which of a seller's rows are finished
 * before the cut-off, a row's reference for the export, and how a batch is deleted with the rows that point at it.
 *
 * The stock ledger is never touched: `stock_movements.document_id` has no foreign key, so the ledger rows of a purged
 * document stay (with its number) and every balance still equals the sum of its ledger; `stock_balances` are not
 * read or written. Children with a cascading foreign key (order lines, pack items, serials, packaging uses, carrier
 * labels; receipt and return lines; stocktake locations, products and lines; job files) go with their row; the
 * others are handled below.
 *
 * Each kind is declared by the module that owns its table (its repository's `…Purge`, exported from its index.ts);
 * an outbound order's purge first lets the modules whose rows point at it act (carriers and store delete theirs, a
 * return receipt and a Shopee order keep their row with the link emptied, stock drops the emptied reservations). The
 * platform's job and attempt logs are retention.repository.ts's.
 */
export type TKindDef = TPurgeKind;

export const KINDS: Record<TRetentionKind, TKindDef> = {
  outbound_orders: {
    ...outboundOrdersPurge,
    async purge(tx, c, ids) {
      await deleteCarrierEventsOfOrders(tx, c, ids);
      await deleteStoreOrdersOf(tx, c, ids);
      await unlinkReturnsFromOrders(tx, c, ids);
      await unlinkShopeeOrders(tx, c, ids);
      // Held reservations were excluded by `where`.
      await deleteEmptyReservations(tx, c, ids);
      return outboundOrdersPurge.purge(tx, c, ids);
    },
  },
  inbound_receipts: inboundReceiptsPurge,
  return_receipts: returnReceiptsPurge,
  stocktakes: stocktakesPurge,
  job_logs: repo.jobLogsPurge,
  attempt_logs: repo.attemptLogsPurge,
};
/** The purge job's name (retention.jobs.ts defines it). */
export const PURGE_JOB = 'retention.purge';

/**
 * The instant `months` months before `now`: rows finished before it are purged. `scale` (config RETENTION_AGE_SCALE,
 * 1 in production) shortens the period for end-to-end tests, whose documents are all minutes old.
 */
export function cutoffOf(months: number, scale = 1, now = new Date()): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return new Date(now.getTime() - (now.getTime() - d.getTime()) * scale);
}

export async function countKind(ex: Executor, customerId: string, kind: TRetentionKind, cutoff: Date) {
  return repo.countKind(ex, KINDS[kind], customerId, cutoff);
}

/** The purge of this seller that is queued or running, if any. */
export async function runningPurge(ex: Executor, customerId: string) {
  return repo.runningJob(ex, customerId, PURGE_JOB);
}
