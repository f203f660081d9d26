import { ORDER_LIST_COUNT_CAP, type TOrder, type TOrderListQuery } from '@wms/contracts';
import { and, eq, gte, inArray, isNotNull, isNull, lt, notInArray, type SQL, sql } from 'drizzle-orm';
import { allOf, type Executor, preparedRows, queryRows, type Tx } from '../../db/client';
import {
  collection_batches,
  ecommerce_platforms,
  logistics_providers,
  outbound_column_settings,
  outbound_order_lines,
  outbound_orders,
  warehouses,
} from '../../db/schema';
import { taipeiToday } from '../../platform/calendar';
import { countedPage, limitSql, orderingOf, pageWindow, searchWhere } from '../../platform/listing';
import { orderViews, type TOrderView } from './outbound.orders.repository';
import { SHIPPED_STATUSES } from './outbound.workflow';

/**
 * The SQL of the order list and what reads orders like it: the list query's WHERE and ordering (also the file
 * exports'), the capped list page, export pages, the counts of /deliver-cnt and the saved list columns (/customize).
 */

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
