import type {
  TCrmCustomer,
  TCrmCustomerDetail,
  TCrmDashboard,
  TCrmRackLabels,
  TListQuery,
  TStockReason,
} from '@wms/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { allOf, type Executor, queryRows } from '../../db/client';
import { taipeiMidnight, taipeiToday } from '../../platform/calendar';
import { AppError } from '../../platform/errors';
import { isoSql, likePattern, pageWindow } from '../../platform/listing';

/**
 * The CRM's read models (SQL only, the executor first): the staff's views across sellers. CRM owns no table; these
 * reports read, never write, the tables of customers and users (account/auth), outbound_orders, inbound_receipts,
 * support_tickets, audit_logs, stock_balances and stock_movements, products, warehouses, storage_locations and shelves,
 * each in one statement (a page of sellers with their counts is one query, not one per module). Its writes go through
 * the owning modules (account's `changeCustomerActive`, `setPasswordByStaff`).
 */

/** An ORDER BY from a whitelist of raw column expressions (never user text), with a tie-breaker. */
function orderBy(ordering: string | undefined, columns: Record<string, string>, fallback: string, tie: string): SQL {
  const raw = ordering ?? fallback;
  const key = raw.replace(/^-/, '');
  if (!Object.hasOwn(columns, key)) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  return sql.raw(`${columns[key]} ${raw.startsWith('-') ? 'desc nulls last' : 'asc nulls first'}, ${tie}`);
}

const conditions = (parts: Array<SQL | undefined>): SQL =>
  sql.join(
    parts.filter((p): p is SQL => !!p),
    sql` and `,
  );

// ---- customers

const monthStart = () => taipeiMidnight(`${taipeiToday().slice(0, 8)}01`);

const CUSTOMER_SELECT = () => sql`select c.id, c.name, coalesce(c.tax_id, '') as tax_id, coalesce(c.phone, '') as phone,
    coalesce(c.invoice_title, '') as invoice_title, coalesce(c.invoice_address, '') as invoice_address,
    coalesce(c.website, '') as website, c.is_active,
    coalesce(adm.email, '') as admin_email, coalesce(adm.name, '') as admin_name,
    (select count(*)::int from users u where u.customer_id = c.id) as user_count,
    coalesce(st.units, 0)::int as stock_units, round(coalesce(st.value, 0), 2)::text as stock_value,
    (select count(*)::int from outbound_orders o where o.customer_id = c.id and o.created_at >= ${monthStart().toISOString()}) as orders_this_month,
    (select count(*)::int from support_tickets t where t.customer_id = c.id and t.status in ('new', 'in_progress')) as open_tickets,
    ${isoSql('(select max(a.created_at) from audit_logs a where a.customer_id = c.id)')} as last_activity_at,
    ${isoSql('c.created_at')} as created_at
  from customers c
  left join lateral (select u.email, u.name from users u where u.customer_id = c.id and u.role = 'CUSTOMER'
                     order by u.created_at, u.id limit 1) adm on true
  left join lateral (select sum(b.on_hand) as units, sum(b.on_hand * coalesce(p.cost, 0)) as value
                     from stock_balances b join products p on p.id = b.product_id where b.customer_id = c.id) st on true`;

const CUSTOMER_ORDER: Record<string, string> = {
  name: 'name',
  created_at: 'created_at',
  stock_units: 'stock_units',
  orders_this_month: 'orders_this_month',
  open_tickets: 'open_tickets',
  last_activity_at: 'last_activity_at',
};

export type TCustomerRow = TCrmCustomer & { invoice_title: string; invoice_address: string; website: string };

/** A page of sellers (see `listCustomers`) and how many match. */
export async function customerPage(ex: Executor, q: TListQuery & { is_active?: 'true' | 'false' }) {
  const where = conditions([
    sql`true`,
    q.search
      ? sql`(c.name ilike ${likePattern(q.search)} or c.tax_id ilike ${likePattern(q.search)}
             or exists (select 1 from users u where u.customer_id = c.id and u.email ilike ${likePattern(q.search)}))`
      : undefined,
    q.is_active ? sql`c.is_active = ${q.is_active === 'true'}` : undefined,
  ]);
  const order = orderBy(q.ordering, CUSTOMER_ORDER, 'name', 'id');
  const { limit, offset } = pageWindow(q);
  const [rows, [count]] = await allOf(ex, [
    () =>
      queryRows<TCustomerRow>(
        ex,
        sql`select * from (${CUSTOMER_SELECT()} where ${where}) x order by ${order} limit ${limit} offset ${offset}`,
      ),
    () => queryRows<{ n: number }>(ex, sql`select count(*)::int as n from customers c where ${where}`),
  ]);
  return { rows, count: count?.n ?? 0 };
}

/** One seller as `customerPage` shows it. */
export async function findCustomer(ex: Executor, id: string): Promise<TCustomerRow | undefined> {
  const [row] = await queryRows<TCustomerRow>(ex, sql`${CUSTOMER_SELECT()} where c.id = ${id}`);
  return row;
}

/** The seller's users, warehouses (with locations and units) and latest 20 audit rows. */
export async function customerDetail(ex: Executor, id: string) {
  const [users, warehouses, activity] = await allOf(ex, [
    () =>
      queryRows<TCrmCustomerDetail['users'][number]>(
        ex,
        sql`select id, name, email, is_active, totp_enabled, ${isoSql('created_at')} as created_at
            from users where customer_id = ${id} order by created_at, id`,
      ),
    () =>
      queryRows<TCrmCustomerDetail['warehouses'][number]>(
        ex,
        sql`select w.id, w.code, w.name,
              (select count(*)::int from storage_locations l where l.warehouse_id = w.id) as locations,
              (select coalesce(sum(b.on_hand), 0)::int from stock_balances b where b.warehouse_id = w.id) as units
            from warehouses w where w.customer_id = ${id} order by w.code`,
      ),
    () =>
      queryRows<TCrmCustomerDetail['activity'][number]>(
        ex,
        sql`select action, entity, actor_type, ${isoSql('created_at')} as created_at
            from audit_logs where customer_id = ${id} order by created_at desc, id desc limit 20`,
      ),
  ]);
  return { users, warehouses, activity };
}

// ---- dashboard

/** The workload across sellers (see `dashboard`): stock expiring within `nearExpiryDays` counts as near expiry. */
export async function dashboardFigures(ex: Executor, nearExpiryDays: number) {
  const today = taipeiToday();
  const nearExpiry = sql`${today}::date + ${nearExpiryDays}::int`;
  const weekStart = taipeiMidnight(today, -6);
  const [byCustomer, days, [recent]] = await allOf(ex, [
    () =>
      queryRows<TCrmDashboard['by_customer'][number]>(
        ex,
        sql`select * from (
              select c.id as customer_id, c.name, coalesce(c.tax_id, '') as tax_id,
                (select count(*)::int from inbound_receipts r where r.customer_id = c.id and r.status = 'pending') as receipts_pending,
                coalesce(o.pending_export, 0)::int as orders_pending_export, coalesce(o.exported, 0)::int as orders_exported,
                coalesce(o.online, 0)::int as orders_online,
                (select count(*)::int from support_tickets t where t.customer_id = c.id and t.status in ('new', 'in_progress')) as open_tickets,
                (select count(*)::int from stock_balances b where b.customer_id = c.id and b.on_hand > 0
                   and b.expiry_date is not null and b.expiry_date <= ${nearExpiry}) as near_expiry
              from customers c
              left join lateral (select count(*) filter (where status = 'pending_export') as pending_export,
                                        count(*) filter (where status = 'exported') as exported,
                                        count(*) filter (where status = 'online') as online
                                 from outbound_orders where customer_id = c.id) o on true
              where c.is_active) x
            where receipts_pending + orders_pending_export + orders_exported + orders_online + open_tickets + near_expiry > 0
            order by receipts_pending + orders_pending_export + orders_exported + orders_online + open_tickets desc, name, customer_id
            limit 50`,
      ),
    () =>
      queryRows<{ day: string; orders: number; receipts: number }>(
        ex,
        sql`select d.day, coalesce(o.n, 0)::int as orders, coalesce(r.n, 0)::int as receipts
            from (select to_char(g, 'YYYY-MM-DD') as day
                  from generate_series(${today}::date - 6, ${today}::date, interval '1 day') g) d
            left join (select to_char(created_at at time zone 'Asia/Taipei', 'YYYY-MM-DD') as day, count(*) as n
                       from outbound_orders where created_at >= ${weekStart.toISOString()} group by 1) o on o.day = d.day
            left join (select to_char(created_at at time zone 'Asia/Taipei', 'YYYY-MM-DD') as day, count(*) as n
                       from inbound_receipts where created_at >= ${weekStart.toISOString()} group by 1) r on r.day = d.day
            order by d.day`,
      ),
    () =>
      queryRows<{ today: number; week: number }>(
        ex,
        sql`select count(*) filter (where created_at >= ${taipeiMidnight(today).toISOString()})::int as today,
                   count(*)::int as week
            from outbound_orders where created_at >= ${weekStart.toISOString()}`,
      ),
  ]);
  const [totals] = await queryRows<Omit<TCrmDashboard['totals'], 'orders_today' | 'orders_this_week'>>(
    ex,
    sql`select (select count(*)::int from inbound_receipts where status = 'pending') as receipts_pending,
               (select count(*)::int from outbound_orders where status = 'pending_export') as orders_pending_export,
               (select count(*)::int from outbound_orders where status = 'exported') as orders_exported,
               (select count(*)::int from outbound_orders where status = 'online') as orders_online,
               (select count(*)::int from support_tickets where status in ('new', 'in_progress')) as open_tickets,
               (select count(*)::int from stock_balances where on_hand > 0 and expiry_date is not null
                  and expiry_date <= ${nearExpiry}) as near_expiry`,
  );
  return { totals: totals!, recent, byCustomer, days };
}

// ---- rack and stock (read-only)

export type TRackFilter = Pick<TCrmRackLabels, 'customer_id' | 'warehouse' | 'search' | 'state'>;

const rackWhere = (q: TRackFilter): SQL =>
  conditions([
    sql`true`,
    q.customer_id ? sql`l.customer_id = ${q.customer_id}` : undefined,
    q.warehouse ? sql`w.code = ${q.warehouse}` : undefined,
    q.search ? sql`(l.code ilike ${likePattern(q.search)} or l.name ilike ${likePattern(q.search)})` : undefined,
    q.state === 'empty' ? sql`coalesce(s.on_hand, 0) = 0` : undefined,
    q.state === 'in_use' ? sql`coalesce(s.on_hand, 0) > 0` : undefined,
  ]);

const RACK_FROM = sql`from storage_locations l join warehouses w on w.id = l.warehouse_id join customers c on c.id = l.customer_id
      left join shelves sh on sh.id = l.shelf_id
      left join lateral (select sum(b.on_hand)::int as on_hand, count(distinct b.product_id) filter (where b.on_hand > 0)::int as products
                         from stock_balances b where b.location_id = l.id) s on true`;

/** Up to `max` + 1 locations a rack search finds, as label sources (code, seller · warehouse). */
export async function rackLabelRows(ex: Executor, q: TRackFilter, max: number) {
  return queryRows<{ id: string; code: string; name: string }>(
    ex,
    sql`select l.id, l.code, c.name || ' · ' || w.code as name ${RACK_FROM} where ${rackWhere(q)}
        order by w.code, l.code, l.id limit ${max + 1}`,
  );
}

/** A page of storage locations across sellers with their occupancy, and how many match. */
export async function rackPage(
  ex: Executor,
  q: TListQuery & { customer_id?: string; warehouse?: string; state?: 'empty' | 'in_use' },
) {
  const where = rackWhere(q);
  const from = RACK_FROM;
  const order = orderBy(
    q.ordering,
    { code: 'l.code', warehouse_code: 'w.code', customer_name: 'c.name', on_hand: 'coalesce(s.on_hand, 0)' },
    'code',
    'l.id',
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [count]] = await allOf(ex, [
    () =>
      queryRows(
        ex,
        sql`select l.id, l.code, l.name, l.kind, l.cells, w.code as warehouse_code, w.name as warehouse_name,
              coalesce(sh.code, '') as shelf_code, c.id as customer_id, c.name as customer_name,
              coalesce(s.on_hand, 0)::int as on_hand, coalesce(s.products, 0)::int as products
            ${from} where ${where} order by ${order} limit ${limit} offset ${offset}`,
      ),
    () => queryRows<{ n: number }>(ex, sql`select count(*)::int as n ${from} where ${where}`),
  ]);
  return { rows, count: count?.n ?? 0 };
}

/** A page of stock piles across sellers, and how many match. */
export async function stockPage(
  ex: Executor,
  q: TListQuery & { customer_id?: string; warehouse?: string; expiry_before?: string },
) {
  const where = conditions([
    sql`b.on_hand > 0`,
    q.customer_id ? sql`b.customer_id = ${q.customer_id}` : undefined,
    q.warehouse ? sql`w.code = ${q.warehouse}` : undefined,
    q.expiry_before ? sql`b.expiry_date is not null and b.expiry_date <= ${q.expiry_before}` : undefined,
    q.search
      ? sql`(p.number ilike ${likePattern(q.search)} or p.name ilike ${likePattern(q.search)} or l.code ilike ${likePattern(q.search)})`
      : undefined,
  ]);
  const from = sql`from stock_balances b join products p on p.id = b.product_id join storage_locations l on l.id = b.location_id
      join warehouses w on w.id = b.warehouse_id join customers c on c.id = b.customer_id`;
  const order = orderBy(
    q.ordering,
    {
      customer_name: 'c.name',
      product_number: 'p.number',
      location_code: 'l.code',
      expiry_date: 'b.expiry_date',
      on_hand: 'b.on_hand',
    },
    'customer_name',
    'b.id',
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [count]] = await allOf(ex, [
    () =>
      queryRows(
        ex,
        sql`select b.id, c.id as customer_id, c.name as customer_name, w.code as warehouse_code, l.code as location_code,
              p.number as product_number, p.name as product_name, b.expiry_date::text as expiry_date, b.on_hand, b.reserved
            ${from} where ${where} order by ${order} limit ${limit} offset ${offset}`,
      ),
    () => queryRows<{ n: number }>(ex, sql`select count(*)::int as n ${from} where ${where}`),
  ]);
  return { rows, count: count?.n ?? 0 };
}

/** Whether the pile exists. */
export async function balanceExists(ex: Executor, balanceId: string): Promise<boolean> {
  const [balance] = await queryRows<{ id: string }>(ex, sql`select id from stock_balances where id = ${balanceId}`);
  return !!balance;
}

/** The ledger of one pile, newest first, at most 200. */
export async function balanceMovements(ex: Executor, balanceId: string) {
  return queryRows<{
    id: string;
    quantity: number;
    on_hand_after: number;
    reason: TStockReason;
    document_number: string;
    created_at: string;
  }>(
    ex,
    sql`select m.id::text as id, m.quantity, m.on_hand_after, m.reason, m.document_number, ${isoSql('m.created_at')} as created_at
        from stock_movements m where m.balance_id = ${balanceId} order by m.created_at desc, m.id desc limit 200`,
  );
}
