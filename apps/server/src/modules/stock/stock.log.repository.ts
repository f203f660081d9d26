/**
 * The stock log (/stock-log): the seller's ledger movements, filtered and paged (a capped count), and their export.
 */
import type { TStockLogQuery } from '@wms/contracts';
import { STOCK_LOG_COUNT_CAP } from '@wms/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, preparedRows } from '../../db/client';
import { taipeiMidnight } from '../../platform/calendar';
import { countedPage, isoSql, limitSql } from '../../platform/listing';

export interface TMovementRaw {
  id: string | number;
  created_at: string;
  product_id: string;
  product_number: string;
  product_name: string;
  warehouse_code: string;
  location_id: string;
  location_code: string;
  expiry_date: string | null;
  quantity: number;
  on_hand_after: number;
  reason: string;
  document_type: string;
  document_number: string;
  user_name: string | null;
  note: string;
}

function logWhere(customerId: string, q: TStockLogQuery): SQL {
  // Every filter keeps `customer_id` leading, so one of the ledger's (customer, x, created_at) indexes serves it.
  const w: SQL[] = [sql`m.customer_id = ${customerId}`];
  if (q.product_id) w.push(sql`m.product_id = ${q.product_id}`);
  if (q.location_id) w.push(sql`m.location_id = ${q.location_id}`);
  if (q.warehouse_id) w.push(sql`m.warehouse_id = ${q.warehouse_id}`);
  if (q.reason) w.push(sql`m.reason = ${q.reason}`);
  if (q.document_number) w.push(sql`m.document_number = ${q.document_number}`);
  if (q.date_from) w.push(sql`m.created_at >= ${taipeiMidnight(q.date_from).toISOString()}::timestamptz`);
  if (q.date_to) w.push(sql`m.created_at < ${taipeiMidnight(q.date_to, 1).toISOString()}::timestamptz`);
  return sql.join(w, sql` and `);
}

const MOVEMENT_SELECT = sql`
  select m.id, ${isoSql('m.created_at')} as created_at, m.product_id, p.number as product_number, p.name as product_name,
    w.code as warehouse_code, m.location_id, l.code as location_code, m.expiry_date::text as expiry_date, m.quantity,
    m.on_hand_after, m.reason, m.document_type, m.document_number, u.name as user_name, m.note`;

/**
 * Newest first. Joins happen after the page is cut from the ledger alone (the inner query walks an index and stops
 * at offset + page size), so a page costs the same with a million rows as with a thousand. The count stops at the cap.
 * Count and page travel as one statement (`countedPage`): a round trip costs this read more than either query.
 */
export async function stockLog(ex: Executor, customerId: string, q: TStockLogQuery) {
  const where = logWhere(customerId, q);
  const offset = (q.page - 1) * q.page_size;
  if (offset >= STOCK_LOG_COUNT_CAP) {
    // Past the cap the pager offers no page; what is asked anyway gets the count and no rows.
    const n = Number((await preparedRows<{ n: number }>(ex, cappedLogCount(where)))[0]?.n ?? 0);
    return { count: Math.min(n, STOCK_LOG_COUNT_CAP), capped: n > STOCK_LOG_COUNT_CAP, rows: [] };
  }
  const { count, rows } = await countedPage<TMovementRaw>(
    ex,
    cappedLogCount(where),
    movementSql(where, q.page_size, offset, sql`, row_number() over (${NEWEST_FIRST}) as page_key`),
  );
  return { count: Math.min(count, STOCK_LOG_COUNT_CAP), capped: count > STOCK_LOG_COUNT_CAP, rows };
}

/** Matching ledger rows up to the cap + 1, walked in the order of the indexes (the newest entries, not the heap's oldest). */
function cappedLogCount(where: SQL): SQL {
  return sql`select count(*)::int as n from (select 1 from stock_movements m where ${where}
    order by m.created_at desc nulls last limit ${STOCK_LOG_COUNT_CAP + 1}) x`;
}

/** The ledger's newest-first order (its indexes' order), for the page cut and the rows of the page. */
const NEWEST_FIRST = sql`order by m.created_at desc nulls last, m.id desc nulls last`;

function movementSql(where: SQL, limit: number, offset: number, extraColumns: SQL = sql``): SQL {
  return sql`${MOVEMENT_SELECT}${extraColumns}
        from (select * from stock_movements m where ${where} ${NEWEST_FIRST}
              limit ${limitSql(limit)} offset ${offset}) m
          join products p on p.id = m.product_id
          join storage_locations l on l.id = m.location_id
          join warehouses w on w.id = m.warehouse_id
          left join users u on u.id = m.user_id
        ${NEWEST_FIRST}`;
}

async function movementRows(ex: Executor, where: SQL, limit: number, offset: number) {
  return preparedRows<TMovementRaw>(ex, movementSql(where, limit, offset));
}

export async function stockLogExport(ex: Executor, customerId: string, q: TStockLogQuery, limit: number) {
  return movementRows(ex, logWhere(customerId, q), limit, 0);
}
