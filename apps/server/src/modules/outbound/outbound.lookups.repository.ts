import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { ecommerce_platforms, logistics_providers, warehouses } from '../../db/schema';

/** Look-ups of other modules' rows that orders refer to by id or code: products, platforms, carriers, warehouses. */

// ---- look-ups of other modules' rows (platforms, carriers, warehouses) ----

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

/** Which of these carrier ids are the seller's. */
export async function ownProviders(ex: Executor, customerId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await ex
    .select({ id: logistics_providers.id })
    .from(logistics_providers)
    .where(and(eq(logistics_providers.customer_id, customerId), inArray(logistics_providers.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}
