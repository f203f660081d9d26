import type { TCvsSubtype } from '@wms/contracts';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { carrier_events, carrier_labels, cvs_map_requests, order_cvs_stores } from '../../db/schema';

/**
 * Carriers' data access (SQL only, the transaction or executor first): carrier_events, carrier_labels,
 * order_cvs_stores and cvs_map_requests. Orders, logistics providers and Shopee rows are read through their modules'
 * index.ts; the two exceptions are reports that join outbound_orders read-only in one statement: `codCollectedByDay`
 * (sums the orders' COD amounts in the database: numeric, no float) and `cvsAwaitingDropOff` (open orders only).
 */

export type TCarrierLabelRow = typeof carrier_labels.$inferSelect;
export type TCvsStoreRow = typeof order_cvs_stores.$inferSelect;
type TCarrierLabelValues = Omit<typeof carrier_labels.$inferInsert, 'order_id'>;

/** The order (and its seller) whose ECPay label has this AllPayLogisticsID, among these sellers. */
export async function findEcpayLabelOwner(
  ex: Executor,
  logisticsId: string,
  customerIds: string[],
): Promise<{ orderId: string; customerId: string } | undefined> {
  const [hit] = await ex
    .select({ orderId: carrier_labels.order_id, customerId: carrier_labels.customer_id })
    .from(carrier_labels)
    .where(
      and(
        eq(carrier_labels.carrier, 'ecpay'),
        eq(carrier_labels.file_no, logisticsId),
        inArray(carrier_labels.customer_id, customerIds),
      ),
    )
    .limit(1);
  return hit;
}

/** Stores a carrier's status notice once: answers its id, or undefined when the same notice is already stored. */
export async function insertCarrierEvent(
  tx: Tx,
  values: typeof carrier_events.$inferInsert,
): Promise<string | undefined> {
  const [event] = await tx
    .insert(carrier_events)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: carrier_events.id });
  return event?.id;
}

/** The tracking history of one of the seller's orders, newest first (at most 200). */
export async function orderEvents(ex: Executor, customerId: string, orderId: string) {
  return ex
    .select()
    .from(carrier_events)
    .where(and(eq(carrier_events.customer_id, customerId), eq(carrier_events.order_id, orderId)))
    .orderBy(desc(carrier_events.created_at))
    .limit(200);
}

/** The order's label (or how to fetch it again), made or replaced. */
export async function upsertCarrierLabel(tx: Tx, orderId: string, label: TCarrierLabelValues): Promise<void> {
  await tx
    .insert(carrier_labels)
    .values({ order_id: orderId, ...label })
    .onConflictDoUpdate({ target: carrier_labels.order_id, set: label });
}

/** A label fetched again: its content, or the error of the attempt. */
export async function updateCarrierLabel(
  tx: Tx,
  customerId: string,
  orderId: string,
  patch: Partial<Pick<TCarrierLabelValues, 'content' | 'error' | 'fetched_at'>>,
): Promise<void> {
  await tx
    .update(carrier_labels)
    .set(patch)
    .where(and(eq(carrier_labels.order_id, orderId), eq(carrier_labels.customer_id, customerId)));
}

/** The seller's labels of these orders. */
export async function labelsOf(ex: Executor, customerId: string, orderIds: string[]): Promise<TCarrierLabelRow[]> {
  if (!orderIds.length) return [];
  return ex
    .select()
    .from(carrier_labels)
    .where(and(eq(carrier_labels.customer_id, customerId), inArray(carrier_labels.order_id, orderIds)));
}

/** The seller's pickup stores of these orders. */
export async function cvsStoresOf(ex: Executor, customerId: string, orderIds: string[]): Promise<TCvsStoreRow[]> {
  if (!orderIds.length) return [];
  return ex
    .select()
    .from(order_cvs_stores)
    .where(and(eq(order_cvs_stores.customer_id, customerId), inArray(order_cvs_stores.order_id, orderIds)));
}

/** The store-to-store print pages' numbers ECPay gave with the consignment. */
export async function setCvsPaymentNumbers(
  tx: Tx,
  orderId: string,
  cvs: { paymentNo: string | null; validationNo: string | null },
): Promise<void> {
  await tx
    .update(order_cvs_stores)
    .set({ payment_no: cvs.paymentNo, validation_no: cvs.validationNo })
    .where(eq(order_cvs_stores.order_id, orderId));
}

/**
 * Cash collected on delivery per day (see `codCollected`): each COD order picked up (its first status of a `picked`
 * key `<subtype>:<code>`), on ECPay's day, newest first, at most 400 days.
 */
export async function codCollectedByDay(
  ex: Executor,
  customerId: string,
  picked: string[],
  q: { date_from?: string; date_to?: string },
) {
  return queryRows<{ date: string; orders: number; amount: string }>(
    ex,
    sql`with picked as (
          select distinct on (e.order_id) e.order_id,
            replace(substr(coalesce(nullif(e.status_at, ''), to_char(e.created_at at time zone 'Asia/Taipei', 'YYYY/MM/DD')), 1, 10), '/', '-') as day
          from carrier_events e
          join order_cvs_stores s on s.order_id = e.order_id and s.customer_id = ${customerId}
          where e.customer_id = ${customerId} and e.carrier = 'ecpay' and e.order_id is not null
            and s.subtype || ':' || e.status_code in (${sql.join(
              picked.map((c) => sql`${c}`),
              sql`, `,
            )})
          order by e.order_id, e.created_at
        )
        select p.day as date, count(*)::int as orders, sum(o.cod_amount)::text as amount
        from picked p join outbound_orders o on o.id = p.order_id and o.customer_id = ${customerId}
        where o.cod and o.cod_amount is not null
          ${q.date_from ? sql`and p.day >= ${q.date_from}` : sql``}
          ${q.date_to ? sql`and p.day <= ${q.date_to}` : sql``}
        group by p.day
        order by p.day desc
        limit 400`,
  );
}

/** The order's pickup store, whoever's (the caller has checked the order is the seller's). */
export async function findCvsStore(ex: Executor, orderId: string): Promise<TCvsStoreRow | undefined> {
  const [row] = await ex.select().from(order_cvs_stores).where(eq(order_cvs_stores.order_id, orderId));
  return row;
}

/** Sets the order's pickup store (made or replaced). */
export async function upsertCvsStore(
  tx: Executor,
  customerId: string,
  orderId: string,
  values: Omit<typeof order_cvs_stores.$inferInsert, 'order_id' | 'customer_id'>,
): Promise<TCvsStoreRow> {
  const [row] = await tx
    .insert(order_cvs_stores)
    .values({ order_id: orderId, customer_id: customerId, ...values })
    .onConflictDoUpdate({ target: order_cvs_stores.order_id, set: { ...values, updated_at: new Date() } })
    .returning();
  return row!;
}

/** Removes the order's pickup store: answers the rows removed (none or one). */
export async function deleteCvsStore(tx: Tx, customerId: string, orderId: string): Promise<TCvsStoreRow[]> {
  return tx
    .delete(order_cvs_stores)
    .where(and(eq(order_cvs_stores.customer_id, customerId), eq(order_cvs_stores.order_id, orderId)))
    .returning();
}

export async function insertMapRequest(tx: Tx, values: typeof cvs_map_requests.$inferInsert): Promise<void> {
  await tx.insert(cvs_map_requests).values(values);
}

/** Marks the open map request of this token used (unused, made after `since`): answers it, or undefined. */
export async function useMapRequest(tx: Tx, token: string, since: Date) {
  const [request] = await tx
    .update(cvs_map_requests)
    .set({ used_at: new Date() })
    .where(
      and(eq(cvs_map_requests.token, token), isNull(cvs_map_requests.used_at), gt(cvs_map_requests.created_at, since)),
    )
    .returning();
  return request;
}

/**
 * The seller's open store-pickup orders whose ECPay label (for the order's current number) has no status yet of the
 * `moved` keys (`<subtype>:<code>`), oldest label first, at most 1,000 (see `cvsOverdue`).
 */
export async function cvsAwaitingDropOff(ex: Executor, customerId: string, moved: string[]) {
  return queryRows<{
    order_id: string;
    number: string;
    subtype: TCvsSubtype;
    consignment_number: string;
    store_id: string;
    made_at: Date | string;
  }>(
    ex,
    sql`select o.id as order_id, o.number, s.subtype, o.consignment_number, s.store_id, l.created_at as made_at
        from order_cvs_stores s
        join outbound_orders o on o.id = s.order_id and o.customer_id = ${customerId}
        join carrier_labels l on l.order_id = o.id and l.carrier = 'ecpay'
          and l.consignment_number = o.consignment_number
        where s.customer_id = ${customerId}
          and o.status not in ('cancelled', 'closed', 'closed_returned', 'returned')
          and not exists (select 1 from carrier_events e
            where e.customer_id = ${customerId} and e.order_id = o.id
              and s.subtype || ':' || e.status_code in (${sql.join(
                moved.map((k) => sql`${k}`),
                sql`, `,
              )}))
        order by l.created_at
        limit 1000`,
  );
}

/** Retention: the tracking events of the seller's orders being purged go with them. */
export async function deleteCarrierEventsOfOrders(tx: Tx, customerId: string, orderIds: string[]): Promise<void> {
  await tx
    .delete(carrier_events)
    .where(and(eq(carrier_events.customer_id, customerId), inArray(carrier_events.order_id, orderIds)));
}
