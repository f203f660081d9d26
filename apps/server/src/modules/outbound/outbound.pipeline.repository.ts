import type { TOrderStatus } from '@wms/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, type Tx, uuidArray } from '../../db/client';
import { outbound_order_lines, outbound_orders } from '../../db/schema';
import type { TOrderInsert, TOrderRow } from './outbound.orders.repository';

/** The SQL of the export pipeline (bulk status changes): many orders locked, moved and marked in one statement each. */

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
