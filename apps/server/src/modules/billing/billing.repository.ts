import { and, asc, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  billing_contracts,
  billing_list_prices,
  billing_payments,
  billing_refunds,
  customers,
  users,
} from '../../db/schema';
import { sqlState } from '../../db/tx';
import { AppError } from '../../platform/errors';
import { countAll, likePattern, orderingOf, pageWindow, type TPageOpts } from '../../platform/listing';

/** SQL of billing: contracts and transaction records. Every function takes the executor first. */

export type TContractRow = typeof billing_contracts.$inferSelect;
export type TPaymentRow = typeof billing_payments.$inferSelect;
export type TRefundRow = typeof billing_refunds.$inferSelect;

export async function findContract(ex: Executor, customerId: string, lock = false): Promise<TContractRow | null> {
  const q = ex.select().from(billing_contracts).where(eq(billing_contracts.customer_id, customerId));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function findContractById(ex: Executor, id: string, lock = false): Promise<TContractRow | null> {
  const q = ex.select().from(billing_contracts).where(eq(billing_contracts.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function upsertContract(
  ex: Executor,
  customerId: string,
  values: Pick<TContractRow, 'plan' | 'price' | 'tax_rate' | 'period' | 'start_date' | 'payment_terms' | 'note'>,
): Promise<TContractRow> {
  const [row] = await ex
    .insert(billing_contracts)
    .values({ customer_id: customerId, ...values })
    .onConflictDoUpdate({ target: billing_contracts.customer_id, set: { ...values, updated_at: new Date() } })
    .returning();
  return row!;
}

export async function updateContract(
  ex: Executor,
  id: string,
  values: Partial<Omit<TContractRow, 'id' | 'customer_id' | 'created_at'>>,
): Promise<TContractRow> {
  const [row] = await ex
    .update(billing_contracts)
    .set({ ...values, updated_at: new Date() })
    .where(eq(billing_contracts.id, id))
    .returning();
  return row!;
}

/** Period starts with a successful payment (a credit pays no period). */
export async function paidPeriodStarts(ex: Executor, contractId: string): Promise<Set<string>> {
  const rows = await ex
    .selectDistinct({ start: billing_payments.period_start })
    .from(billing_payments)
    .where(
      and(
        eq(billing_payments.contract_id, contractId),
        eq(billing_payments.status, 'succeeded'),
        ne(billing_payments.kind, 'credit'),
      ),
    );
  return new Set(rows.map((r) => r.start));
}

/** The payments in flight of a contract (pending: each holds its period until its outcome is known), by period. */
export async function heldPeriods(ex: Executor, contractId: string): Promise<Map<string, TPaymentRow>> {
  const rows = await ex
    .select()
    .from(billing_payments)
    .where(
      and(
        eq(billing_payments.contract_id, contractId),
        eq(billing_payments.status, 'pending'),
        ne(billing_payments.kind, 'credit'),
      ),
    );
  return new Map(rows.map((r) => [r.period_start, r]));
}

export async function insertPayment(ex: Executor, values: typeof billing_payments.$inferInsert): Promise<TPaymentRow> {
  const [row] = await ex.insert(billing_payments).values(values).returning();
  return row!;
}

/** The database's own refusal of a second record paying or holding a period (billing_payments_period_key). */
export function isPeriodTaken(err: unknown): boolean {
  if (sqlState(err) !== '23505') return false;
  // The constraint's name (node-postgres and PGlite both give it, and put it in the message).
  const cause = (err as { cause?: { constraint?: string; message?: string } }).cause;
  return (cause?.constraint ?? cause?.message ?? '').includes('billing_payments_period_key');
}

/**
 * A record that pays or holds its period: the unique key (contract, period) over pending and succeeded records turns
 * a second one into PAYMENT_IN_PROGRESS naming the period — whatever the code before it checked.
 */
export async function insertHoldingPayment(
  ex: Executor,
  values: typeof billing_payments.$inferInsert,
): Promise<TPaymentRow> {
  try {
    return await insertPayment(ex, values);
  } catch (err) {
    if (isPeriodTaken(err))
      throw new AppError('PAYMENT_IN_PROGRESS', {
        period: `${values.period_start} ~ ${values.period_end}`,
        order_number: '',
      });
    throw err;
  }
}

/** The payment paying (succeeded) or holding (pending) a usage statement, if any; a credit holds nothing. */
export async function statementPayment(ex: Executor, statementId: string): Promise<TPaymentRow | null> {
  const [row] = await ex
    .select()
    .from(billing_payments)
    .where(
      and(
        eq(billing_payments.statement_id, statementId),
        inArray(billing_payments.status, ['pending', 'succeeded']),
        ne(billing_payments.kind, 'credit'),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The database's own refusal of a second record paying or holding a usage statement (billing_payments_statement_key). */
export function isStatementTaken(err: unknown): boolean {
  if (sqlState(err) !== '23505') return false;
  const cause = (err as { cause?: { constraint?: string; message?: string } }).cause;
  return (cause?.constraint ?? cause?.message ?? '').includes('billing_payments_statement_key');
}

/** A result recorded at most once per gateway transaction id: null when that id is already on a record. */
export async function insertPaymentOnce(
  ex: Executor,
  values: typeof billing_payments.$inferInsert,
): Promise<TPaymentRow | null> {
  const [row] = await ex
    .insert(billing_payments)
    .values(values)
    .onConflictDoNothing({
      target: [billing_payments.provider, billing_payments.provider_transaction_id],
      where: sql`${billing_payments.provider_transaction_id} is not null`,
    })
    .returning();
  return row ?? null;
}

export async function updatePayment(
  ex: Executor,
  id: string,
  values: Partial<Omit<TPaymentRow, 'id' | 'customer_id' | 'created_at'>>,
): Promise<TPaymentRow> {
  const [row] = await ex
    .update(billing_payments)
    .set({ ...values, updated_at: new Date() })
    .where(eq(billing_payments.id, id))
    .returning();
  return row!;
}

/** The renewal of the contract's period still waiting for its gateway's answer, if any. */
export async function pendingRenewal(
  ex: Executor,
  contractId: string,
  periodStart: string,
): Promise<TPaymentRow | null> {
  const [row] = await ex
    .select()
    .from(billing_payments)
    .where(
      and(
        eq(billing_payments.contract_id, contractId),
        eq(billing_payments.period_start, periodStart),
        eq(billing_payments.status, 'pending'),
        eq(billing_payments.kind, 'renewal'),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** How many renewal charges the contract's period has had (any outcome). */
export async function renewalCount(ex: Executor, contractId: string, periodStart: string): Promise<number> {
  const [row] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(billing_payments)
    .where(
      and(
        eq(billing_payments.contract_id, contractId),
        eq(billing_payments.period_start, periodStart),
        eq(billing_payments.kind, 'renewal'),
      ),
    );
  return row!.n;
}

/** One payment by id, whoever's (a job's payload names it). */
export async function findPaymentById(ex: Executor, id: string): Promise<TPaymentRow | null> {
  const [row] = await ex.select().from(billing_payments).where(eq(billing_payments.id, id));
  return row ?? null;
}

/** Payments still pending 10 minutes after they were made. */
export async function stalePendingPayments(ex: Executor) {
  return ex
    .select({ id: billing_payments.id, customer_id: billing_payments.customer_id })
    .from(billing_payments)
    .where(
      and(eq(billing_payments.status, 'pending'), sql`${billing_payments.created_at} < now() - interval '10 minutes'`),
    );
}

export async function findPayment(ex: Executor, customerId: string, id: string): Promise<TPaymentRow | null> {
  const [row] = await ex
    .select()
    .from(billing_payments)
    .where(and(eq(billing_payments.customer_id, customerId), eq(billing_payments.id, id)));
  return row ?? null;
}

export async function findPaymentByOrderNumber(
  ex: Executor,
  orderNumber: string,
  lock = false,
): Promise<TPaymentRow | null> {
  const q = ex.select().from(billing_payments).where(eq(billing_payments.order_number, orderNumber));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function findPaymentByTransaction(
  ex: Executor,
  provider: string,
  transactionId: string,
): Promise<TPaymentRow | null> {
  const [row] = await ex
    .select()
    .from(billing_payments)
    .where(and(eq(billing_payments.provider, provider), eq(billing_payments.provider_transaction_id, transactionId)));
  return row ?? null;
}

const ORDERING = {
  created_at: billing_payments.created_at,
  paid_at: billing_payments.paid_at,
  amount: billing_payments.amount,
  period_start: billing_payments.period_start,
  status: billing_payments.status,
  provider: billing_payments.provider,
  order_number: billing_payments.order_number,
};

export async function listPayments(
  ex: Executor,
  customerId: string,
  q: TPageOpts & { status?: string; provider?: string },
): Promise<{ count: number; rows: TPaymentRow[] }> {
  const parts: Array<SQL | undefined> = [eq(billing_payments.customer_id, customerId)];
  if (q.status) parts.push(eq(billing_payments.status, q.status));
  if (q.provider) parts.push(eq(billing_payments.provider, q.provider));
  if (q.search) {
    const like = likePattern(q.search);
    parts.push(
      sql`(${billing_payments.order_number} ilike ${like} or coalesce(${billing_payments.provider_transaction_id}, '') ilike ${like} or coalesce(${billing_payments.failure}, '') ilike ${like})`,
    );
  }
  const where = and(...parts);
  const { limit, offset } = pageWindow(q);
  const order = orderingOf(q.ordering, ORDERING, '-created_at', billing_payments.id);
  const [count] = await ex.select({ n: countAll }).from(billing_payments).where(where);
  const rows = await ex
    .select()
    .from(billing_payments)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return { count: count!.n, rows };
}

export async function latestPayments(ex: Executor, customerId: string, limit: number): Promise<TPaymentRow[]> {
  return ex
    .select()
    .from(billing_payments)
    .where(eq(billing_payments.customer_id, customerId))
    .orderBy(desc(billing_payments.created_at))
    .limit(limit);
}

export async function findCustomer(ex: Executor, customerId: string) {
  const [row] = await ex.select().from(customers).where(eq(customers.id, customerId));
  return row ?? null;
}

/** Who gets the seller's billing mail: its first active CUSTOMER user (the one who registered it). */
export async function billingContact(
  ex: Executor,
  customerId: string,
): Promise<{ email: string; name: string; language: string } | null> {
  const [row] = await ex
    .select({ email: users.email, name: users.name, language: users.language })
    .from(users)
    .where(and(eq(users.customer_id, customerId), eq(users.is_active, true)))
    .orderBy(asc(users.created_at))
    .limit(1);
  return row ?? null;
}

/** Contracts whose due periods renew by a remembered TapPay card or a NewebPay periodic authorisation. */
export async function autoRenewContracts(ex: Executor): Promise<TContractRow[]> {
  return ex.select().from(billing_contracts).where(sql`${billing_contracts.auto_renew} is not null`);
}

export async function lockPayment(ex: Executor, id: string): Promise<TPaymentRow | null> {
  const [row] = await ex.select().from(billing_payments).where(eq(billing_payments.id, id)).for('update');
  return row ?? null;
}

/** The refunds of these payments, oldest first, by payment id. */
export async function refundsOf(ex: Executor, paymentIds: string[]): Promise<Map<string, TRefundRow[]>> {
  const out = new Map<string, TRefundRow[]>();
  if (paymentIds.length === 0) return out;
  const rows = await ex
    .select()
    .from(billing_refunds)
    .where(inArray(billing_refunds.payment_id, paymentIds))
    .orderBy(asc(billing_refunds.created_at), asc(billing_refunds.id));
  for (const r of rows) out.set(r.payment_id, [...(out.get(r.payment_id) ?? []), r]);
  return out;
}

export async function findRefundByKey(ex: Executor, paymentId: string, key: string): Promise<TRefundRow | null> {
  const [row] = await ex
    .select()
    .from(billing_refunds)
    .where(and(eq(billing_refunds.payment_id, paymentId), eq(billing_refunds.idempotency_key, key)));
  return row ?? null;
}

export async function insertRefund(ex: Executor, values: typeof billing_refunds.$inferInsert): Promise<TRefundRow> {
  const [row] = await ex.insert(billing_refunds).values(values).returning();
  return row!;
}

export async function updateRefund(
  ex: Executor,
  id: string,
  values: Partial<Pick<TRefundRow, 'status' | 'provider_refund_id' | 'gateway_answer'>>,
): Promise<TRefundRow> {
  const [row] = await ex
    .update(billing_refunds)
    .set({ ...values, updated_at: new Date() })
    .where(eq(billing_refunds.id, id))
    .returning();
  return row!;
}

export type TListPriceRow = typeof billing_list_prices.$inferSelect;

export async function listPrices(ex: Executor): Promise<TListPriceRow[]> {
  return ex.select().from(billing_list_prices).orderBy(asc(billing_list_prices.period));
}

export async function upsertListPrice(
  ex: Executor,
  values: Pick<TListPriceRow, 'period' | 'plan' | 'price' | 'tax_rate' | 'updated_by'>,
): Promise<TListPriceRow> {
  const [row] = await ex
    .insert(billing_list_prices)
    .values(values)
    .onConflictDoUpdate({ target: billing_list_prices.period, set: { ...values, updated_at: new Date() } })
    .returning();
  return row!;
}
