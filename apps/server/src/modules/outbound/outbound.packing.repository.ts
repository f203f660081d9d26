import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { allOf, type Executor, preparedRows, queryRows, type Tx } from '../../db/client';
import {
  outbound_orders,
  outbound_pack_items,
  outbound_packaging_uses,
  outbound_serials,
  packaging_materials,
  products,
} from '../../db/schema';
import { auditInsert, auditSelect } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { countAll, orderingOf, pageWindow, searchWhere } from '../../platform/listing';

/** The SQL of the packing station: pack items and the scan statement, serials (IMEI), packaging used. */

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
        a as (${auditInsert(sql`${audit} from u`)})
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
        a as (${auditInsert(audit(sql`exists (select 1 from u)`))})
        select count(*)::int as n from u`,
  );
  return Number(rows[0]?.n ?? 0) === 1;
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
