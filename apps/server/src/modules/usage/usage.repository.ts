import { and, asc, desc, eq, isNull, lte, max, or, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import {
  customers,
  usage_charges,
  usage_disputes,
  usage_rate_cards,
  usage_snapshot_runs,
  usage_statements,
  usage_storage_snapshots,
} from '../../db/schema';
import { sqlState } from '../../db/tx';
import { searchWhere } from '../../platform/listing';

/** SQL of usage billing: rate cards and billable events. Every function takes the executor first. */

export type TRateCardRow = typeof usage_rate_cards.$inferSelect;
export type TChargeRow = typeof usage_charges.$inferSelect;
export type TRateCardValues = Pick<
  TRateCardRow,
  'customer_id' | 'valid_from' | 'rates' | 'storage_free_days' | 'note' | 'updated_by'
>;
export type TSnapshotRow = typeof usage_storage_snapshots.$inferSelect;
export type TStatementRow = typeof usage_statements.$inferSelect;
export type TDisputeRow = typeof usage_disputes.$inferSelect;

// Written out: drizzle names a column of a one-table select without its table, which the subquery would read as c.id.
const chargeCount = sql<number>`(select count(*)::int from usage_charges c where c.rate_card_id = "usage_rate_cards"."id")`;

/** Cards of one owner (null: the default cards), newest first, with how many charges each priced. */
export async function listCards(ex: Executor, customerId: string | null) {
  return ex
    .select({ card: usage_rate_cards, charge_count: chargeCount })
    .from(usage_rate_cards)
    .where(customerId ? eq(usage_rate_cards.customer_id, customerId) : isNull(usage_rate_cards.customer_id))
    .orderBy(desc(usage_rate_cards.valid_from));
}

export async function findCard(ex: Executor, id: string, lock = false) {
  const q = ex
    .select({ card: usage_rate_cards, charge_count: chargeCount })
    .from(usage_rate_cards)
    .where(eq(usage_rate_cards.id, id));
  const [row] = lock ? await q.for('update', { of: usage_rate_cards }) : await q;
  return row ?? null;
}

/** The database's refusal of a second card of one owner from one day (usage_rate_cards_owner_day). */
export function isOwnerDayTaken(err: unknown): boolean {
  if (sqlState(err) !== '23505') return false;
  const cause = (err as { cause?: { constraint?: string; message?: string } }).cause;
  return (cause?.constraint ?? cause?.message ?? '').includes('usage_rate_cards_owner_day');
}

export async function insertCard(ex: Executor, values: TRateCardValues): Promise<TRateCardRow> {
  const [row] = await ex.insert(usage_rate_cards).values(values).returning();
  return row!;
}

export async function updateCard(ex: Executor, id: string, values: TRateCardValues): Promise<TRateCardRow> {
  const [row] = await ex
    .update(usage_rate_cards)
    .set({ ...values, updated_at: new Date() })
    .where(eq(usage_rate_cards.id, id))
    .returning();
  return row!;
}

export async function deleteCard(ex: Executor, id: string): Promise<void> {
  await ex.delete(usage_rate_cards).where(eq(usage_rate_cards.id, id));
}

/**
 * The card that prices a seller's work of `day`: the seller's latest card from that day or before, else the latest
 * default card from that day or before; null when there is none (then the work is not charged).
 */
export async function cardFor(ex: Executor, customerId: string, day: string): Promise<TRateCardRow | null> {
  const [row] = await ex
    .select()
    .from(usage_rate_cards)
    .where(
      and(
        or(eq(usage_rate_cards.customer_id, customerId), isNull(usage_rate_cards.customer_id)),
        lte(usage_rate_cards.valid_from, day),
      ),
    )
    .orderBy(sql`${usage_rate_cards.customer_id} is null`, desc(usage_rate_cards.valid_from))
    .limit(1)
    // Shared: a card is not changed while work is priced by it (the CRM's change locks it for update and then sees
    // the charges it priced).
    .for('share');
  return row ?? null;
}

export interface TChargeInsert {
  customer_id: string;
  kind: string;
  source_type: string;
  source_id: string;
  document_number: string;
  occurred_at: Date;
  day: string;
  quantity: number;
  unit_price: string;
  rate_card_id: string;
  /** The amount is quantity × unit price ÷ scale (1000 for the cubic-metre kind, whose quantity is litres). */
  scale?: number;
}

/**
 * The seller's charge lock (transaction-scoped): every transaction recording charges holds it shared; issuing a
 * statement holds it exclusive while it takes the last charge it bills, so no charge recorded before that is still
 * uncommitted (and none recorded after it can come before it).
 */
export async function lockCharges(ex: Executor, customerIds: string[], mode: 'share' | 'exclusive') {
  for (const c of [...new Set(customerIds)].sort())
    await ex.execute(
      mode === 'share'
        ? sql`select pg_advisory_xact_lock_shared(hashtext(${`usage:${c}`}))`
        : sql`select pg_advisory_xact_lock(hashtext(${`usage:${c}`}))`,
    );
}

/**
 * Record billable events, each at most once per (source document, kind): one already there is left as it is (a
 * redelivered event adds nothing). The amount is quantity × unit price, exact (numeric). Answers how many were new.
 */
export async function insertCharges(ex: Executor, rows: TChargeInsert[]): Promise<number> {
  if (rows.length === 0) return 0;
  await lockCharges(
    ex,
    rows.map((r) => r.customer_id),
    'share',
  );
  const inserted = await ex
    .insert(usage_charges)
    .values(
      rows.map(({ scale = 1, ...r }) => ({
        ...r,
        amount: sql`${r.quantity}::int * ${r.unit_price}::numeric / ${scale}::int`,
      })),
    )
    .onConflictDoNothing({ target: [usage_charges.source_type, usage_charges.source_id, usage_charges.kind] })
    .returning({ id: usage_charges.id });
  return inserted.length;
}

const inMonth = (customerId: string, month: string) =>
  and(
    eq(usage_charges.customer_id, customerId),
    sql`${usage_charges.day} >= ${`${month}-01`}::date`,
    sql`${usage_charges.day} < (${`${month}-01`}::date + interval '1 month')::date`,
  );

/** Events in drill-down order: by day, then as they happened (the indexes' order). */
const eventOrder = [
  asc(usage_charges.day),
  asc(usage_charges.occurred_at),
  asc(usage_charges.document_number),
  asc(usage_charges.kind),
];

/** A seller's usage of a month per kind: events, units, amount before tax. */
export async function monthLines(ex: Executor, customerId: string, month: string) {
  return ex
    .select({
      kind: usage_charges.kind,
      events: sql<number>`count(*)::int`,
      quantity: sql<number>`sum(${usage_charges.quantity})::int`,
      amount: sql<string>`sum(${usage_charges.amount})::text`,
    })
    .from(usage_charges)
    .where(inMonth(customerId, month))
    .groupBy(usage_charges.kind)
    .orderBy(usage_charges.kind);
}

/** A page of a seller's billable events of a month (optionally of one kind), by day, and how many there are. */
export async function monthEvents(
  ex: Executor,
  customerId: string,
  month: string,
  kind: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: TChargeRow[]; count: number }> {
  const where = kind ? and(inMonth(customerId, month), eq(usage_charges.kind, kind)) : inMonth(customerId, month);
  const rows = await ex
    .select()
    .from(usage_charges)
    .where(where)
    .orderBy(...eventOrder)
    .limit(page.limit)
    .offset(page.offset);
  const [counted] = await ex.select({ n: sql<number>`count(*)::int` }).from(usage_charges).where(where);
  return { rows, count: Number(counted?.n ?? 0) };
}

// ---- daily storage snapshots ----

/** The last day the snapshot ran for a warehouse, or null. */
export async function lastSnapshotDay(ex: Executor, warehouseId: string): Promise<string | null> {
  const [row] = await ex
    .select({ day: max(usage_snapshot_runs.day) })
    .from(usage_snapshot_runs)
    .where(eq(usage_snapshot_runs.warehouse_id, warehouseId));
  return row?.day ?? null;
}

/**
 * Claim a warehouse's day for the snapshot: false when it ran already (or another process runs it: on PostgreSQL the
 * second insert waits for the first's commit, then finds the row).
 */
export async function claimSnapshotDay(ex: Executor, warehouseId: string, day: string): Promise<boolean> {
  const rows = await ex
    .insert(usage_snapshot_runs)
    .values({ warehouse_id: warehouseId, day, sellers: 0 })
    .onConflictDoNothing()
    .returning({ day: usage_snapshot_runs.day });
  return rows.length > 0;
}

export async function setSnapshotSellers(ex: Executor, warehouseId: string, day: string, sellers: number) {
  await ex
    .update(usage_snapshot_runs)
    .set({ sellers })
    .where(and(eq(usage_snapshot_runs.warehouse_id, warehouseId), eq(usage_snapshot_runs.day, day)));
}

export async function insertSnapshot(
  ex: Executor,
  values: Omit<TSnapshotRow, 'id' | 'created_at'>,
): Promise<TSnapshotRow> {
  const [row] = await ex.insert(usage_storage_snapshots).values(values).returning();
  return row!;
}

export async function findSnapshot(ex: Executor, id: string, customerId?: string): Promise<TSnapshotRow | null> {
  const [row] = await ex
    .select()
    .from(usage_storage_snapshots)
    .where(
      customerId
        ? and(eq(usage_storage_snapshots.id, id), eq(usage_storage_snapshots.customer_id, customerId))
        : eq(usage_storage_snapshots.id, id),
    );
  return row ?? null;
}

// ---- statements ----

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

/** A page of the events a statement bills (optionally of one kind), by day, and how many there are. */
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
  const [counted] = await ex.select({ n: sql<number>`count(*)::int` }).from(usage_charges).where(where);
  return { rows, count: Number(counted?.n ?? 0) };
}

// ---- disputes and corrections

/** One charge (of one seller when `customerId` is given). */
export async function findCharge(ex: Executor, id: string, customerId?: string): Promise<TChargeRow | null> {
  const [row] = await ex
    .select()
    .from(usage_charges)
    .where(
      customerId ? and(eq(usage_charges.id, id), eq(usage_charges.customer_id, customerId)) : eq(usage_charges.id, id),
    );
  return row ?? null;
}

/** A correction event, as given (its amount is the difference, exact); null when the dispute has one already. */
export async function insertCorrection(
  ex: Executor,
  values: Omit<typeof usage_charges.$inferInsert, 'id' | 'seq' | 'created_at'>,
): Promise<TChargeRow | null> {
  await lockCharges(ex, [values.customer_id], 'share');
  const [row] = await ex
    .insert(usage_charges)
    .values(values)
    .onConflictDoNothing({ target: [usage_charges.source_type, usage_charges.source_id, usage_charges.kind] })
    .returning();
  return row ?? null;
}

export async function insertDispute(
  ex: Executor,
  values: Pick<
    TDisputeRow,
    'customer_id' | 'statement_id' | 'kind' | 'event_id' | 'ticket_id' | 'reason' | 'created_by'
  >,
): Promise<TDisputeRow> {
  const [row] = await ex.insert(usage_disputes).values(values).returning();
  return row!;
}

export async function findDispute(ex: Executor, id: string, lock = false): Promise<TDisputeRow | null> {
  const q = ex.select().from(usage_disputes).where(eq(usage_disputes.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function updateDispute(
  ex: Executor,
  id: string,
  values: Partial<Pick<TDisputeRow, 'status' | 'answer' | 'correction_id' | 'resolved_by' | 'resolved_at'>>,
): Promise<TDisputeRow> {
  const [row] = await ex
    .update(usage_disputes)
    .set({ ...values, updated_at: new Date() })
    .where(eq(usage_disputes.id, id))
    .returning();
  return row!;
}

/** A statement's disputes, oldest first, each with its correction event (if any). */
export async function statementDisputes(ex: Executor, statementId: string) {
  return ex
    .select({ dispute: usage_disputes, correction: usage_charges })
    .from(usage_disputes)
    .leftJoin(usage_charges, eq(usage_charges.id, usage_disputes.correction_id))
    .where(eq(usage_disputes.statement_id, statementId))
    .orderBy(asc(usage_disputes.created_at));
}
