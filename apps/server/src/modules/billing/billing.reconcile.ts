import type { TReconciliationItem } from '@wms/contracts';
import { z } from 'zod';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { defineJob } from '../../platform/jobs';
import { iso, pageWindow, type TPageOpts } from '../../platform/listing';
import * as repo from './billing.reconcile.repository';
import type { TPaymentRow } from './billing.repository';
import { newebpayOf, type TBillingDeps, tappayOf } from './billing.views';
import { addDays } from './billing.workflow';

/**
 * Daily reconciliation (issue #31): our payment records of one Taipei day against each gateway's own records.
 * TapPay: the Record API lists every charge of the day (by time, every page) — charged there but not paid here,
 * paid here but not found there, amounts that differ. NewebPay has no list of a day's trades: each of our records of
 * the day is asked with QueryTradeInfo (a charge NewebPay took for an order we never recorded cannot be found this
 * way). Each difference is kept once (day, gateway, kind, order number) for the staff to resolve.
 */

type TItem = repo.TReconciliationItemInsert;

/** [00:00, 24:00) of a Taipei day as instants. */
function taipeiDayWindow(day: string): { from: Date; to: Date } {
  const from = new Date(`${day}T00:00:00+08:00`);
  return { from, to: new Date(from.getTime() + 24 * 3600_000) };
}

export async function reconcileDay(deps: TBillingDeps, day: string): Promise<{ found: number }> {
  const { from, to } = taipeiDayWindow(day);
  const ours = await repo.paymentsCreatedBetween(deps.db, from, to);
  const items: TItem[] = [];
  const ctx = { customerId: null, reference: `reconcile:${day}` };

  // TapPay: both lists of the day.
  if (deps.config.tappay.partnerKey && deps.config.tappay.merchantId) {
    const theirs = await tappayOf(deps).records!({ from, to }, ctx);
    const mine = ours.filter((p) => p.provider === 'tappay');
    for (const t of theirs) {
      const p = mine.find(
        (m) =>
          (m.provider_transaction_id && m.provider_transaction_id === t.transactionId) ||
          m.order_number === t.orderNumber,
      );
      if (t.paid && p?.status !== 'succeeded')
        items.push(
          item(day, 'tappay', 'missing_here', p, t.orderNumber ?? t.transactionId, t.transactionId, t.amount, t.status),
        );
      else if (t.paid && p && Number(p.amount) !== t.amount)
        items.push(item(day, 'tappay', 'amount_differs', p, p.order_number, t.transactionId, t.amount, t.status));
    }
    for (const p of mine.filter((m) => m.status === 'succeeded')) {
      const t = theirs.find(
        (x) =>
          (p.provider_transaction_id && x.transactionId === p.provider_transaction_id) ||
          x.orderNumber === p.order_number,
      );
      if (!t?.paid)
        items.push(
          item(
            day,
            'tappay',
            'not_found_there',
            p,
            p.order_number,
            t?.transactionId ?? null,
            t?.amount ?? null,
            t?.status ?? 'no record',
          ),
        );
    }
  }

  // NewebPay: each of our records of the day asked by its order number (later periodic charges are not orders there).
  if (deps.config.newebpay.merchantId && deps.config.newebpay.hashKey) {
    const provider = newebpayOf(deps);
    for (const p of ours.filter((m) => m.provider === 'newebpay' && m.order_number.split('_').length <= 2)) {
      const r = await provider.query!(
        { transactionId: p.provider_transaction_id, orderNumber: p.order_number, amount: Number(p.amount) },
        { customerId: p.customer_id, reference: p.order_number },
      ).catch(() => null);
      if (!r) continue;
      const paidThere = r.status === 'succeeded';
      const state = r.notFound ? 'no trade' : r.status;
      if (paidThere && p.status !== 'succeeded')
        items.push(item(day, 'newebpay', 'missing_here', p, p.order_number, r.transactionId, r.amount ?? null, state));
      else if (p.status === 'succeeded' && !paidThere && (r.status === 'failed' || r.notFound))
        items.push(
          item(day, 'newebpay', 'not_found_there', p, p.order_number, r.transactionId, r.amount ?? null, state),
        );
      else if (paidThere && r.amount != null && r.amount !== Number(p.amount))
        items.push(item(day, 'newebpay', 'amount_differs', p, p.order_number, r.transactionId, r.amount, state));
    }
  }

  let found = 0;
  for (const i of items) {
    if (await repo.insertItemOnce(deps.db, i)) found++;
  }
  return { found };
}

function item(
  day: string,
  provider: 'tappay' | 'newebpay',
  kind: 'missing_here' | 'not_found_there' | 'amount_differs',
  p: TPaymentRow | undefined,
  orderNumber: string,
  transactionId: string | null,
  theirAmount: number | null,
  theirStatus: string,
): TItem {
  return {
    day,
    provider,
    kind,
    customer_id: p?.customer_id ?? null,
    payment_id: p?.id ?? null,
    order_number: orderNumber,
    provider_transaction_id: transactionId ?? p?.provider_transaction_id ?? null,
    our_amount: p ? p.amount : null,
    their_amount: theirAmount == null ? null : String(theirAmount),
    our_status: p ? p.status : 'no record',
    their_status: theirStatus,
  };
}

/** Every day at 03:00 (Taipei): reconcile the day before. A re-run of a day adds nothing twice. */
export const billingReconcile = defineJob(
  'billing.reconcile',
  z.object({ day: z.iso.date().optional() }),
  async ({ payload, db, services, queue }) => {
    const deps = { db, config: services.config, jobs: queue, providers: services.providers };
    const day = payload.day ?? addDays(taipeiToday(), -1);
    return { day, ...(await reconcileDay(deps, day)) };
  },
  { cron: { schedule: '0 3 * * *', tz: 'Asia/Taipei', payload: {} } },
);

// ---- the CRM screen

function itemView(
  row: repo.TReconciliationItemRow & {
    customer_name: string | null;
    resolved_by_name: string | null;
  },
): TReconciliationItem {
  return {
    id: row.id,
    day: row.day,
    provider: row.provider as TReconciliationItem['provider'],
    kind: row.kind as TReconciliationItem['kind'],
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    payment_id: row.payment_id,
    order_number: row.order_number,
    provider_transaction_id: row.provider_transaction_id,
    our_amount: row.our_amount,
    their_amount: row.their_amount,
    our_status: row.our_status,
    their_status: row.their_status,
    status: row.status as TReconciliationItem['status'],
    resolution: row.resolution,
    resolved_by_name: row.resolved_by_name,
    resolved_at: iso(row.resolved_at),
    created_at: iso(row.created_at)!,
  };
}

export async function listItems(deps: Pick<TBillingDeps, 'db'>, q: TPageOpts & { status?: 'open' | 'resolved' }) {
  const { count, rows } = await repo.itemPage(deps.db, q.status, pageWindow(q));
  return {
    count,
    results: rows.map((r) =>
      itemView({ ...r.item, customer_name: r.customer_name, resolved_by_name: r.resolved_by_name }),
    ),
  };
}

/** The staff resolve a difference with a note: kept on the item (who, when) and in the audit log. */
export async function resolveItem(deps: Pick<TBillingDeps, 'db'>, actor: TActor, id: string, resolution: string) {
  return withTx(deps.db, async (tx) => {
    const row = await repo.lockItem(tx, id);
    if (!row) throw notFound();
    if (row.status === 'resolved') throw new AppError('RECONCILIATION_RESOLVED');
    await repo.markItemResolved(tx, id, resolution, actor.kind === 'user' ? actor.id : null);
    await writeAudit(tx, actor, {
      action: 'billing.reconciliation.resolve',
      entity: 'billing_reconciliation_item',
      entityId: id,
      customerId: row.customer_id,
      before: { status: row.status },
      after: { status: 'resolved', resolution },
    });
    const out = await repo.findItemWithNames(tx, id);
    return itemView({ ...out!.item, customer_name: out!.customer_name, resolved_by_name: out!.resolved_by_name });
  });
}
