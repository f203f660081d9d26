import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Executor, insertJsonTuples, type Tx } from '../../db/client';
import { order_cvs_stores, outbound_order_lines, outbound_orders } from '../../db/schema';
import { LINE_COLUMNS, type TOrderInsert } from './outbound.orders.repository';

/** The SQL of order intake (outside rows → orders): batched inserts of orders and lines, duplicate look-ups. */

/** The columns an order created from outside rows sets (`TOrderDraft` and who made it); the rest take defaults. */
export const INTAKE_ORDER_COLUMNS = [
  'customer_id',
  'number',
  'created_by',
  'platform_order_number',
  'third_party_number',
  'consignment_number',
  'shipping_date',
  'category',
  'channel',
  'is_cross_border',
  'recipient_name',
  'recipient_phone',
  'recipient_mobile',
  'recipient_postcode',
  'recipient_address',
  'sender_name',
  'sender_phone',
  'sender_postcode',
  'sender_address',
  'shipping_remark',
  'warehouse_id',
  'arrival_date',
  'arrival_time_slot',
  'logistics_provider_id',
  'platform_id',
  'cod',
  'cod_amount',
  'total_amount',
  'piece_count',
  'volume',
  'platform_logistics',
  'ship_by',
] as const satisfies ReadonlyArray<keyof TOrderInsert>;

export type TIntakeOrderInsert = Required<Pick<TOrderInsert, (typeof INTAKE_ORDER_COLUMNS)[number]>>;

/**
 * Insert orders whose platform order number is not there yet, in one statement; returns the inserted ones (re-imports
 * skip).
 */
export async function insertOrdersSkippingDuplicates(
  tx: Tx,
  /** The columns every order of the call shares (the seller, who imports). */
  shared: Pick<TIntakeOrderInsert, 'customer_id' | 'created_by'>,
  orders: ReadonlyArray<{
    number: string;
    ship_by: Date | null;
    values: Omit<TIntakeOrderInsert, 'customer_id' | 'number' | 'created_by' | 'ship_by'>;
  }>,
): Promise<Array<{ id: string; number: string; platform_id: string | null; platform_order_number: string | null }>> {
  // One array of values per order, built straight from the draft (an import writes tens of thousands).
  const own = INTAKE_ORDER_COLUMNS.slice(3, -1) as ReadonlyArray<
    Exclude<(typeof INTAKE_ORDER_COLUMNS)[number], keyof typeof shared | 'number' | 'ship_by'>
  >;
  const last = INTAKE_ORDER_COLUMNS.length - 1;
  const tuples = orders.map((o) => {
    const t: unknown[] = new Array(INTAKE_ORDER_COLUMNS.length);
    t[0] = shared.customer_id;
    t[1] = o.number;
    t[2] = shared.created_by;
    for (let i = 0; i < own.length; i++) t[i + 3] = o.values[own[i]!] ?? null;
    t[last] = o.ship_by;
    return t;
  });
  return insertJsonTuples(
    tx,
    outbound_orders,
    INTAKE_ORDER_COLUMNS,
    tuples,
    sql`on conflict do nothing returning id, number, platform_id, platform_order_number`,
  );
}

/** Platform order numbers (of one platform, or of no platform) that a seller already has. */
export async function existingPlatformNumbers(
  ex: Executor,
  customerId: string,
  platformId: string | null,
  numbers: string[],
): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  // `in (…)` of parameters (a batch of a few hundred): PGlite, without statistics, plans a JSON set-returning function
  // as a hash join over every order of the seller — quadratic over an import.
  const o = outbound_orders;
  const rows = await ex
    .select({ n: o.platform_order_number })
    .from(o)
    .where(
      and(
        eq(o.customer_id, customerId),
        platformId ? eq(o.platform_id, platformId) : isNull(o.platform_id),
        inArray(o.platform_order_number, numbers),
      ),
    );
  return new Set(rows.map((r) => r.n!));
}

/** Lines as value arrays in the order of `insertLineTuples`' columns (an import's batches: no object per line). */
export type TLineTuple = [
  customer_id: string,
  order_id: string,
  line_no: number,
  product_id: string,
  quantity: number,
  unit_price: string | null,
  source_row: number | null,
];

export async function insertLineTuples(tx: Tx, lines: ReadonlyArray<TLineTuple>): Promise<void> {
  await insertJsonTuples(tx, outbound_order_lines, LINE_COLUMNS, lines);
}

/**
 * The buyers' pickup stores of new orders (carriers' order_cvs_stores), in the intake's transaction. Written here, not
 * through carriers' index: carriers imports outbound's, so outbound importing carriers' would be an import loop.
 */
export async function insertCvsStores(tx: Tx, stores: Array<typeof order_cvs_stores.$inferInsert>): Promise<void> {
  if (stores.length) await tx.insert(order_cvs_stores).values(stores);
}
