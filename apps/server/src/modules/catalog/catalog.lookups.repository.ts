import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { type Executor, type Tx, uuidArray } from '../../db/client';
import { packaging_materials, product_components, products } from '../../db/schema';

/**
 * Read models of products for the order modules (what an order line, an import row or an export needs of a product:
 * its rules, carrier and component count), and the packaging take-out of the packing station. Exported from index.ts.
 */

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
