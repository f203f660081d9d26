import type { TReconciliationItem } from '@wms/contracts';
import { and, asc, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client';
import { billing_payments, billing_reconciliation_items, customers, users } from '../../db/schema';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { defineJob } from '../../platform/jobs';
import { countAll, iso, pageWindow, type TPageOpts } from '../../platform/listing';
import { newebpayOf, type TBillingDeps, tappayOf } from './billing.service';
import { addDays } from './billing.workflow';

/**
 * Daily reconciliation (issue #31): our payment records of one Taipei day against each gateway's own records.
 * TapPay: the Record API lists every charge of the day (by time, every page) — charged there but not paid here,
 * paid here but not found there, amounts that differ. NewebPay has no list of a day's trades: each of our records of
 * the day is asked with QueryTradeInfo (a charge NewebPay took for an order we never recorded cannot be found this
 * way). Each difference is kept once (day, gateway, kind, order number) for the staff to resolve.
 */

type TItem = typeof billing_reconciliation_items.$inferInsert;

/** [00:00, 24:00) of a Taipei day as instants. */
function taipeiDayWindow(day: string): { from: Date; to: Date } {
  const from = new Date(`${day}T00:00:00+08:00`);
  return { from, to: new Date(from.getTime() + 24 * 3600_000) };
}

export async function reconcileDay(deps: TBillingDeps, day: string): Promise<{ found: number }> {
  const { from, to } = taipeiDayWindow(day);
  const ours = await deps.db
    .select()
    .from(billing_payments)
    .where(and(gte(billing_payments.created_at, from), lt(billing_payments.created_at, to)));
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
    const inserted = await deps.db.insert(billing_reconciliation_items).values(i).onConflictDoNothing().returning();
    found += inserted.length;
  }
  return { found };
}

function item(
  day: string,
  provider: 'tappay' | 'newebpay',
  kind: 'missing_here' | 'not_found_there' | 'amount_differs',
  p: typeof billing_payments.$inferSelect | undefined,
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

const resolver = sql<
  string | null
>`(select ${users.name} from ${users} where ${users.id} = ${billing_reconciliation_items.resolved_by})`;

function itemView(
  row: typeof billing_reconciliation_items.$inferSelect & {
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

function selectItems(ex: Executor, where: SQL | undefined) {
  return ex
    .select({
      item: billing_reconciliation_items,
      customer_name: customers.name,
      resolved_by_name: resolver,
    })
    .from(billing_reconciliation_items)
    .leftJoin(customers, eq(customers.id, billing_reconciliation_items.customer_id))
    .where(where);
}

export async function listItems(deps: Pick<TBillingDeps, 'db'>, q: TPageOpts & { status?: 'open' | 'resolved' }) {
  const where = q.status ? eq(billing_reconciliation_items.status, q.status) : undefined;
  const { limit, offset } = pageWindow(q);
  const [count] = await deps.db.select({ n: countAll }).from(billing_reconciliation_items).where(where);
  const rows = await selectItems(deps.db, where)
    .orderBy(
      // Open first, newest day first.
      desc(sql`${billing_reconciliation_items.status} = 'open'`),
      desc(billing_reconciliation_items.day),
      asc(billing_reconciliation_items.order_number),
    )
    .limit(limit)
    .offset(offset);
  return {
    count: count!.n,
    results: rows.map((r) =>
      itemView({ ...r.item, customer_name: r.customer_name, resolved_by_name: r.resolved_by_name }),
    ),
  };
}

/** The staff resolve a difference with a note: kept on the item (who, when) and in the audit log. */
export async function resolveItem(deps: Pick<TBillingDeps, 'db'>, actor: TActor, id: string, resolution: string) {
  return withTx(deps.db, async (tx) => {
    const [row] = await tx
      .select()
      .from(billing_reconciliation_items)
      .where(eq(billing_reconciliation_items.id, id))
      .for('update');
    if (!row) throw notFound();
    if (row.status === 'resolved') throw new AppError('RECONCILIATION_RESOLVED');
    await tx
      .update(billing_reconciliation_items)
      .set({
        status: 'resolved',
        resolution,
        resolved_by: actor.kind === 'user' ? actor.id : null,
        resolved_at: new Date(),
        updated_at: new Date(),
      })
      .where(eq(billing_reconciliation_items.id, id));
    await writeAudit(tx, actor, {
      action: 'billing.reconciliation.resolve',
      entity: 'billing_reconciliation_item',
      entityId: id,
      customerId: row.customer_id,
      before: { status: row.status },
      after: { status: 'resolved', resolution },
    });
    const [out] = await selectItems(tx, eq(billing_reconciliation_items.id, id));
    return itemView({ ...out!.item, customer_name: out!.customer_name, resolved_by_name: out!.resolved_by_name });
  });
}
