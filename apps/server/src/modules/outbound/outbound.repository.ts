import { ORDER_LIST_COUNT_CAP, type TOrder, type TOrderListQuery, type TOrderStatus } from '@wms/contracts';
import {
  and,
  asc,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import {
  allOf,
  type Executor,
  insertJsonRows,
  insertJsonTuples,
  preparedRows,
  queryRows,
  type Tx,
  uuidArray,
} from '../../db/client';
import {
  areas,
  collection_batches,
  customers,
  ecommerce_platforms,
  logistics_providers,
  order_import_forms,
  outbound_column_settings,
  outbound_order_lines,
  outbound_orders,
  outbound_pack_items,
  outbound_packaging_uses,
  outbound_serials,
  packaging_materials,
  pick_scans,
  pick_totes,
  product_components,
  products,
  release_channels,
  warehouses,
} from '../../db/schema';
import { AUDIT_COLUMNS, auditSelect } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import {
  countAll,
  countedPage,
  limitSql,
  orderingOf,
  pageWindow,
  searchWhere,
  type TPageOpts,
} from '../../platform/listing';
import type { TPurgeKind } from '../../platform/purge';
import { SHIPPED_STATUSES } from './outbound.workflow';

export type TOrderRow = typeof outbound_orders.$inferSelect;
export type TOrderInsert = typeof outbound_orders.$inferInsert;
export type TBatchRow = typeof collection_batches.$inferSelect;
export type TFormRow = typeof order_import_forms.$inferSelect;

/** The document type of an order in the stock engine's reservations and ledger. */
export const ORDER_DOCUMENT = 'outbound';

// ---- orders ----

// Qualified by hand: the subqueries must see the outer order row.
const lineCount = sql<number>`(select count(*)::int from outbound_order_lines ol where ol.order_id = "outbound_orders"."id")`;
const unitCount = sql<number>`(select coalesce(sum(ol.quantity), 0)::int from outbound_order_lines ol where ol.order_id = "outbound_orders"."id")`;

/** An order with the codes and names the API shows next to its ids. */
export const orderColumns = {
  order: outbound_orders,
  warehouse_code: warehouses.code,
  provider_code: logistics_providers.code,
  provider_name: logistics_providers.name,
  platform_code: ecommerce_platforms.code,
  platform_name: ecommerce_platforms.name,
  batch_number: collection_batches.number,
  line_count: lineCount,
  unit_count: unitCount,
};
export type TOrderView = {
  order: TOrderRow;
  warehouse_code: string | null;
  provider_code: string | null;
  provider_name: string | null;
  platform_code: string | null;
  platform_name: string | null;
  batch_number: string | null;
  line_count: number;
  unit_count: number;
};

function orderViews(ex: Executor) {
  return ex
    .select(orderColumns)
    .from(outbound_orders)
    .leftJoin(warehouses, eq(warehouses.id, outbound_orders.warehouse_id))
    .leftJoin(logistics_providers, eq(logistics_providers.id, outbound_orders.logistics_provider_id))
    .leftJoin(ecommerce_platforms, eq(ecommerce_platforms.id, outbound_orders.platform_id))
    .leftJoin(collection_batches, eq(collection_batches.id, outbound_orders.batch_id));
}

/** A Taipei calendar day as the UTC instant it starts at (Taiwan has no daylight saving time). */
function taipeiMidnight(day: string, plusDays = 0): Date {
  return new Date(Date.parse(`${day}T00:00:00+08:00`) + plusDays * 86400_000);
}

/** `?ids=a,b,c` as the well-formed ids it holds (undefined when not given). */
export function parseIds(ids: string | undefined): string[] | undefined {
  if (ids === undefined) return undefined;
  return ids
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s));
}

/** The WHERE of the order list and of the exports: the caller's tenant, then every filter of the list query. */
export function orderWhere(customerId: string, q: Partial<TOrderListQuery>): SQL {
  const o = outbound_orders;
  const conds: Array<SQL | undefined> = [eq(o.customer_id, customerId)];
  if (q.status) conds.push(eq(o.status, q.status));
  if (q.channel) conds.push(eq(o.channel, q.channel));
  if (q.platform_id) conds.push(eq(o.platform_id, q.platform_id));
  if (q.logistics_provider_id) conds.push(eq(o.logistics_provider_id, q.logistics_provider_id));
  if (q.warehouse_id) conds.push(eq(o.warehouse_id, q.warehouse_id));
  if (q.batch_id) conds.push(eq(o.batch_id, q.batch_id));
  if (q.abnormal !== undefined) conds.push(q.abnormal ? isNotNull(o.abnormal_code) : isNull(o.abnormal_code));
  if (q.in_batch !== undefined) conds.push(q.in_batch ? isNotNull(o.batch_id) : isNull(o.batch_id));
  if (q.has_consignment !== undefined)
    conds.push(q.has_consignment ? isNotNull(o.consignment_number) : isNull(o.consignment_number));
  if (q.due === 'today') {
    const today = taipeiToday();
    conds.push(gte(o.ship_by, taipeiMidnight(today)), lt(o.ship_by, taipeiMidnight(today, 1)));
  } else if (q.due === 'late')
    conds.push(lt(o.ship_by, sql`now()`), notInArray(o.status, [...SHIPPED_STATUSES, 'cancelled']));
  const ids = parseIds(q.ids);
  if (ids) conds.push(ids.length ? inArray(o.id, ids) : sql`false`);
  const field = q.date_field ?? 'created_at';
  if (field === 'shipping_date') {
    if (q.date_from) conds.push(gte(o.shipping_date, q.date_from));
    if (q.date_to) conds.push(sql`${o.shipping_date} <= ${q.date_to}`);
  } else {
    const col = field === 'closed_at' ? o.closed_at : o.created_at;
    if (q.date_from) conds.push(gte(col, taipeiMidnight(q.date_from)));
    if (q.date_to) conds.push(lt(col, taipeiMidnight(q.date_to, 1)));
  }
  conds.push(
    searchWhere(q.search, [
      o.number,
      o.platform_order_number,
      o.third_party_number,
      o.consignment_number,
      o.recipient_name,
      o.recipient_phone,
      o.recipient_mobile,
    ]),
  );
  return and(...conds)!;
}

/** The columns the order list and the exports sort by (`?ordering=`). */
export const ORDER_SORT = {
  number: outbound_orders.number,
  platform_order_number: outbound_orders.platform_order_number,
  consignment_number: outbound_orders.consignment_number,
  status: outbound_orders.status,
  shipping_date: outbound_orders.shipping_date,
  recipient_name: outbound_orders.recipient_name,
  created_at: outbound_orders.created_at,
  closed_at: outbound_orders.closed_at,
};

/** An order as the list shows it, read in SQL straight into the API's shape (text dates, ISO timestamps, counts). */
export type TOrderListRow = TOrder;

// Unqualified column names would be ambiguous next to the joined tables: every one is qualified by its table.
const LIST_SELECT = sql.raw(`select o.id, o.number, o.platform_order_number, o.third_party_number,
    o.consignment_number, o.shipping_date::text as shipping_date, o.category, o.channel, o.is_cross_border,
    o.recipient_name, o.recipient_phone, o.recipient_mobile, o.recipient_postcode, o.recipient_address,
    o.sender_name, o.sender_phone, o.sender_postcode, o.sender_address, o.shipping_remark,
    o.warehouse_id, w.code as warehouse_code, o.arrival_date::text as arrival_date, o.arrival_time_slot,
    o.logistics_provider_id, lp.code as logistics_provider_code, lp.name as logistics_provider_name,
    o.platform_id, pf.code as platform_code, pf.name as platform_name,
    o.cod, o.cod_amount::text as cod_amount, o.total_amount::text as total_amount, o.piece_count, o.volume, o.status,
    case when o.ship_by is null then null
         else to_char(o.ship_by at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end as ship_by,
    case when o.abnormal_code is null then null
         else json_build_object('code', o.abnormal_code, 'params', coalesce(o.abnormal_params, '{}'::jsonb)) end
      as abnormal,
    o.batch_id, cb.number as batch_number,
    coalesce(l.line_count, 0)::int as line_count, coalesce(l.unit_count, 0)::int as unit_count,
    ${['exported_at', 'online_at', 'closed_at', 'cancelled_at', 'created_at', 'updated_at']
      .map(
        (c) =>
          `case when o.${c} is null then null else to_char(o.${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end as ${c}`,
      )
      .join(', ')}`);

/**
 * One page of the order list (filters, search, ordering of the list query) and how many orders match, up to
 * ORDER_LIST_COUNT_CAP. The page is cut from the orders alone (the inner query walks an index of the tenant and stops
 * at offset + page size); names, codes and line counts are joined to those rows only. The count stops at the cap, so
 * neither costs more with a million orders than with ten thousand.
 */
export async function listOrderViews(
  ex: Executor,
  customerId: string,
  q: TOrderListQuery,
): Promise<{ rows: TOrderListRow[]; count: number; capped: boolean }> {
  const where = orderWhere(customerId, q);
  const order = sql.join(orderingOf(q.ordering, ORDER_SORT, '-created_at', outbound_orders.id), sql`, `);
  const window = pageWindow(q);
  const counted = sql`select count(*)::int as n from (select 1 from ${outbound_orders} where ${where}
    limit ${ORDER_LIST_COUNT_CAP + 1}) c`;
  const result = (n: number, rows: TOrderListRow[]) => ({
    rows,
    count: Math.min(n, ORDER_LIST_COUNT_CAP),
    capped: n > ORDER_LIST_COUNT_CAP,
  });
  // Past the cap the pager offers no page: only the count is read.
  if (window.offset >= ORDER_LIST_COUNT_CAP)
    return result(Number((await preparedRows<{ n: number }>(ex, counted))[0]?.n ?? 0), []);
  // Count and page in one prepared statement (one round trip, the plan kept).
  const { count, rows } = await countedPage<TOrderListRow>(
    ex,
    counted,
    sql`${LIST_SELECT}, page.n as page_key
        from unnest(array(select ${outbound_orders.id} from ${outbound_orders} where ${where} order by ${order}
                          limit ${limitSql(window.limit)} offset ${window.offset})) with ordinality as page(id, n)
          join ${outbound_orders} o on o.id = page.id
          left join ${warehouses} w on w.id = o.warehouse_id
          left join ${logistics_providers} lp on lp.id = o.logistics_provider_id
          left join ${ecommerce_platforms} pf on pf.id = o.platform_id
          left join ${collection_batches} cb on cb.id = o.batch_id
          left join lateral (select count(*) as line_count, sum(ol.quantity) as unit_count
                             from ${outbound_order_lines} ol where ol.order_id = o.id) l on true`,
  );
  return result(count, rows);
}

export async function findOrderViews(ex: Executor, customerId: string, ids: string[]): Promise<TOrderView[]> {
  if (ids.length === 0) return [];
  return orderViews(ex).where(and(eq(outbound_orders.customer_id, customerId), inArray(outbound_orders.id, ids)));
}

export async function findOrderView(ex: Executor, customerId: string, id: string): Promise<TOrderView | undefined> {
  const [row] = await findOrderViews(ex, customerId, [id]);
  return row;
}

/** An order by what a scanner or a user types: our number, the consignment number, or the platform's number. */
export async function findOrderIdByCode(ex: Executor, customerId: string, code: string): Promise<string | undefined> {
  const o = outbound_orders;
  const rows = await ex
    .select({ id: o.id, number: o.number, consignment: o.consignment_number })
    .from(o)
    .where(
      and(
        eq(o.customer_id, customerId),
        or(eq(o.number, code), eq(o.consignment_number, code), eq(o.platform_order_number, code)),
      ),
    )
    .limit(3);
  const exact = rows.find((r) => r.number === code) ?? rows.find((r) => r.consignment === code) ?? rows[0];
  return exact?.id;
}

/** An order by our number or the platform's order number (consignment files and forms name orders so). */
export async function findOrderByNumber(ex: Executor, customerId: string, code: string) {
  const o = outbound_orders;
  const [row] = await ex
    .select({ id: o.id, status: o.status })
    .from(o)
    .where(and(eq(o.customer_id, customerId), or(eq(o.number, code), eq(o.platform_order_number, code))))
    .limit(1);
  return row;
}

/** The seller's orders of these ids (rows; unknown ids left out): a read model for carriers. */
export async function findOrders(ex: Executor, customerId: string, ids: string[]): Promise<TOrderRow[]> {
  if (!ids.length) return [];
  return ex
    .select()
    .from(outbound_orders)
    .where(and(eq(outbound_orders.customer_id, customerId), inArray(outbound_orders.id, ids)));
}

/** The seller's order with this number, or (when given) this consignment number: whom a carrier's notice is about. */
export async function findOrderIdByNumberOrConsignment(
  ex: Executor,
  customerId: string,
  number: string,
  consignment: string,
): Promise<string | undefined> {
  const [row] = await ex
    .select({ id: outbound_orders.id })
    .from(outbound_orders)
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        or(
          eq(outbound_orders.number, number),
          consignment ? eq(outbound_orders.consignment_number, consignment) : undefined,
        ),
      ),
    )
    .limit(1);
  return row?.id;
}

/** Lock an order row for the rest of the transaction (status checks then see the latest status). */
export async function lockOrder(tx: Tx, customerId: string, id: string): Promise<TOrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(outbound_orders)
    .where(and(eq(outbound_orders.id, id), eq(outbound_orders.customer_id, customerId)))
    .for('update');
  return row;
}

/**
 * Lock an order (as `lockOrder`) and read it as a view in the same statement, with `extra` (e.g. the caller's grants,
 * `grantsToRead`) as one more column.
 */
export async function lockOrderView(
  tx: Tx,
  customerId: string,
  id: string,
  extra?: SQL,
): Promise<{ view: TOrderView; extra: string | null } | undefined> {
  const [row] = await tx
    .select({ ...orderColumns, extra: extra ? sql<string | null>`${extra}` : sql<null>`null` })
    .from(outbound_orders)
    .leftJoin(warehouses, eq(warehouses.id, outbound_orders.warehouse_id))
    .leftJoin(logistics_providers, eq(logistics_providers.id, outbound_orders.logistics_provider_id))
    .leftJoin(ecommerce_platforms, eq(ecommerce_platforms.id, outbound_orders.platform_id))
    .leftJoin(collection_batches, eq(collection_batches.id, outbound_orders.batch_id))
    .where(and(eq(outbound_orders.id, id), eq(outbound_orders.customer_id, customerId)))
    .for('update', { of: outbound_orders });
  if (!row) return undefined;
  const { extra: value, ...view } = row;
  return { view, extra: value };
}

/** The audit row of one unit scanned at the packing station: the product (a column of the statement, or given) and serial. */
function packScanAudit(actor: TActor, orderId: string, serial: string | null, productId: SQL): SQL {
  return auditSelect(
    actor,
    { action: 'pack_scan', entity: 'outbound_order', entityId: orderId },
    sql`jsonb_build_object('product_id', ${productId}, 'serial', ${serial}::text)`,
  );
}

/**
 * The packing scan's statement: the pack items of a (locked) order as `packItems` reads them and, in the same
 * statement, one more unit of the first item `barcode` names (product number or barcode, in the items' order) that is
 * not full, with the actor's `pack_scan` audit row (its product: the counted item's, from `u`) —
 * unless that item needs a serial: the caller records the serial first and counts with `addPackedUnitAudited`.
 * `items` are as they were before the count; `counted` is the product counted, or null.
 */
export async function packItemsCountingScan(
  tx: Tx,
  actor: TActor,
  customerId: string,
  orderId: string,
  barcode: string,
): Promise<{ items: TPackItemRow[]; counted: string | null }> {
  const audit = packScanAudit(actor, orderId, null, sql`u.product_id`);
  const rows = await preparedRows<TPackItemRow & { counted: string | null }>(
    tx,
    sql`with items as (
          select i.product_id, i.expected, i.packed, p.number as product_number, p.name as product_name, p.barcode,
            p.requires_serial
          from ${outbound_pack_items} i join ${products} p on p.id = i.product_id
          where i.customer_id = ${customerId} and i.order_id = ${orderId}),
        chosen as (
          select product_id, requires_serial from items
          where (product_number = ${barcode} or barcode = ${barcode}) and packed < expected
          order by product_number limit 1),
        u as (
          update ${outbound_pack_items} i set packed = i.packed + 1 from chosen c
          where i.customer_id = ${customerId} and i.order_id = ${orderId} and i.product_id = c.product_id
            and not c.requires_serial and i.packed < i.expected
          returning i.product_id),
        a as (insert into audit_logs (${AUDIT_COLUMNS}) ${audit} from u)
        select items.*, (select product_id from u) as counted from items order by product_number`,
  );
  return {
    items: rows.map(({ counted: _c, ...item }) => item),
    counted: rows[0]?.counted ?? null,
  };
}

export type TPackItemRow = Awaited<ReturnType<typeof packItems>>[number];

/**
 * One more unit of a product packed (only while fewer than expected are) and its audit row written, in one statement
 * (`audit(when)`: the audit insert's select, kept to `when` the unit was counted); false (and no audit row) when the
 * item was full.
 */
export async function addPackedUnitAudited(
  tx: Tx,
  actor: TActor,
  customerId: string,
  orderId: string,
  productId: string,
  serial: string | null,
): Promise<boolean> {
  const audit = (when: SQL) => sql`${packScanAudit(actor, orderId, serial, sql`${productId}::uuid`)} where ${when}`;
  const i = outbound_pack_items;
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`with u as (update ${i} set packed = ${i.packed} + 1
                   where ${i.customer_id} = ${customerId} and ${i.order_id} = ${orderId}
                     and ${i.product_id} = ${productId} and ${i.packed} < ${i.expected}
                   returning 1),
        a as (insert into audit_logs (${AUDIT_COLUMNS}) ${audit(sql`exists (select 1 from u)`)})
        select count(*)::int as n from u`,
  );
  return Number(rows[0]?.n ?? 0) === 1;
}

/** Lock many orders of a seller in id order (two callers locking overlapping sets never wait on each other in a cycle). */
export async function lockOrders(tx: Tx, customerId: string, ids: string[]): Promise<TOrderRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(outbound_orders)
    .where(and(eq(outbound_orders.customer_id, customerId), sql`${outbound_orders.id} = any(${uuidArray(ids)})`))
    .orderBy(asc(outbound_orders.id))
    .for('update');
}

/** Move many (locked) orders to one status in one statement, only from the allowed ones; returns the ids moved. */
export async function changeStatuses(
  tx: Tx,
  customerId: string,
  ids: string[],
  from: readonly TOrderStatus[],
  set: Partial<TOrderInsert> & { status: TOrderStatus },
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .update(outbound_orders)
    .set(set)
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        sql`${outbound_orders.id} = any(${uuidArray(ids)})`,
        inArray(outbound_orders.status, [...from]),
      ),
    )
    .returning({ id: outbound_orders.id });
  return rows.map((r) => r.id);
}

/** Write the abnormal mark (code and params) of many orders in one statement. */
export async function markAbnormal(
  tx: Tx,
  customerId: string,
  marks: Array<{ id: string; code: string; params: Record<string, unknown> }>,
): Promise<void> {
  if (marks.length === 0) return;
  await tx.execute(
    sql`update outbound_orders o set abnormal_code = v.code, abnormal_params = v.params, updated_at = now()
        from jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) as v(id uuid, code text, params jsonb)
        where o.id = v.id and o.customer_id = ${customerId}`,
  );
}

export async function insertOrders(tx: Tx, values: TOrderInsert[]): Promise<TOrderRow[]> {
  if (values.length === 0) return [];
  return tx.insert(outbound_orders).values(values).returning();
}

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

/** The numbers of the seller's orders of these ids: id → number (a read model for Shopee's order list). */
export async function orderNumbersOf(ex: Executor, customerId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await ex
    .select({ id: outbound_orders.id, number: outbound_orders.number })
    .from(outbound_orders)
    .where(and(eq(outbound_orders.customer_id, customerId), inArray(outbound_orders.id, ids)));
  return new Map(rows.map((r) => [r.id, r.number]));
}

/** The seller's orders of one platform by platform order number: number → order id (a read model for Shopee). */
export async function orderIdsByPlatformNumber(
  ex: Executor,
  customerId: string,
  platformId: string,
  numbers: string[],
): Promise<Map<string, string>> {
  if (numbers.length === 0) return new Map();
  const rows = await ex
    .select({ id: outbound_orders.id, sn: outbound_orders.platform_order_number })
    .from(outbound_orders)
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        eq(outbound_orders.platform_id, platformId),
        inArray(outbound_orders.platform_order_number, numbers),
      ),
    );
  return new Map(rows.map((r) => [r.sn!, r.id]));
}

export async function updateOrder(tx: Tx, customerId: string, id: string, patch: Partial<TOrderInsert>) {
  await tx
    .update(outbound_orders)
    .set(patch)
    .where(and(eq(outbound_orders.id, id), eq(outbound_orders.customer_id, customerId)));
}

/** Take the consignment numbers off these orders (before setting new ones: two orders may swap numbers). */
export async function clearConsignments(tx: Tx, customerId: string, ids: string[]): Promise<void> {
  await tx
    .update(outbound_orders)
    .set({ consignment_number: null })
    .where(and(eq(outbound_orders.customer_id, customerId), inArray(outbound_orders.id, ids)));
}

/**
 * The status change of the workflow as one conditional statement: only from the allowed statuses. Zero rows
 * (someone else changed the order first) is the caller's 409.
 */
export async function changeStatus(
  tx: Tx,
  customerId: string,
  id: string,
  from: readonly TOrderStatus[],
  set: Partial<TOrderInsert> & { status: TOrderStatus },
): Promise<TOrderRow | undefined> {
  const [row] = await tx
    .update(outbound_orders)
    .set(set)
    .where(
      and(
        eq(outbound_orders.id, id),
        eq(outbound_orders.customer_id, customerId),
        inArray(outbound_orders.status, [...from]),
      ),
    )
    .returning();
  return row;
}

// ---- lines ----

const LINE_COLUMNS = [
  'customer_id',
  'order_id',
  'line_no',
  'product_id',
  'quantity',
  'unit_price',
  'source_row',
] as const;

/** Insert order lines in one statement (the rows as one JSON parameter: an import writes thousands at a time). */
export async function insertLines(
  tx: Tx,
  values: Array<
    Pick<typeof outbound_order_lines.$inferInsert, 'customer_id' | 'order_id' | 'line_no' | 'product_id' | 'quantity'> &
      Partial<Pick<typeof outbound_order_lines.$inferInsert, 'unit_price' | 'source_row'>>
  >,
): Promise<void> {
  await insertJsonRows(tx, outbound_order_lines, LINE_COLUMNS, values);
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

export async function deleteLines(tx: Tx, customerId: string, orderId: string): Promise<void> {
  await tx
    .delete(outbound_order_lines)
    .where(and(eq(outbound_order_lines.order_id, orderId), eq(outbound_order_lines.customer_id, customerId)));
}

export async function orderLines(ex: Executor, customerId: string, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  const l = outbound_order_lines;
  return ex
    .select({
      id: l.id,
      order_id: l.order_id,
      line_no: l.line_no,
      product_id: l.product_id,
      quantity: l.quantity,
      unit_price: l.unit_price,
      source_row: l.source_row,
      product_number: products.number,
      product_name: products.name,
      product_type: products.type,
      barcode: products.barcode,
    })
    .from(l)
    .innerJoin(products, eq(products.id, l.product_id))
    .where(and(eq(l.customer_id, customerId), sql`${l.order_id} = any(${uuidArray(orderIds)})`))
    .orderBy(asc(l.order_id), asc(l.line_no));
}

/** What allocation needs of many orders' lines (no product join): a bulk export reads a chunk's lines with it. */
export async function demandLines(ex: Executor, customerId: string, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  const l = outbound_order_lines;
  return ex
    .select({ id: l.id, order_id: l.order_id, product_id: l.product_id, quantity: l.quantity })
    .from(l)
    .where(and(eq(l.customer_id, customerId), sql`${l.order_id} = any(${uuidArray(orderIds)})`))
    .orderBy(asc(l.order_id), asc(l.line_no));
}

// ---- what the stock engine holds for orders (read only) ----

export interface TAllocationRow {
  order_id: string;
  balance_id: string;
  product_id: string;
  product_number: string;
  product_name: string;
  barcode: string | null;
  location_id: string;
  location_code: string;
  pick_sequence: number;
  expiry_date: string | null;
  quantity: number;
}

/** The stock reserved for these orders, per pile, in walking order (pick sequence, then location code). */
export async function orderAllocations(
  ex: Executor,
  customerId: string,
  orderIds: string[],
): Promise<TAllocationRow[]> {
  if (orderIds.length === 0) return [];
  const rows = await queryRows<TAllocationRow>(
    ex,
    sql`select r.document_id as order_id, r.balance_id, b.product_id, p.number as product_number,
          p.name as product_name, p.barcode, b.location_id, l.code as location_code, l.pick_sequence,
          b.expiry_date::text as expiry_date, r.quantity
        from stock_reservations r
          join stock_balances b on b.id = r.balance_id
          join storage_locations l on l.id = b.location_id
          join products p on p.id = b.product_id
        where r.customer_id = ${customerId} and r.document_type = ${ORDER_DOCUMENT}
          and r.document_id in ${orderIds} and r.quantity > 0
        order by l.pick_sequence, l.code, p.number, b.expiry_date nulls first`,
  );
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity), pick_sequence: Number(r.pick_sequence) }));
}

/**
 * What was taken out for these orders (their outbound ledger rows, net of cancellations), per pile, in walking
 * order: the allocations of orders that shipped and hold no reservation any more (a closed batch's reprint).
 * Looked up by document number (the ledger's index), then checked against the order ids.
 */
export async function shippedAllocations(
  ex: Executor,
  customerId: string,
  orders: ReadonlyArray<{ id: string; number: string }>,
): Promise<TAllocationRow[]> {
  if (orders.length === 0) return [];
  const rows = await queryRows<TAllocationRow>(
    ex,
    sql`select m.document_id as order_id, m.balance_id, m.product_id, p.number as product_number,
          p.name as product_name, p.barcode, m.location_id, l.code as location_code, l.pick_sequence,
          m.expiry_date::text as expiry_date, (-sum(m.quantity))::int as quantity
        from stock_movements m
          join storage_locations l on l.id = m.location_id
          join products p on p.id = m.product_id
        where m.customer_id = ${customerId} and m.document_type = ${ORDER_DOCUMENT}
          and m.document_number in ${orders.map((o) => o.number)}
          and m.document_id in ${orders.map((o) => o.id)}
          and m.reason in ('outbound', 'outbound_cancel')
        group by m.document_id, m.balance_id, m.product_id, p.number, p.name, p.barcode, m.location_id, l.code,
          l.pick_sequence, m.expiry_date
        having -sum(m.quantity) > 0
        order by l.pick_sequence, l.code, p.number, m.expiry_date nulls first`,
  );
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity), pick_sequence: Number(r.pick_sequence) }));
}

/** What shipped with an order (its outbound ledger rows), per product and lot: returns put this back. */
export async function shippedQuantities(ex: Executor, customerId: string, orderId: string) {
  const rows = await queryRows<{ product_id: string; expiry_date: string | null; quantity: number }>(
    ex,
    sql`select m.product_id, m.expiry_date::text as expiry_date, (-sum(m.quantity))::int as quantity
        from stock_movements m
        where m.customer_id = ${customerId} and m.document_type = ${ORDER_DOCUMENT} and m.document_id = ${orderId}
          and m.reason = 'outbound'
        group by m.product_id, m.expiry_date
        order by m.product_id, m.expiry_date nulls first`,
  );
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity) }));
}

// ---- packing ----

export async function insertPackItems(
  tx: Tx,
  customerId: string,
  orderId: string,
  items: Array<{ productId: string; expected: number }>,
): Promise<void> {
  if (items.length === 0) return;
  await tx
    .insert(outbound_pack_items)
    .values(
      items.map((i) => ({ customer_id: customerId, order_id: orderId, product_id: i.productId, expected: i.expected })),
    )
    .onConflictDoNothing();
}

export async function packItems(ex: Executor, customerId: string, orderId: string) {
  const i = outbound_pack_items;
  return ex
    .select({
      product_id: i.product_id,
      expected: i.expected,
      packed: i.packed,
      product_number: products.number,
      product_name: products.name,
      barcode: products.barcode,
      requires_serial: products.requires_serial,
    })
    .from(i)
    .innerJoin(products, eq(products.id, i.product_id))
    .where(and(eq(i.customer_id, customerId), eq(i.order_id, orderId)))
    .orderBy(asc(products.number));
}

export async function resetPack(tx: Tx, customerId: string, orderId: string): Promise<void> {
  await tx
    .update(outbound_pack_items)
    .set({ packed: 0 })
    .where(and(eq(outbound_pack_items.customer_id, customerId), eq(outbound_pack_items.order_id, orderId)));
  await tx
    .delete(outbound_serials)
    .where(and(eq(outbound_serials.customer_id, customerId), eq(outbound_serials.order_id, orderId)));
}

export async function deletePackItems(tx: Tx, customerId: string, orderId: string): Promise<void> {
  await tx
    .delete(outbound_pack_items)
    .where(and(eq(outbound_pack_items.customer_id, customerId), eq(outbound_pack_items.order_id, orderId)));
}

// ---- serials (IMEI) ----

export async function insertSerial(tx: Tx, values: typeof outbound_serials.$inferInsert): Promise<void> {
  await tx.insert(outbound_serials).values(values);
}

/** The active (not returned) use of a serial, with its order number. */
export async function findActiveSerial(ex: Executor, customerId: string, serial: string) {
  const [row] = await ex
    .select({ order_id: outbound_serials.order_id, order_number: outbound_orders.number })
    .from(outbound_serials)
    .innerJoin(outbound_orders, eq(outbound_orders.id, outbound_serials.order_id))
    .where(
      and(
        eq(outbound_serials.customer_id, customerId),
        eq(outbound_serials.serial, serial),
        isNull(outbound_serials.returned_at),
      ),
    );
  return row;
}

export const serialColumns = {
  id: outbound_serials.id,
  serial: outbound_serials.serial,
  order_id: outbound_serials.order_id,
  order_number: outbound_orders.number,
  platform_order_number: outbound_orders.platform_order_number,
  consignment_number: outbound_orders.consignment_number,
  order_status: outbound_orders.status,
  closed_at: outbound_orders.closed_at,
  product_id: outbound_serials.product_id,
  product_number: products.number,
  product_name: products.name,
  returned_at: outbound_serials.returned_at,
  created_at: outbound_serials.created_at,
};

export interface TSerialListQuery {
  page: number;
  page_size: number;
  search?: string;
  ordering?: string;
  serial?: string;
  order_id?: string;
  product_id?: string;
}

/** One page of the IMEI list (/deliver-imei) and how many serials match. */
export async function listSerials(ex: Executor, customerId: string, q: TSerialListQuery) {
  const s = outbound_serials;
  const o = outbound_orders;
  const where = and(
    eq(s.customer_id, customerId),
    q.serial ? eq(s.serial, q.serial) : undefined,
    q.order_id ? eq(s.order_id, q.order_id) : undefined,
    q.product_id ? eq(s.product_id, q.product_id) : undefined,
    searchWhere(q.search, [s.serial, o.number, o.platform_order_number, o.consignment_number, products.number]),
  );
  const order = orderingOf(
    q.ordering,
    { serial: s.serial, created_at: s.created_at, order_number: o.number },
    '-created_at',
    s.id,
  );
  const window = pageWindow(q);
  const base = () =>
    ex
      .select(serialColumns)
      .from(outbound_serials)
      .innerJoin(outbound_orders, eq(outbound_orders.id, outbound_serials.order_id))
      .innerJoin(products, eq(products.id, outbound_serials.product_id));
  const [rows, [total]] = await allOf(ex, [
    () =>
      base()
        .where(where)
        .orderBy(...order)
        .limit(window.limit)
        .offset(window.offset),
    () =>
      ex
        .select({ n: countAll })
        .from(outbound_serials)
        .innerJoin(outbound_orders, eq(outbound_orders.id, outbound_serials.order_id))
        .innerJoin(products, eq(products.id, outbound_serials.product_id))
        .where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function orderSerials(ex: Executor, customerId: string, orderId: string) {
  return ex
    .select(serialColumns)
    .from(outbound_serials)
    .innerJoin(outbound_orders, eq(outbound_orders.id, outbound_serials.order_id))
    .innerJoin(products, eq(products.id, outbound_serials.product_id))
    .where(and(eq(outbound_serials.customer_id, customerId), eq(outbound_serials.order_id, orderId)))
    .orderBy(asc(outbound_serials.created_at), asc(outbound_serials.serial));
}

/** Mark (or unmark) the serials of an order as returned: a returned device may ship again. */
export async function setSerialsReturned(tx: Tx, customerId: string, orderId: string, returned: boolean) {
  await tx
    .update(outbound_serials)
    .set({ returned_at: returned ? new Date() : null })
    .where(and(eq(outbound_serials.customer_id, customerId), eq(outbound_serials.order_id, orderId)));
}

// ---- packaging ----

/** Take packaging material out of stock by one conditional statement; false when there is not enough. */
export async function takePackaging(tx: Tx, customerId: string, id: string, quantity: number): Promise<boolean> {
  const rows = await tx
    .update(packaging_materials)
    .set({ quantity: sql`${packaging_materials.quantity} - ${quantity}` })
    .where(
      and(
        eq(packaging_materials.id, id),
        eq(packaging_materials.customer_id, customerId),
        sql`${packaging_materials.quantity} >= ${quantity}`,
      ),
    )
    .returning({ id: packaging_materials.id });
  return rows.length === 1;
}

export async function packagingExists(ex: Executor, customerId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ex
    .select({ id: packaging_materials.id })
    .from(packaging_materials)
    .where(and(eq(packaging_materials.customer_id, customerId), inArray(packaging_materials.id, ids)));
  return new Set(rows.map((r) => r.id));
}

export async function insertPackagingUses(tx: Tx, values: Array<typeof outbound_packaging_uses.$inferInsert>) {
  if (values.length) await tx.insert(outbound_packaging_uses).values(values);
}

export async function orderPackaging(ex: Executor, customerId: string, orderId: string) {
  return ex
    .select({
      packaging_material_id: outbound_packaging_uses.packaging_material_id,
      code: packaging_materials.code,
      name: packaging_materials.name,
      quantity: outbound_packaging_uses.quantity,
    })
    .from(outbound_packaging_uses)
    .innerJoin(packaging_materials, eq(packaging_materials.id, outbound_packaging_uses.packaging_material_id))
    .where(and(eq(outbound_packaging_uses.customer_id, customerId), eq(outbound_packaging_uses.order_id, orderId)));
}

// ---- look-ups of other modules' rows (products, platforms, carriers, warehouses) ----

export interface TProductInfo {
  id: string;
  number: string;
  name: string;
  barcode: string | null;
  type: string;
  status: string;
  allow_shipping: boolean;
  volume_required: boolean;
  requires_serial: boolean;
  default_logistics_provider_id: string | null;
  shelf_life_months: number | null;
  sellable_rule_months: number | null;
  component_count: number;
}

const productInfoColumns = {
  id: products.id,
  number: products.number,
  name: products.name,
  barcode: products.barcode,
  type: products.type,
  status: products.status,
  allow_shipping: products.allow_shipping,
  volume_required: products.volume_required,
  requires_serial: products.requires_serial,
  default_logistics_provider_id: products.default_logistics_provider_id,
  shelf_life_months: products.shelf_life_months,
  sellable_rule_months: products.sellable_rule_months,
  component_count: sql<number>`(select count(*)::int from product_components pc where pc.product_id = "products"."id")`,
};

export async function productsByIds(ex: Executor, customerId: string, ids: string[]): Promise<TProductInfo[]> {
  if (ids.length === 0) return [];
  return ex
    .select(productInfoColumns)
    .from(products)
    .where(and(eq(products.customer_id, customerId), sql`${products.id} = any(${uuidArray(new Set(ids))})`));
}

/** Every product of a seller (imports resolve product numbers and barcodes against it). */
export async function allProducts(ex: Executor, customerId: string): Promise<TProductInfo[]> {
  return ex.select(productInfoColumns).from(products).where(eq(products.customer_id, customerId));
}

/**
 * The seller's products whose number or barcode has one of these lookup keys (`codeKey`: NFKC, no spaces, lower
 * case) — for a few rows (one API order) instead of loading every product.
 */
export async function productsByCodeKeys(ex: Executor, customerId: string, keys: string[]): Promise<TProductInfo[]> {
  if (keys.length === 0) return [];
  const key = (c: typeof products.number | typeof products.barcode) =>
    sql`lower(regexp_replace(normalize(${c}, NFKC), '\s+', '', 'g'))`;
  return ex
    .select(productInfoColumns)
    .from(products)
    .where(
      and(
        eq(products.customer_id, customerId),
        or(inArray(key(products.number), keys), inArray(key(products.barcode), keys)),
      ),
    );
}

/** Single products a scan may mean: by product number or barcode. */
export async function productsByCode(ex: Executor, customerId: string, code: string) {
  return ex
    .select({ id: products.id, number: products.number })
    .from(products)
    .where(and(eq(products.customer_id, customerId), or(eq(products.number, code), eq(products.barcode, code))));
}

export async function componentsOf(ex: Executor, customerId: string, kitIds: string[]) {
  if (kitIds.length === 0) return [];
  return ex
    .select({
      kit_id: product_components.product_id,
      component_id: product_components.component_id,
      quantity: product_components.quantity,
    })
    .from(product_components)
    .where(and(eq(product_components.customer_id, customerId), inArray(product_components.product_id, kitIds)));
}

export async function platformsOf(ex: Executor, customerId: string) {
  return ex
    .select({ id: ecommerce_platforms.id, code: ecommerce_platforms.code, name: ecommerce_platforms.name })
    .from(ecommerce_platforms)
    .where(eq(ecommerce_platforms.customer_id, customerId));
}

export async function providersOf(ex: Executor, customerId: string) {
  return ex
    .select({
      id: logistics_providers.id,
      code: logistics_providers.code,
      name: logistics_providers.name,
      is_active: logistics_providers.is_active,
      temperature_code: logistics_providers.temperature_code,
      specification_code: logistics_providers.specification_code,
      contract_type: logistics_providers.contract_type,
    })
    .from(logistics_providers)
    .where(eq(logistics_providers.customer_id, customerId));
}

export async function warehousesOf(ex: Executor, customerId: string) {
  return ex
    .select({ id: warehouses.id, code: warehouses.code, address: warehouses.address })
    .from(warehouses)
    .where(eq(warehouses.customer_id, customerId))
    .orderBy(asc(warehouses.code));
}

export async function companyOf(ex: Executor, customerId: string) {
  const [row] = await ex
    .select({ name: customers.name, phone: customers.phone, address: customers.invoice_address })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row;
}

// ---- collection batches ----

export async function insertBatch(tx: Tx, values: typeof collection_batches.$inferInsert): Promise<TBatchRow> {
  const [row] = await tx.insert(collection_batches).values(values).returning();
  return row!;
}

/** Put unbatched orders in one of `statuses` into a batch by one conditional statement; returns the ids that moved. */
export async function assignBatch(
  tx: Tx,
  customerId: string,
  batchId: string,
  orderIds: string[],
  statuses: readonly TOrderStatus[],
): Promise<string[]> {
  const rows = await tx
    .update(outbound_orders)
    .set({ batch_id: batchId })
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        inArray(outbound_orders.id, orderIds),
        inArray(outbound_orders.status, [...statuses]),
        isNull(outbound_orders.batch_id),
      ),
    )
    .returning({ id: outbound_orders.id });
  return rows.map((r) => r.id);
}

/** Take orders in one of `statuses` out of a batch by one conditional statement; returns the ids that left. */
export async function unassignBatch(
  tx: Tx,
  customerId: string,
  batchId: string,
  orderIds: string[],
  statuses: readonly TOrderStatus[],
) {
  const rows = await tx
    .update(outbound_orders)
    .set({ batch_id: null })
    .where(
      and(
        eq(outbound_orders.customer_id, customerId),
        eq(outbound_orders.batch_id, batchId),
        inArray(outbound_orders.id, orderIds),
        inArray(outbound_orders.status, [...statuses]),
      ),
    )
    .returning({ id: outbound_orders.id });
  return rows.map((r) => r.id);
}

const batchCounts = {
  order_count: sql<number>`(select count(*)::int from outbound_orders o where o.batch_id = "collection_batches"."id")`,
  exported_count: sql<number>`(select count(*)::int from outbound_orders o where o.batch_id = "collection_batches"."id" and o.status = 'exported')`,
  online_count: sql<number>`(select count(*)::int from outbound_orders o where o.batch_id = "collection_batches"."id" and o.status = 'online')`,
  closed_count: sql<number>`(select count(*)::int from outbound_orders o where o.batch_id = "collection_batches"."id" and o.status in ${SHIPPED_STATUSES})`,
  unit_count: sql<number>`(select coalesce(sum(l.quantity), 0)::int from outbound_order_lines l join outbound_orders o on o.id = l.order_id where o.batch_id = "collection_batches"."id")`,
};

export type TBatchView = {
  batch: TBatchRow;
  warehouse_code: string | null;
  order_count: number;
  exported_count: number;
  online_count: number;
  closed_count: number;
  unit_count: number;
};

function batchViews(ex: Executor) {
  return ex
    .select({ batch: collection_batches, warehouse_code: warehouses.code, ...batchCounts })
    .from(collection_batches)
    .leftJoin(warehouses, eq(warehouses.id, collection_batches.warehouse_id));
}

/** One page of a seller's collection batches (search on number and remark) and how many match. */
export async function listBatchViews(
  ex: Executor,
  customerId: string,
  q: { page: number; page_size: number; search?: string; ordering?: string },
): Promise<{ rows: TBatchView[]; count: number }> {
  const b = collection_batches;
  const where = and(eq(b.customer_id, customerId), searchWhere(q.search, [b.number, b.remark]));
  const order = orderingOf(q.ordering, { number: b.number, created_at: b.created_at }, '-created_at', b.id);
  const window = pageWindow(q);
  const [rows, [total]] = await allOf(ex, [
    () =>
      batchViews(ex)
        .where(where)
        .orderBy(...order)
        .limit(window.limit)
        .offset(window.offset),
    () => ex.select({ n: countAll }).from(collection_batches).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findBatchView(ex: Executor, customerId: string, id: string): Promise<TBatchView | undefined> {
  const [row] = await batchViews(ex).where(
    and(eq(collection_batches.id, id), eq(collection_batches.customer_id, customerId)),
  );
  return row;
}

export async function lockBatch(tx: Tx, customerId: string, id: string): Promise<TBatchRow | undefined> {
  const [row] = await tx
    .select()
    .from(collection_batches)
    .where(and(eq(collection_batches.id, id), eq(collection_batches.customer_id, customerId)))
    .for('update');
  return row;
}

export async function batchOrderIds(ex: Executor, customerId: string, batchId: string): Promise<string[]> {
  const rows = await ex
    .select({ id: outbound_orders.id })
    .from(outbound_orders)
    .where(and(eq(outbound_orders.customer_id, customerId), eq(outbound_orders.batch_id, batchId)))
    .orderBy(asc(outbound_orders.number));
  return rows.map((r) => r.id);
}

export async function markBatchPicking(tx: Tx, customerId: string, id: string): Promise<void> {
  await tx
    .update(collection_batches)
    .set({ picking_started_at: sql`coalesce(${collection_batches.picking_started_at}, now())` })
    .where(and(eq(collection_batches.id, id), eq(collection_batches.customer_id, customerId)));
}

// ---- import forms and column settings ----

export async function listForms(ex: Executor, customerId: string) {
  return ex
    .select({
      form: order_import_forms,
      platform_code: ecommerce_platforms.code,
      platform_name: ecommerce_platforms.name,
    })
    .from(order_import_forms)
    .leftJoin(ecommerce_platforms, eq(ecommerce_platforms.id, order_import_forms.platform_id))
    .where(eq(order_import_forms.customer_id, customerId))
    .orderBy(asc(order_import_forms.name), asc(order_import_forms.id));
}

export async function findForm(ex: Executor, customerId: string, id: string) {
  const [row] = await ex
    .select({
      form: order_import_forms,
      platform_code: ecommerce_platforms.code,
      platform_name: ecommerce_platforms.name,
    })
    .from(order_import_forms)
    .leftJoin(ecommerce_platforms, eq(ecommerce_platforms.id, order_import_forms.platform_id))
    .where(and(eq(order_import_forms.id, id), eq(order_import_forms.customer_id, customerId)));
  return row;
}

/** The saved layout of a channel (platform, or null for files without one). */
export async function findFormForPlatform(ex: Executor, customerId: string, platformId: string | null) {
  const [row] = await ex
    .select()
    .from(order_import_forms)
    .where(
      and(
        eq(order_import_forms.customer_id, customerId),
        platformId ? eq(order_import_forms.platform_id, platformId) : isNull(order_import_forms.platform_id),
      ),
    );
  return row;
}

export async function insertForm(tx: Tx, values: typeof order_import_forms.$inferInsert): Promise<TFormRow> {
  const [row] = await tx.insert(order_import_forms).values(values).returning();
  return row!;
}

export async function updateForm(
  tx: Tx,
  customerId: string,
  id: string,
  patch: Partial<typeof order_import_forms.$inferInsert>,
) {
  await tx
    .update(order_import_forms)
    .set(patch)
    .where(and(eq(order_import_forms.id, id), eq(order_import_forms.customer_id, customerId)));
}

export async function deleteForm(tx: Tx, customerId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(order_import_forms)
    .where(and(eq(order_import_forms.id, id), eq(order_import_forms.customer_id, customerId)))
    .returning({ id: order_import_forms.id });
  return rows.length === 1;
}

export async function columnSettings(ex: Executor, customerId: string) {
  return ex
    .select({ screen: outbound_column_settings.screen, columns: outbound_column_settings.columns })
    .from(outbound_column_settings)
    .where(eq(outbound_column_settings.customer_id, customerId));
}

export async function saveColumnSettings(tx: Tx, customerId: string, screen: string, columns: string[]) {
  await tx
    .insert(outbound_column_settings)
    .values({ customer_id: customerId, screen, columns })
    .onConflictDoUpdate({
      target: [outbound_column_settings.customer_id, outbound_column_settings.screen],
      set: { columns, updated_at: new Date() },
    });
}

// ---- numbers ----

// ---- counts (/deliver-cnt) ----

export interface TCountRange {
  date_field: 'created_at' | 'shipping_date' | 'closed_at';
  date_from?: string;
  date_to?: string;
}

/** Orders of a date range on the chosen date (Taipei days), a shipping or closing date required when filtering on it. */
function rangeSql(q: TCountRange): SQL {
  const parts: SQL[] = [sql`true`];
  if (q.date_field === 'shipping_date') {
    if (q.date_from) parts.push(sql`o.shipping_date >= ${q.date_from}`);
    if (q.date_to) parts.push(sql`o.shipping_date <= ${q.date_to}`);
    if (q.date_from || q.date_to) parts.push(sql`o.shipping_date is not null`);
  } else {
    const col = sql.raw(`o.${q.date_field === 'closed_at' ? 'closed_at' : 'created_at'}`);
    if (q.date_from) parts.push(sql`${col} >= ${taipeiMidnight(q.date_from)}`);
    if (q.date_to) parts.push(sql`${col} < ${taipeiMidnight(q.date_to, 1)}`);
    if (q.date_field === 'closed_at') parts.push(sql`o.closed_at is not null`);
  }
  return sql.join(parts, sql` and `);
}

async function countBy(ex: Executor, where: SQL, key: SQL): Promise<Array<{ key: string | null; count: number }>> {
  const rows = await queryRows<{ key: string | null; count: number }>(
    ex,
    sql`select ${key} as key, count(*)::int as count from outbound_orders o
        left join ecommerce_platforms pf on pf.id = o.platform_id
        left join logistics_providers lp on lp.id = o.logistics_provider_id
        where ${where} group by 1 order by 1 nulls last`,
  );
  return rows.map((r) => ({ key: r.key, count: Number(r.count) }));
}

/** A seller's orders of a date range counted by status, by Taipei day, by channel (platform code) and by carrier code. */
export async function orderCounts(ex: Executor, customerId: string, q: TCountRange) {
  const where = sql`o.customer_id = ${customerId} and ${rangeSql(q)}`;
  const day =
    q.date_field === 'shipping_date'
      ? sql`o.shipping_date::text`
      : sql`to_char(o.${sql.raw(q.date_field)} + interval '8 hours', 'YYYY-MM-DD')`;
  const [byStatus, byDate, byChannel, byCarrier] = await allOf(ex, [
    () => countBy(ex, where, sql`o.status`),
    () => countBy(ex, where, day),
    () => countBy(ex, where, sql`coalesce(pf.code, o.channel)`),
    () => countBy(ex, where, sql`lp.code`),
  ]);
  return { byStatus, byDate, byChannel, byCarrier };
}

/** Orders holding any of these consignment numbers (imports and consignment inputs check their numbers against them). */
export async function ordersByConsignment(ex: Executor, customerId: string, numbers: string[]) {
  const rows: Array<{
    id: string;
    consignment_number: string;
    platform_id: string | null;
    platform_order_number: string | null;
  }> = [];
  for (let i = 0; i < numbers.length; i += 1000) {
    const found = await ex
      .select({
        id: outbound_orders.id,
        consignment_number: outbound_orders.consignment_number,
        platform_id: outbound_orders.platform_id,
        platform_order_number: outbound_orders.platform_order_number,
      })
      .from(outbound_orders)
      .where(
        and(
          eq(outbound_orders.customer_id, customerId),
          inArray(outbound_orders.consignment_number, numbers.slice(i, i + 1000)),
        ),
      );
    rows.push(...(found as typeof rows));
  }
  return rows;
}

/** One page of orders without counting them all (exports walk pages). */
export async function pageOrderViews(
  ex: Executor,
  where: SQL | undefined,
  order: SQL[],
  window: { limit: number; offset: number },
): Promise<TOrderView[]> {
  return orderViews(ex)
    .where(where)
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset);
}

/**
 * Retention (/database-clean): the seller's finished orders (closed, returned or cancelled) before the cut-off. An
 * order still holding stock (a reservation above zero) is never purged: its balance's `reserved` needs it. `purge`
 * deletes the orders (their lines, pack items, serials, packaging uses and carrier labels cascade); the rows of other
 * modules that point at them are handled by those modules first (retention.kinds.ts).
 */
export const outboundOrdersPurge: TPurgeKind = {
  table: 'outbound_orders',
  where: (c, cutoff) => sql`t.customer_id = ${c} and t.status in ('closed', 'closed_returned', 'cancelled')
      and coalesce(t.closed_at, t.cancelled_at, t.updated_at) < ${cutoff}
      and not exists (select 1 from stock_reservations r where r.document_id = t.id and r.quantity > 0)`,
  exportSelect: sql`t.number as ref, t.status as status, coalesce(t.closed_at, t.cancelled_at, t.updated_at) as at,
      t.recipient_name as detail`,
  async purge(tx, c, ids) {
    const gone = await tx
      .delete(outbound_orders)
      .where(and(eq(outbound_orders.customer_id, c), inArray(outbound_orders.id, ids)))
      .returning({ id: outbound_orders.id });
    return gone.length;
  },
};

// ---- release by wave ----

export interface TWaveCandidate {
  id: string;
  number: string;
  units: number;
}

/** Which orders a wave may take: a warehouse, and optionally carriers, a convenience-store chain, a zone, a ship-by. */
export interface TWaveScope {
  warehouseId: string;
  /** One carrier (an ad-hoc wave) or several (a channel); null or empty: every carrier. */
  providerIds: readonly string[] | null;
  areaId: string | null;
  /** Only orders delivered to a store of this chain (UNIMART, FAMI, HILIFE, OKMART; B2C and C2C alike). */
  cvsChain?: string | null;
  /** Only orders whose ship-by is before this instant. */
  shipByBefore?: Date | null;
  statuses: readonly TOrderStatus[];
}

/** The `where` of a wave's candidates (`o` is outbound_orders): also what a channel's open count counts. */
function waveWhere(customerId: string, opts: TWaveScope): SQL {
  const inArea = opts.areaId
    ? sql`and exists (
          select 1 from stock_reservations r join stock_balances b on b.id = r.balance_id
            join storage_locations sl on sl.id = b.location_id
          where r.customer_id = ${customerId} and r.document_type = ${ORDER_DOCUMENT} and r.document_id = o.id
            and r.quantity > 0 and sl.area_id = ${opts.areaId})
        and not exists (
          select 1 from stock_reservations r join stock_balances b on b.id = r.balance_id
            join storage_locations sl on sl.id = b.location_id
          where r.customer_id = ${customerId} and r.document_type = ${ORDER_DOCUMENT} and r.document_id = o.id
            and r.quantity > 0 and sl.area_id is distinct from ${opts.areaId})`
    : sql``;
  const providers = opts.providerIds?.length
    ? opts.providerIds.length === 1
      ? sql`and o.logistics_provider_id = ${opts.providerIds[0]}`
      : sql`and o.logistics_provider_id = any(${uuidArray(opts.providerIds)})`
    : sql``;
  const chain = opts.cvsChain
    ? sql`and exists (select 1 from order_cvs_stores cs where cs.order_id = o.id
          and cs.subtype in (${opts.cvsChain}, ${`${opts.cvsChain}C2C`}))`
    : sql``;
  const shipBy = opts.shipByBefore ? sql`and o.ship_by < ${opts.shipByBefore.toISOString()}::timestamptz` : sql``;
  return sql`o.customer_id = ${customerId} and o.warehouse_id = ${opts.warehouseId} and o.batch_id is null
          and o.status in ${[...opts.statuses]} ${providers} ${chain} ${shipBy} ${inArea}`;
}

/**
 * The next exported orders outside any batch at a warehouse (and carriers, chain, ship-by; and whose reserved stock
 * all lies in one area), earliest ship-by first, locked for this transaction. Rows another transaction holds are
 * skipped (`SKIP LOCKED`): two waves released at once take different orders, and neither waits for the other. `units`
 * is what the picker carries: the order's reserved quantity.
 */
export async function lockWaveCandidates(
  tx: Tx,
  customerId: string,
  opts: TWaveScope & { exclude: string[]; limit: number },
): Promise<TWaveCandidate[]> {
  const rows = await queryRows<{ id: string; number: string; units: number | string }>(
    tx,
    sql`select o.id, o.number,
          (select coalesce(sum(r.quantity), 0) from stock_reservations r
            where r.customer_id = ${customerId} and r.document_type = ${ORDER_DOCUMENT} and r.document_id = o.id
              and r.quantity > 0) as units
        from outbound_orders o
        where ${waveWhere(customerId, opts)}
          ${opts.exclude.length ? sql`and o.id not in ${opts.exclude}` : sql``}
        order by o.ship_by asc nulls last, o.number
        limit ${opts.limit}
        for update of o skip locked`,
  );
  return rows.map((r) => ({ id: r.id, number: r.number, units: Number(r.units) }));
}

/** How many orders a wave of this scope may take now (locked ones included). */
export async function countWaveCandidates(ex: Executor, customerId: string, opts: TWaveScope): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    ex,
    sql`select count(*)::int as n from outbound_orders o where ${waveWhere(customerId, opts)}`,
  );
  return Number(row?.n ?? 0);
}

/** Whether the warehouse, carrier and area of a wave are the seller's (and the area is in that warehouse). */
export async function waveScopeOk(
  ex: Executor,
  customerId: string,
  warehouseId: string,
  providerId: string | null,
  areaId: string | null,
): Promise<{ warehouse: boolean; provider: boolean; area: boolean }> {
  const [row] = await queryRows<{ warehouse: boolean; provider: boolean; area: boolean }>(
    ex,
    sql`select
          exists (select 1 from warehouses where id = ${warehouseId} and customer_id = ${customerId}) as warehouse,
          ${providerId ? sql`exists (select 1 from logistics_providers where id = ${providerId} and customer_id = ${customerId})` : sql`true`} as provider,
          ${areaId ? sql`exists (select 1 from areas where id = ${areaId} and customer_id = ${customerId} and warehouse_id = ${warehouseId})` : sql`true`} as area`,
  );
  return row!;
}

// ---- saved release channels ----

export type TChannelRow = typeof release_channels.$inferSelect;
export type TChannelView = TChannelRow & {
  warehouse_code: string;
  area_code: string | null;
  provider_names: string[];
};

const channelSelect = {
  ...getTableColumns(release_channels),
  warehouse_code: warehouses.code,
  area_code: areas.code,
  provider_names: sql<
    string[]
  >`(select coalesce(array_agg(lp.name order by array_position(${release_channels.logistics_provider_ids}, lp.id)), '{}')
      from logistics_providers lp where lp.id = any(${release_channels.logistics_provider_ids}))`,
};

export async function listChannels(
  ex: Executor,
  customerId: string,
  q: TPageOpts & { warehouse_id?: string; active?: boolean },
): Promise<{ rows: TChannelView[]; count: number }> {
  const c = release_channels;
  const where = and(
    eq(c.customer_id, customerId),
    q.warehouse_id ? eq(c.warehouse_id, q.warehouse_id) : undefined,
    q.active === undefined ? undefined : eq(c.active, q.active),
    searchWhere(q.search, [c.name, warehouses.code]),
  );
  const order = orderingOf(
    q.ordering,
    { sequence: c.sequence, name: c.name, warehouse_code: warehouses.code, created_at: c.created_at },
    'sequence',
    c.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(ex, [
    () =>
      ex
        .select(channelSelect)
        .from(c)
        .innerJoin(warehouses, eq(warehouses.id, c.warehouse_id))
        .leftJoin(areas, eq(areas.id, c.area_id))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => ex.select({ n: countAll }).from(c).innerJoin(warehouses, eq(warehouses.id, c.warehouse_id)).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findChannel(
  ex: Executor,
  customerId: string,
  id: string,
  lock = false,
): Promise<TChannelView | undefined> {
  const c = release_channels;
  const query = ex
    .select(channelSelect)
    .from(c)
    .innerJoin(warehouses, eq(warehouses.id, c.warehouse_id))
    .leftJoin(areas, eq(areas.id, c.area_id))
    .where(and(eq(c.customer_id, customerId), eq(c.id, id)));
  const [row] = lock ? await query.for('update', { of: c }) : await query;
  return row;
}

export async function insertChannel(tx: Tx, values: typeof release_channels.$inferInsert): Promise<string> {
  const [row] = await tx.insert(release_channels).values(values).returning({ id: release_channels.id });
  return row!.id;
}

export async function updateChannel(
  tx: Tx,
  customerId: string,
  id: string,
  patch: Partial<typeof release_channels.$inferInsert>,
): Promise<void> {
  await tx
    .update(release_channels)
    .set(patch)
    .where(and(eq(release_channels.customer_id, customerId), eq(release_channels.id, id)));
}

export async function deleteChannel(tx: Tx, customerId: string, id: string): Promise<number> {
  const rows = await tx
    .delete(release_channels)
    .where(and(eq(release_channels.customer_id, customerId), eq(release_channels.id, id)))
    .returning({ id: release_channels.id });
  return rows.length;
}

/** Which of these carrier ids are the seller's. */
export async function ownProviders(ex: Executor, customerId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ex
    .select({ id: logistics_providers.id })
    .from(logistics_providers)
    .where(and(eq(logistics_providers.customer_id, customerId), inArray(logistics_providers.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** What an order's ship-by time is computed from, locked (the caller's transaction). */
export async function lockOrderShipping(ex: Executor, customerId: string, orderId: string) {
  const o = outbound_orders;
  const [row] = await ex
    .select({
      status: o.status,
      warehouse_id: o.warehouse_id,
      logistics_provider_id: o.logistics_provider_id,
      created_at: o.created_at,
    })
    .from(o)
    .where(and(eq(o.id, orderId), eq(o.customer_id, customerId)))
    .for('update');
  return row;
}

/** The convenience-store chain an order is delivered to (UNIMART, FAMI, HILIFE, OKMART), or null. */
export async function cvsChainOfOrder(ex: Executor, customerId: string, orderId: string): Promise<string | null> {
  const [row] = await queryRows<{ subtype: string }>(
    ex,
    sql`select subtype from order_cvs_stores where customer_id = ${customerId} and order_id = ${orderId}`,
  );
  return row ? row.subtype.replace(/C2C$/, '') : null;
}

/** Set an order's ship-by time. */
export async function setShipBy(tx: Executor, customerId: string, orderId: string, shipBy: Date): Promise<void> {
  await tx
    .update(outbound_orders)
    .set({ ship_by: shipBy })
    .where(and(eq(outbound_orders.customer_id, customerId), eq(outbound_orders.id, orderId)));
}

// ---- the handheld pick walk (pick_scans, pick_totes) ----

export type TPickScanInsert = typeof pick_scans.$inferInsert;
export type TPickTally = {
  order_id: string;
  location_id: string;
  product_id: string;
  expiry_date: string | null;
  picked: number;
  short: number;
};

/** What the pick walk of a batch recorded, summed per order and pile. */
export async function pickTallies(ex: Executor, customerId: string, batchId: string): Promise<TPickTally[]> {
  const rows = await queryRows<TPickTally>(
    ex,
    sql`select order_id, location_id, product_id, expiry_date::text as expiry_date,
          coalesce(sum(quantity) filter (where kind = 'pick'), 0)::int as picked,
          coalesce(sum(quantity) filter (where kind = 'short'), 0)::int as short
        from pick_scans where customer_id = ${customerId} and batch_id = ${batchId}
        group by order_id, location_id, product_id, expiry_date`,
  );
  return rows.map((r) => ({ ...r, picked: Number(r.picked), short: Number(r.short) }));
}

/** Whether a scan of this id was already counted (the handheld sent it again). */
export async function pickScanSeen(tx: Tx, customerId: string, scanId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: pick_scans.id })
    .from(pick_scans)
    .where(and(eq(pick_scans.customer_id, customerId), eq(pick_scans.scan_id, scanId)))
    .limit(1);
  return !!row;
}

/** Record a scan's rows; none when its id is already there (the unique key backs the batch lock). */
export async function insertPickScans(tx: Tx, rows: TPickScanInsert[]): Promise<number> {
  if (rows.length === 0) return 0;
  const done = await tx.insert(pick_scans).values(rows).onConflictDoNothing().returning({ id: pick_scans.id });
  return done.length;
}

export type TPickToteRow = typeof pick_totes.$inferSelect;

export async function batchTotes(ex: Executor, customerId: string, batchId: string): Promise<TPickToteRow[]> {
  return ex
    .select()
    .from(pick_totes)
    .where(and(eq(pick_totes.customer_id, customerId), eq(pick_totes.batch_id, batchId)))
    .orderBy(asc(pick_totes.slot));
}

/** The order a tote code belongs to now, with its status. */
export async function findTote(ex: Executor, customerId: string, code: string) {
  const [row] = await ex
    .select({ order_id: pick_totes.order_id, status: outbound_orders.status, number: outbound_orders.number })
    .from(pick_totes)
    .innerJoin(outbound_orders, eq(outbound_orders.id, pick_totes.order_id))
    .where(and(eq(pick_totes.customer_id, customerId), eq(pick_totes.tote_code, code)));
  return row;
}

export async function deleteTote(tx: Tx, customerId: string, orderId: string): Promise<void> {
  await tx.delete(pick_totes).where(and(eq(pick_totes.customer_id, customerId), eq(pick_totes.order_id, orderId)));
}

/** Put an order into a tote (or move it to another), keeping its cart slot. */
export async function upsertTote(tx: Tx, row: typeof pick_totes.$inferInsert): Promise<void> {
  await tx
    .insert(pick_totes)
    .values(row)
    .onConflictDoUpdate({ target: pick_totes.order_id, set: { tote_code: row.tote_code } });
}
