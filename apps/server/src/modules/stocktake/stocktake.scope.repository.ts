/**
 * What a new stocktake sheet counts: the locations and products in its scope, the open sheets already holding them,
 * and the sheet's location, product and book lines as inserted at creation.
 */
import type { TStocktakeScope } from '@wms/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx } from '../../db/client';
import { products, stocktake_locations, stocktake_products, storage_locations } from '../../db/schema';

/** Serialise sheet creation per warehouse, so two new sheets never take the same location unseen. */
export async function lockWarehouseSheets(tx: Tx, warehouseId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stocktake:${warehouseId}`}))`);
}

/** Locations a full sheet counts: every active location of the warehouse, and inactive ones still holding stock. */
export async function fullScopeLocations(ex: Executor, customerId: string, warehouseId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    ex,
    sql`select l.id from storage_locations l
        where l.customer_id = ${customerId} and l.warehouse_id = ${warehouseId}
          and (l.is_active or exists (select 1 from stock_balances b where b.location_id = l.id and b.on_hand > 0))
        order by l.code`,
  );
  return rows.map((r) => r.id);
}

/** The given ids that are locations of this warehouse. */
export async function locationsOf(
  ex: Executor,
  customerId: string,
  warehouseId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await ex
    .select({ id: storage_locations.id })
    .from(storage_locations)
    .where(
      and(
        eq(storage_locations.customer_id, customerId),
        eq(storage_locations.warehouse_id, warehouseId),
        inArray(storage_locations.id, ids),
      ),
    );
  return rows.map((r) => r.id);
}

/** The given ids that are this seller's single (stockable) products. */
export async function singleProductsOf(ex: Executor, customerId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await ex
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.customer_id, customerId), eq(products.type, 'single'), inArray(products.id, ids)));
  return rows.map((r) => r.id);
}

/** Products with stock on hand in the warehouse (what a random product sheet draws from). */
export async function productsWithStock(ex: Executor, customerId: string, warehouseId: string): Promise<string[]> {
  const rows = await queryRows<{ product_id: string }>(
    ex,
    sql`select distinct b.product_id from stock_balances b
        where b.customer_id = ${customerId} and b.warehouse_id = ${warehouseId} and b.on_hand > 0
        order by b.product_id`,
  );
  return rows.map((r) => r.product_id);
}

/** Locations of the warehouse holding any of these products. */
export async function locationsHolding(
  ex: Executor,
  customerId: string,
  warehouseId: string,
  productIds: string[],
): Promise<string[]> {
  if (productIds.length === 0) return [];
  const rows = await queryRows<{ location_id: string }>(
    ex,
    sql`select distinct b.location_id from stock_balances b
        where b.customer_id = ${customerId} and b.warehouse_id = ${warehouseId} and b.on_hand > 0
          and b.product_id in ${productIds}`,
  );
  return rows.map((r) => r.location_id);
}

/** Open sheets that already hold one of these locations (the first few, for the error message). */
export async function openSheetsHolding(
  ex: Executor,
  customerId: string,
  locationIds: string[],
): Promise<Array<{ number: string; location_code: string }>> {
  if (locationIds.length === 0) return [];
  return queryRows(
    ex,
    sql`select s.number, l.code as location_code
        from stocktake_locations sl
          join stocktakes s on s.id = sl.stocktake_id
          join storage_locations l on l.id = sl.location_id
        where sl.customer_id = ${customerId} and s.status in ('first', 'review', 'third')
          and sl.location_id in ${locationIds}
        order by l.code limit 5`,
  );
}

export const CHUNK = 1000;

export async function insertSheetLocations(
  tx: Tx,
  customerId: string,
  sheetId: string,
  locationIds: string[],
): Promise<void> {
  for (let i = 0; i < locationIds.length; i += CHUNK) {
    await tx
      .insert(stocktake_locations)
      .values(
        locationIds
          .slice(i, i + CHUNK)
          .map((id) => ({ customer_id: customerId, stocktake_id: sheetId, location_id: id })),
      );
  }
}

export async function insertSheetProducts(
  tx: Tx,
  customerId: string,
  sheetId: string,
  productIds: string[],
): Promise<void> {
  for (let i = 0; i < productIds.length; i += CHUNK) {
    await tx
      .insert(stocktake_products)
      .values(
        productIds
          .slice(i, i + CHUNK)
          .map((id) => ({ customer_id: customerId, stocktake_id: sheetId, product_id: id })),
      );
  }
}

/** The sheet's lines as the book has them now: every pile with stock in its locations (its products only, if any). */
export async function insertBookLines(
  tx: Tx,
  customerId: string,
  sheetId: string,
  scope: TStocktakeScope,
): Promise<void> {
  const productFilter =
    scope === 'product'
      ? sql`and b.product_id in (select sp.product_id from stocktake_products sp where sp.stocktake_id = ${sheetId})`
      : sql``;
  await tx.execute(
    sql`insert into stocktake_lines (customer_id, stocktake_id, location_id, product_id, expiry_date, book_initial)
        select ${customerId}, ${sheetId}, b.location_id, b.product_id, b.expiry_date, b.on_hand
        from stock_balances b
          join stocktake_locations sl on sl.location_id = b.location_id and sl.stocktake_id = ${sheetId}
        where b.customer_id = ${customerId} and b.on_hand > 0 ${productFilter}`,
  );
}
