import { eq } from 'drizzle-orm';
import { allOf, type Executor } from '../../db/client';
import { ecommerce_platforms, logistics_providers } from '../../db/schema';
import { tenantTable } from '../../db/tenant-table';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';

/** The seller-scoped reads and writes of the module's two tables (every call limited to one seller's rows). */
const providers = tenantTable(logistics_providers);
const platforms = tenantTable(ecommerce_platforms);

export type TProviderRow = typeof logistics_providers.$inferSelect;
export type TPlatformRow = typeof ecommerce_platforms.$inferSelect;

export async function listProviders(
  tx: Executor,
  customerId: string,
  q: TPageOpts & { is_active?: boolean; temperature_code?: string },
) {
  const t = logistics_providers;
  const where = providers.scope(
    customerId,
    q.is_active !== undefined ? eq(t.is_active, q.is_active) : undefined,
    q.temperature_code ? eq(t.temperature_code, q.temperature_code) : undefined,
    searchWhere(q.search, [t.code, t.name, t.merchant_id]),
  );
  const order = orderingOf(
    q.ordering,
    { code: t.code, name: t.name, merchant_id: t.merchant_id, created_at: t.created_at },
    'code',
    t.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      tx
        .select()
        .from(t)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => tx.select({ n: countAll }).from(t).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findProvider(tx: Executor, customerId: string, id: string) {
  return providers.get(tx, customerId, id);
}

/** The seller's providers of these ids (a read model for carriers: name, carrier, sender, temperature…). */
export async function providersByIds(tx: Executor, customerId: string, ids: string[]): Promise<TProviderRow[]> {
  return providers.byIds(tx, customerId, ids);
}

/**
 * Every seller's providers with this merchant id: who a carrier's signed notice may come from (the caller verifies
 * the signature with each one's keys; a read model for carriers).
 */
export async function providersByMerchantId(tx: Executor, merchantId: string): Promise<TProviderRow[]> {
  return tx.select().from(logistics_providers).where(eq(logistics_providers.merchant_id, merchantId));
}

export async function insertProvider(tx: Executor, values: typeof logistics_providers.$inferInsert) {
  return providers.insert(tx, values.customer_id, values);
}

export async function updateProvider(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof logistics_providers.$inferInsert>,
) {
  return providers.update(tx, customerId, id, patch);
}

export async function deleteProvider(tx: Executor, customerId: string, id: string) {
  await providers.remove(tx, customerId, id);
}

export async function listPlatforms(tx: Executor, customerId: string, q: TPageOpts & { callback_enabled?: boolean }) {
  const t = ecommerce_platforms;
  const where = platforms.scope(
    customerId,
    q.callback_enabled !== undefined ? eq(t.callback_enabled, q.callback_enabled) : undefined,
    searchWhere(q.search, [t.code, t.name, t.store_number, t.url]),
  );
  const order = orderingOf(
    q.ordering,
    { code: t.code, name: t.name, store_number: t.store_number, created_at: t.created_at },
    'code',
    t.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      tx
        .select()
        .from(t)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => tx.select({ n: countAll }).from(t).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findPlatform(tx: Executor, customerId: string, id: string) {
  return platforms.get(tx, customerId, id);
}

/** The seller's e-commerce platform of this code (a read model for Shopee: its shop's platform). */
export async function findPlatformByCode(tx: Executor, customerId: string, code: string) {
  const [row] = await platforms.list(tx, customerId, eq(ecommerce_platforms.code, code));
  return row;
}

export async function insertPlatform(tx: Executor, values: typeof ecommerce_platforms.$inferInsert) {
  return platforms.insert(tx, values.customer_id, values);
}

export async function updatePlatform(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof ecommerce_platforms.$inferInsert>,
) {
  return platforms.update(tx, customerId, id, patch);
}

export async function deletePlatform(tx: Executor, customerId: string, id: string) {
  await platforms.remove(tx, customerId, id);
}

/** A read model for other modules (catalog's imports and batch changes): the seller's providers' ids and codes. */
export async function providerCodes(tx: Executor, customerId: string): Promise<{ id: string; code: string }[]> {
  return tx
    .select({ id: logistics_providers.id, code: logistics_providers.code })
    .from(logistics_providers)
    .where(providers.scope(customerId));
}

/** A read model for other modules (catalog's imports and batch changes): the seller's platforms' ids and codes. */
export async function platformCodes(tx: Executor, customerId: string): Promise<{ id: string; code: string }[]> {
  return tx
    .select({ id: ecommerce_platforms.id, code: ecommerce_platforms.code })
    .from(ecommerce_platforms)
    .where(platforms.scope(customerId));
}
