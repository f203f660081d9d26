import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import { customers, usage_charges, usage_statements } from '../../db/schema';
import { sqlState } from '../../db/tx';
import { searchWhere } from '../../platform/listing';
import { eventOrder, inMonth, lockCharges, type TChargeRow } from './usage.repository';

/** SQL of usage statements: issue, the charges each bills, lists, sums and revenue. */

export type TStatementRow = typeof usage_statements.$inferSelect;

export async function insertStatement(
  ex: Executor,
  values: Pick<
    TStatementRow,
    'customer_id' | 'month' | 'number' | 'issued_at' | 'issued_by' | 'tax_rate' | 'billed_through'
  >,
): Promise<TStatementRow> {
  const [row] = await ex
    .insert(usage_statements)
    .values({ ...values, status: 'issued', lines: [], subtotal: '0', minimum_fee: '0', tax: '0', total: '0' })
    .returning();
  return row!;
}

/** The database's refusal of a second statement of a seller's month that is not void (usage_statements_month_open). */
export function isMonthTaken(err: unknown): boolean {
  if (sqlState(err) !== '23505') return false;
  const cause = (err as { cause?: { constraint?: string; message?: string } }).cause;
  return (cause?.constraint ?? cause?.message ?? '').includes('usage_statements_month_open');
}

/**
 * The last charge a statement of the seller issued now bills, under the seller's charge lock (exclusive, to the end of
 * the transaction): every charge recorded before it is committed, every later one gets a later `seq`.
 */
export async function billThrough(ex: Executor, customerId: string): Promise<number> {
  await lockCharges(ex, [customerId], 'exclusive');
  const [row] = await queryRows<{ seq: string }>(
    ex,
    sql`select nextval(pg_get_serial_sequence('usage_charges', 'seq'))::text as seq`,
  );
  return Number(row!.seq);
}

/** The charges a statement bills: its seller's of its month up to its `billed_through`; none when it is void. */
const billedOn = (s: TStatementRow) =>
  s.status === 'void' ? sql`false` : and(inMonth(s.customer_id, s.month), lte(usage_charges.seq, s.billed_through));

/** Whether a statement bills a charge (billedOn, in memory). */
export const isBilledOn = (c: TChargeRow, s: TStatementRow) =>
  s.status !== 'void' &&
  c.customer_id === s.customer_id &&
  c.day.startsWith(`${s.month}-`) &&
  c.seq <= s.billed_through;

/** A statement's lines per kind from the charges it bills. */
export async function statementLines(ex: Executor, s: TStatementRow) {
  return ex
    .select({
      kind: usage_charges.kind,
      events: sql<number>`count(*)::int`,
      quantity: sql<number>`sum(${usage_charges.quantity})::int`,
      amount: sql<string>`sum(${usage_charges.amount})::text`,
    })
    .from(usage_charges)
    .where(billedOn(s))
    .groupBy(usage_charges.kind)
    .orderBy(usage_charges.kind);
}

export async function updateStatement(
  ex: Executor,
  id: string,
  values: Partial<Omit<TStatementRow, 'id' | 'customer_id' | 'created_at'>>,
): Promise<TStatementRow> {
  const [row] = await ex
    .update(usage_statements)
    .set({ ...values, updated_at: new Date() })
    .where(eq(usage_statements.id, id))
    .returning();
  return row!;
}

const statementSelect = { statement: usage_statements, customer_name: customers.name };

/** One statement (of one seller when `customerId` is given), locked for update when asked. */
export async function findStatement(ex: Executor, id: string, customerId?: string, lock = false) {
  const q = ex
    .select(statementSelect)
    .from(usage_statements)
    .innerJoin(customers, eq(customers.id, usage_statements.customer_id))
    .where(
      customerId
        ? and(eq(usage_statements.id, id), eq(usage_statements.customer_id, customerId))
        : eq(usage_statements.id, id),
    );
  const [row] = lock ? await q.for('update', { of: usage_statements }) : await q;
  return row ?? null;
}

export interface TStatementFilter {
  customerId?: string;
  month?: string;
  status?: string;
  /** A substring of the statement's number or the seller's name (case-insensitive). */
  search?: string;
}

const statementWhere = (f: TStatementFilter) =>
  and(
    f.customerId ? eq(usage_statements.customer_id, f.customerId) : undefined,
    f.month ? eq(usage_statements.month, f.month) : undefined,
    f.status ? eq(usage_statements.status, f.status) : undefined,
    searchWhere(f.search, [usage_statements.number, customers.name]),
  );

/** A page of statements, newest month first, and how many there are. */
export async function listStatements(ex: Executor, f: TStatementFilter, page: { limit: number; offset: number }) {
  const where = statementWhere(f);
  const rows = await ex
    .select(statementSelect)
    .from(usage_statements)
    .innerJoin(customers, eq(customers.id, usage_statements.customer_id))
    .where(where)
    .orderBy(desc(usage_statements.month), asc(customers.name), desc(usage_statements.issued_at))
    .limit(page.limit)
    .offset(page.offset);
  const [counted] = await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(usage_statements)
    .innerJoin(customers, eq(customers.id, usage_statements.customer_id))
    .where(where);
  return { rows, count: Number(counted?.n ?? 0) };
}

/** The sums of the statements a filter finds, per status (exact numeric sums, as text). */
export async function statementTotals(ex: Executor, f: TStatementFilter) {
  return ex
    .select({
      status: usage_statements.status,
      count: sql<number>`count(*)::int`,
      net: sql<string>`coalesce(sum(${usage_statements.subtotal} + ${usage_statements.minimum_fee}), 0)::text`,
      tax: sql<string>`coalesce(sum(${usage_statements.tax}), 0)::text`,
      total: sql<string>`coalesce(sum(${usage_statements.total}), 0)::text`,
    })
    .from(usage_statements)
    .innerJoin(customers, eq(customers.id, usage_statements.customer_id))
    .where(statementWhere(f))
    .groupBy(usage_statements.status);
}

/**
 * Revenue per seller and month from `fromMonth` on: what the statements that are not void bill before tax (charges
 * and the minimum fee's top-up), and how much of it is paid.
 */
export async function revenueBySellerMonth(ex: Executor, fromMonth: string) {
  return ex
    .select({
      customer_id: usage_statements.customer_id,
      customer_name: customers.name,
      month: usage_statements.month,
      net: sql<string>`sum(${usage_statements.subtotal} + ${usage_statements.minimum_fee})::text`,
      paid: sql<string>`coalesce(sum(${usage_statements.subtotal} + ${usage_statements.minimum_fee}) filter (where ${usage_statements.status} = 'paid'), 0)::text`,
    })
    .from(usage_statements)
    .innerJoin(customers, eq(customers.id, usage_statements.customer_id))
    .where(and(sql`${usage_statements.status} <> 'void'`, sql`${usage_statements.month} >= ${fromMonth}`))
    .groupBy(usage_statements.customer_id, customers.name, usage_statements.month)
    .orderBy(asc(customers.name), asc(usage_statements.month));
}

/**
 * A page of the events a statement bills (optionally of one kind), by day, and how many there are. The count is its
 * frozen lines' (they were counted from exactly these events, and none is added to them later: see billThrough) —
 * counting 200,000 rows again took most of a drill-down page's time (bench `statements`).
 */
export async function statementEvents(
  ex: Executor,
  s: TStatementRow,
  kind: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: TChargeRow[]; count: number }> {
  const where = kind ? and(billedOn(s), eq(usage_charges.kind, kind)) : billedOn(s);
  const rows = await ex
    .select()
    .from(usage_charges)
    .where(where)
    .orderBy(...eventOrder)
    .limit(page.limit)
    .offset(page.offset);
  const lines = s.status === 'void' ? [] : s.lines.filter((l) => !kind || l.kind === kind);
  return { rows, count: lines.reduce((n, l) => n + l.events, 0) };
}
