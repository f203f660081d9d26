import { and, asc, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { usage_charges, usage_rate_cards } from '../../db/schema';
import { sqlState } from '../../db/tx';

/**
 * SQL of usage billing: rate cards and billable events (the statements', snapshots' and disputes' SQL are beside it, in
 * usage.*.repository.ts). Every function takes the executor first.
 */

export type TRateCardRow = typeof usage_rate_cards.$inferSelect;
export type TChargeRow = typeof usage_charges.$inferSelect;
export type TRateCardValues = Pick<
  TRateCardRow,
  'customer_id' | 'valid_from' | 'rates' | 'storage_free_days' | 'note' | 'updated_by'
>;

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

export const inMonth = (customerId: string, month: string) =>
  and(
    eq(usage_charges.customer_id, customerId),
    sql`${usage_charges.day} >= ${`${month}-01`}::date`,
    sql`${usage_charges.day} < (${`${month}-01`}::date + interval '1 month')::date`,
  );

/** Events in drill-down order: by day, then as they happened (the indexes' order). */
export const eventOrder = [
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

// ---- corrections

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
