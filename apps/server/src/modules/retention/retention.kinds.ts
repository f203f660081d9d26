import type { TRetentionKind } from '@wms/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import {
  carrier_events,
  integration_attempts,
  jobs,
  outbound_orders,
  return_receipts,
  shopee_orders,
  stock_reservations,
  store_orders,
} from '../../db/schema';
import type { TPurgeKind } from '../../platform/purge';
import { inboundReceiptsPurge } from '../inbound';
import { returnReceiptsPurge } from '../returns';
import { stocktakesPurge } from '../stocktake';

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
 * Inbound receipts, return receipts and stocktakes are purged by their own modules (their repositories' `…Purge`,
 * exported from their index.ts); outbound orders (whose purge touches carriers, store, returns, Shopee and stock rows)
 * and the platform's job and attempt logs are still defined here.
 */
export type TKindDef = TPurgeKind;

const finishedOrder = sql`t.status in ('closed', 'closed_returned', 'cancelled')`;

export const KINDS: Record<TRetentionKind, TKindDef> = {
  outbound_orders: {
    table: 'outbound_orders',
    // An order still holding stock (a reservation above zero) is never purged: its balance's `reserved` needs it.
    where: (c, cutoff) => sql`t.customer_id = ${c} and ${finishedOrder}
      and coalesce(t.closed_at, t.cancelled_at, t.updated_at) < ${cutoff}
      and not exists (select 1 from stock_reservations r where r.document_id = t.id and r.quantity > 0)`,
    exportSelect: sql`t.number as ref, t.status as status, coalesce(t.closed_at, t.cancelled_at, t.updated_at) as at,
      t.recipient_name as detail`,
    async purge(tx, c, ids) {
      // Rows without a cascading key: tracking events and store purchases go with the order; a return receipt and a
      // Shopee order keep their row (the return keeps `order_number`; the Shopee row keeps deduplicating the
      // marketplace's order so a later sync never creates it again) with the link emptied.
      await tx
        .delete(carrier_events)
        .where(and(eq(carrier_events.customer_id, c), inArray(carrier_events.order_id, ids)));
      await tx.delete(store_orders).where(and(eq(store_orders.customer_id, c), inArray(store_orders.order_id, ids)));
      await tx
        .update(return_receipts)
        .set({ order_id: null })
        .where(and(eq(return_receipts.customer_id, c), inArray(return_receipts.order_id, ids)));
      await tx
        .update(shopee_orders)
        .set({ order_id: null })
        .where(and(eq(shopee_orders.customer_id, c), inArray(shopee_orders.order_id, ids)));
      // Emptied reservations (quantity 0) left by shipping; held ones were excluded by `where`.
      await tx
        .delete(stock_reservations)
        .where(
          and(
            eq(stock_reservations.customer_id, c),
            inArray(stock_reservations.document_id, ids),
            eq(stock_reservations.quantity, 0),
          ),
        );
      const gone = await tx
        .delete(outbound_orders)
        .where(and(eq(outbound_orders.customer_id, c), inArray(outbound_orders.id, ids)))
        .returning({ id: outbound_orders.id });
      return gone.length;
    },
  },
  inbound_receipts: inboundReceiptsPurge,
  return_receipts: returnReceiptsPurge,
  stocktakes: stocktakesPurge,
  job_logs: {
    table: 'jobs',
    where: (c, cutoff) => sql`t.customer_id = ${c} and t.state in ('succeeded', 'failed', 'cancelled')
      and coalesce(t.finished_at, t.updated_at) < ${cutoff}`,
    exportSelect: sql`t.kind as ref, t.state as status, coalesce(t.finished_at, t.updated_at) as at,
      t.id::text as detail`,
    async purge(tx, c, ids) {
      const gone = await tx
        .delete(jobs)
        .where(and(eq(jobs.customer_id, c), inArray(jobs.id, ids)))
        .returning({ id: jobs.id });
      return gone.length;
    },
  },
  attempt_logs: {
    table: 'integration_attempts',
    where: (c, cutoff) => sql`t.customer_id = ${c} and t.created_at < ${cutoff}`,
    exportSelect: sql`t.provider || ' ' || t.operation as ref, coalesce(t.status::text, t.error, '') as status,
      t.created_at as at, t.method || ' ' || t.url as detail`,
    async purge(tx, c, ids) {
      const gone = await tx
        .delete(integration_attempts)
        .where(
          and(
            eq(integration_attempts.customer_id, c),
            inArray(
              integration_attempts.id,
              ids.map((id) => Number(id)),
            ),
          ),
        )
        .returning({ id: integration_attempts.id });
      return gone.length;
    },
  },
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

export const cutoffSql = (cutoff: Date) => sql`${cutoff.toISOString()}::timestamptz`;

export async function countKind(ex: Executor, customerId: string, kind: TRetentionKind, cutoff: Date) {
  const def = KINDS[kind];
  const [row] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from ${sql.raw(def.table)} t where ${def.where(customerId, cutoffSql(cutoff))}`,
  );
  return Number(row?.n ?? 0);
}

/** The purge of this seller that is queued or running, if any. */
export async function runningPurge(ex: Executor, customerId: string) {
  const [row] = await ex
    .select()
    .from(jobs)
    .where(and(eq(jobs.customer_id, customerId), eq(jobs.kind, PURGE_JOB), inArray(jobs.state, ['queued', 'running'])))
    .limit(1);
  return row ?? null;
}
