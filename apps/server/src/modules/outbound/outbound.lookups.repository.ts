import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { type Executor, uuidArray } from '../../db/client';
import {
  customers,
  ecommerce_platforms,
  logistics_providers,
  product_components,
  products,
  warehouses,
} from '../../db/schema';

/** Look-ups of other modules' rows that orders refer to by id or code: products, platforms, carriers, warehouses. */

// ---- look-ups of other modules' rows (products, platforms, carriers, warehouses) ----

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

export async function platformsOf(ex: Executor, customerId: string) {
  return ex
    .select({ id: ecommerce_platforms.id, code: ecommerce_platforms.code, name: ecommerce_platforms.name })
    .from(ecommerce_platforms)
    .where(eq(ecommerce_platforms.customer_id, customerId));
}

export async function providersOf(ex: Executor, customerId: string) {
  return ex
    .select({
      id: logistics_providers.id,
      code: logistics_providers.code,
      name: logistics_providers.name,
      is_active: logistics_providers.is_active,
      temperature_code: logistics_providers.temperature_code,
      specification_code: logistics_providers.specification_code,
      contract_type: logistics_providers.contract_type,
    })
    .from(logistics_providers)
    .where(eq(logistics_providers.customer_id, customerId));
}

export async function warehousesOf(ex: Executor, customerId: string) {
  return ex
    .select({ id: warehouses.id, code: warehouses.code, address: warehouses.address })
    .from(warehouses)
    .where(eq(warehouses.customer_id, customerId))
    .orderBy(asc(warehouses.code));
}

export async function companyOf(ex: Executor, customerId: string) {
  const [row] = await ex
    .select({ name: customers.name, phone: customers.phone, address: customers.invoice_address })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row;
}

/** Which of these carrier ids are the seller's. */
export async function ownProviders(ex: Executor, customerId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ex
    .select({ id: logistics_providers.id })
    .from(logistics_providers)
    .where(and(eq(logistics_providers.customer_id, customerId), inArray(logistics_providers.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}
