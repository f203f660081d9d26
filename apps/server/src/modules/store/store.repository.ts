import type { TStoreMemberQuery, TStoreOrderQuery, TStoreProductQuery } from '@wms/contracts';
import { and, asc, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  logistics_providers,
  outbound_order_lines,
  outbound_orders,
  products,
  store_members,
  store_orders,
  stores,
} from '../../db/schema';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';
import { productStockRows as productStock } from '../stock';

export type TStoreRow = typeof stores.$inferSelect;
export type TMemberRow = typeof store_members.$inferSelect;

// ---- stores ------------------------------------------------------------------------------------------------------

export async function storeOf(ex: Executor, customerId: string): Promise<TStoreRow | undefined> {
  const [row] = await ex.select().from(stores).where(eq(stores.customer_id, customerId));
  return row;
}

export async function storeById(ex: Executor, id: string): Promise<TStoreRow | undefined> {
  const [row] = await ex.select().from(stores).where(eq(stores.id, id));
  return row;
}

/** Whether another seller's store has this short URL. */
export async function shortUrlTaken(ex: Executor, shortUrl: string, customerId: string): Promise<boolean> {
  const [row] = await ex
    .select({ id: stores.id })
    .from(stores)
    .where(and(eq(stores.short_url, shortUrl), ne(stores.customer_id, customerId)));
  return !!row;
}

export async function insertStore(ex: Executor, values: typeof stores.$inferInsert): Promise<TStoreRow> {
  const [row] = await ex.insert(stores).values(values).returning();
  return row!;
}

export async function updateStore(
  ex: Executor,
  id: string,
  values: Partial<typeof stores.$inferInsert>,
): Promise<TStoreRow> {
  const [row] = await ex.update(stores).set(values).where(eq(stores.id, id)).returning();
  return row!;
}

// ---- listed products ---------------------------------------------------------------------------------------------

export type TProductRow = Pick<
  typeof products.$inferSelect,
  'id' | 'number' | 'name' | 'barcode' | 'unit' | 'selling_price' | 'online_listing' | 'status' | 'allow_shipping'
>;
const productColumns = {
  id: products.id,
  number: products.number,
  name: products.name,
  barcode: products.barcode,
  unit: products.unit,
  selling_price: products.selling_price,
  online_listing: products.online_listing,
  status: products.status,
  allow_shipping: products.allow_shipping,
};

export async function listProducts(ex: Executor, customerId: string, q: TStoreProductQuery) {
  const where = and(
    eq(products.customer_id, customerId),
    q.listed === undefined ? undefined : eq(products.online_listing, q.listed),
    searchWhere(q.search, [products.number, products.name, products.barcode]),
  );
  const order = orderingOf(
    q.ordering,
    { number: products.number, name: products.name, selling_price: products.selling_price },
    'number',
    products.id,
  );
  const { limit, offset } = pageWindow(q);
  const [n] = await ex.select({ n: countAll }).from(products).where(where);
  const rows = await ex
    .select(productColumns)
    .from(products)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return { count: Number(n?.n ?? 0), rows };
}

export async function productOf(ex: Executor, customerId: string, id: string): Promise<TProductRow | undefined> {
  const [row] = await ex
    .select(productColumns)
    .from(products)
    .where(and(eq(products.customer_id, customerId), eq(products.id, id)));
  return row;
}

/** The products members can order: listed, active, allowed to ship, with a selling price (at most `limit`). */
export async function listedProducts(ex: Executor, customerId: string, limit: number): Promise<TProductRow[]> {
  return ex
    .select(productColumns)
    .from(products)
    .where(
      and(
        eq(products.customer_id, customerId),
        eq(products.online_listing, true),
        eq(products.status, 'active'),
        eq(products.allow_shipping, true),
        sql`${products.selling_price} is not null`,
      ),
    )
    .orderBy(asc(products.number))
    .limit(limit);
}

/** Sellable stock of each product by warehouse (combinations as whole kits): product id → warehouse code → units. */
export async function availability(
  ex: Executor,
  customerId: string,
  productIds: string[],
  today: string,
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  for (const id of productIds) {
    const byWarehouse = new Map<string, number>();
    for (let page = 1; ; page++) {
      const { count, rows } = await productStock(ex, customerId, { page, page_size: 100, product_id: id }, today);
      for (const r of rows) byWarehouse.set(r.warehouse_code, Math.max(0, Number(r.available)));
      if (page * 100 >= count) break;
    }
    out.set(id, byWarehouse);
  }
  return out;
}

export async function activeProviders(ex: Executor, customerId: string) {
  return ex
    .select({ id: logistics_providers.id, code: logistics_providers.code, name: logistics_providers.name })
    .from(logistics_providers)
    .where(and(eq(logistics_providers.customer_id, customerId), eq(logistics_providers.is_active, true)))
    .orderBy(asc(logistics_providers.code));
}

// ---- members -----------------------------------------------------------------------------------------------------

function memberWhere(customerId: string, q: Pick<TStoreMemberQuery, 'search' | 'is_active'>): SQL | undefined {
  return and(
    eq(store_members.customer_id, customerId),
    q.is_active === undefined ? undefined : eq(store_members.is_active, q.is_active),
    searchWhere(q.search, [store_members.name, store_members.email, store_members.phone]),
  );
}

export async function listMembers(ex: Executor, customerId: string, q: TPageOpts & TStoreMemberQuery) {
  const where = memberWhere(customerId, q);
  const order = orderingOf(
    q.ordering,
    { name: store_members.name, email: store_members.email, created_at: store_members.created_at },
    '-created_at',
    store_members.id,
  );
  const { limit, offset } = pageWindow(q);
  const [n] = await ex.select({ n: countAll }).from(store_members).where(where);
  const rows = await ex
    .select()
    .from(store_members)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return { count: Number(n?.n ?? 0), rows };
}

export async function memberOf(ex: Executor, customerId: string, id: string): Promise<TMemberRow | undefined> {
  const [row] = await ex
    .select()
    .from(store_members)
    .where(and(eq(store_members.customer_id, customerId), eq(store_members.id, id)));
  return row;
}

export async function memberById(ex: Executor, id: string): Promise<TMemberRow | undefined> {
  const [row] = await ex.select().from(store_members).where(eq(store_members.id, id));
  return row;
}

export async function insertMember(ex: Executor, values: typeof store_members.$inferInsert): Promise<TMemberRow> {
  const [row] = await ex.insert(store_members).values(values).returning();
  return row!;
}

export async function updateMember(
  ex: Executor,
  id: string,
  values: Partial<typeof store_members.$inferInsert>,
): Promise<TMemberRow> {
  const [row] = await ex.update(store_members).set(values).where(eq(store_members.id, id)).returning();
  return row!;
}

// ---- orders ------------------------------------------------------------------------------------------------------

export async function insertStoreOrder(ex: Executor, values: typeof store_orders.$inferInsert): Promise<void> {
  await ex.insert(store_orders).values(values);
}

/** Store orders of a store (all of them, or one member's), newest first, with their lines. */
export async function listOrders(
  ex: Executor,
  scope: { customerId: string; storeId: string; memberId?: string },
  q: TStoreOrderQuery,
) {
  const where = and(
    eq(store_orders.customer_id, scope.customerId),
    eq(store_orders.store_id, scope.storeId),
    scope.memberId ? eq(store_orders.member_id, scope.memberId) : undefined,
    q.status ? eq(outbound_orders.status, q.status) : undefined,
    searchWhere(q.search, [outbound_orders.number, outbound_orders.consignment_number, outbound_orders.recipient_name]),
  );
  const { limit, offset } = pageWindow(q);
  const base = ex
    .select({ n: countAll })
    .from(store_orders)
    .innerJoin(outbound_orders, eq(outbound_orders.id, store_orders.order_id));
  const [n] = await base.where(where);
  const rows = await ex
    .select({
      id: outbound_orders.id,
      number: outbound_orders.number,
      created_at: outbound_orders.created_at,
      status: outbound_orders.status,
      consignment_number: outbound_orders.consignment_number,
      recipient_name: outbound_orders.recipient_name,
      recipient_address: outbound_orders.recipient_address,
      total_amount: outbound_orders.total_amount,
      cod: outbound_orders.cod,
      provider_code: logistics_providers.code,
      provider_name: logistics_providers.name,
      member_name: store_members.name,
      member_email: store_members.email,
    })
    .from(store_orders)
    .innerJoin(outbound_orders, eq(outbound_orders.id, store_orders.order_id))
    .leftJoin(logistics_providers, eq(logistics_providers.id, outbound_orders.logistics_provider_id))
    .leftJoin(store_members, eq(store_members.id, store_orders.member_id))
    .where(where)
    .orderBy(desc(outbound_orders.created_at), desc(outbound_orders.id))
    .limit(limit)
    .offset(offset);
  const ids = rows.map((r) => r.id);
  const lines = ids.length
    ? await ex
        .select({
          order_id: outbound_order_lines.order_id,
          product_number: products.number,
          product_name: products.name,
          quantity: outbound_order_lines.quantity,
          unit_price: outbound_order_lines.unit_price,
        })
        .from(outbound_order_lines)
        .innerJoin(products, eq(products.id, outbound_order_lines.product_id))
        .where(and(eq(outbound_order_lines.customer_id, scope.customerId), inArray(outbound_order_lines.order_id, ids)))
        .orderBy(asc(outbound_order_lines.line_no))
    : [];
  return { count: Number(n?.n ?? 0), rows, lines };
}

/** Retention: the store purchases of the seller's orders being purged go with them. */
export async function deleteStoreOrdersOf(tx: Executor, customerId: string, orderIds: string[]): Promise<void> {
  await tx
    .delete(store_orders)
    .where(and(eq(store_orders.customer_id, customerId), inArray(store_orders.order_id, orderIds)));
}
