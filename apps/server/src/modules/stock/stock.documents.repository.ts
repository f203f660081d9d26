import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';

/**
 * Read models of what the engine holds (reserved) or took out (shipped) for documents of another module — an order's
 * pick list, packing, reprint and returns (`order_id` is the document's id) — and the SQL pieces that module's
 * set-based statements embed (a wave's candidates, the retention of orders): the stock tables are named only here.
 */

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
  documentType: string,
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
        where r.customer_id = ${customerId} and r.document_type = ${documentType}
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
  documentType: string,
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
        where m.customer_id = ${customerId} and m.document_type = ${documentType}
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
export async function shippedQuantities(ex: Executor, customerId: string, documentType: string, orderId: string) {
  const rows = await queryRows<{ product_id: string; expiry_date: string | null; quantity: number }>(
    ex,
    sql`select m.product_id, m.expiry_date::text as expiry_date, (-sum(m.quantity))::int as quantity
        from stock_movements m
        where m.customer_id = ${customerId} and m.document_type = ${documentType} and m.document_id = ${orderId}
          and m.reason = 'outbound'
        group by m.product_id, m.expiry_date
        order by m.product_id, m.expiry_date nulls first`,
  );
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity) }));
}

/**
 * For a statement of another module: the document `documentId` (a column of that statement) holds reserved stock, all
 * of it in area `areaId` (`exists … and not exists …`).
 */
export function reservedOnlyInAreaSql(customerId: string, documentType: string, documentId: SQL, areaId: string): SQL {
  return sql`exists (
          select 1 from stock_reservations r join stock_balances b on b.id = r.balance_id
            join storage_locations sl on sl.id = b.location_id
          where r.customer_id = ${customerId} and r.document_type = ${documentType} and r.document_id = ${documentId}
            and r.quantity > 0 and sl.area_id = ${areaId})
        and not exists (
          select 1 from stock_reservations r join stock_balances b on b.id = r.balance_id
            join storage_locations sl on sl.id = b.location_id
          where r.customer_id = ${customerId} and r.document_type = ${documentType} and r.document_id = ${documentId}
            and r.quantity > 0 and sl.area_id is distinct from ${areaId})`;
}

/** For a statement of another module: the units reserved for the document `documentId` (a column of that statement). */
export function reservedUnitsSql(customerId: string, documentType: string, documentId: SQL): SQL {
  return sql`(select coalesce(sum(r.quantity), 0) from stock_reservations r
            where r.customer_id = ${customerId} and r.document_type = ${documentType} and r.document_id = ${documentId}
              and r.quantity > 0)`;
}

/** For a statement of another module: the document `documentId` (a column of that statement) still holds stock. */
export function holdsStockSql(documentId: SQL): SQL {
  return sql`exists (select 1 from stock_reservations r where r.document_id = ${documentId} and r.quantity > 0)`;
}
