import { and, eq, inArray } from 'drizzle-orm';
import { allOf, type Executor } from '../../db/client';
import { ecommerce_platforms, logistics_providers } from '../../db/schema';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';

export type TProviderRow = typeof logistics_providers.$inferSelect;
export type TPlatformRow = typeof ecommerce_platforms.$inferSelect;

export async function listProviders(
  tx: Executor,
  customerId: string,
  q: TPageOpts & { is_active?: boolean; temperature_code?: string },
) {
  const t = logistics_providers;
  const where = and(
    eq(t.customer_id, customerId),
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
  const [row] = await tx
    .select()
    .from(logistics_providers)
    .where(and(eq(logistics_providers.id, id), eq(logistics_providers.customer_id, customerId)));
  return row;
}

/** The seller's providers of these ids (a read model for carriers: name, carrier, sender, temperature…). */
export async function providersByIds(tx: Executor, customerId: string, ids: string[]): Promise<TProviderRow[]> {
  if (!ids.length) return [];
  return tx
    .select()
    .from(logistics_providers)
    .where(and(eq(logistics_providers.customer_id, customerId), inArray(logistics_providers.id, ids)));
}

/**
 * Every seller's providers with this merchant id: who a carrier's signed notice may come from (the caller verifies
 * the signature with each one's keys; a read model for carriers).
 */
export async function providersByMerchantId(tx: Executor, merchantId: string): Promise<TProviderRow[]> {
  return tx.select().from(logistics_providers).where(eq(logistics_providers.merchant_id, merchantId));
}

export async function insertProvider(tx: Executor, values: typeof logistics_providers.$inferInsert) {
  const [row] = await tx.insert(logistics_providers).values(values).returning();
  return row!;
}

export async function updateProvider(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof logistics_providers.$inferInsert>,
) {
  const [row] = await tx
    .update(logistics_providers)
    .set(patch)
    .where(and(eq(logistics_providers.id, id), eq(logistics_providers.customer_id, customerId)))
    .returning();
  return row;
}

export async function deleteProvider(tx: Executor, customerId: string, id: string) {
  await tx
    .delete(logistics_providers)
    .where(and(eq(logistics_providers.id, id), eq(logistics_providers.customer_id, customerId)));
}

export async function listPlatforms(tx: Executor, customerId: string, q: TPageOpts & { callback_enabled?: boolean }) {
  const t = ecommerce_platforms;
  const where = and(
    eq(t.customer_id, customerId),
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
  const [row] = await tx
    .select()
    .from(ecommerce_platforms)
    .where(and(eq(ecommerce_platforms.id, id), eq(ecommerce_platforms.customer_id, customerId)));
  return row;
}

/** The seller's e-commerce platform of this code (a read model for Shopee: its shop's platform). */
export async function findPlatformByCode(tx: Executor, customerId: string, code: string) {
  const [row] = await tx
    .select()
    .from(ecommerce_platforms)
    .where(and(eq(ecommerce_platforms.customer_id, customerId), eq(ecommerce_platforms.code, code)));
  return row;
}

export async function insertPlatform(tx: Executor, values: typeof ecommerce_platforms.$inferInsert) {
  const [row] = await tx.insert(ecommerce_platforms).values(values).returning();
  return row!;
}

export async function updatePlatform(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof ecommerce_platforms.$inferInsert>,
) {
  const [row] = await tx
    .update(ecommerce_platforms)
    .set(patch)
    .where(and(eq(ecommerce_platforms.id, id), eq(ecommerce_platforms.customer_id, customerId)))
    .returning();
  return row;
}

export async function deletePlatform(tx: Executor, customerId: string, id: string) {
  await tx
    .delete(ecommerce_platforms)
    .where(and(eq(ecommerce_platforms.id, id), eq(ecommerce_platforms.customer_id, customerId)));
}

/** A read model for other modules (catalog's imports and batch changes): the seller's providers' ids and codes. */
export async function providerCodes(tx: Executor, customerId: string): Promise<{ id: string; code: string }[]> {
  return tx
    .select({ id: logistics_providers.id, code: logistics_providers.code })
    .from(logistics_providers)
    .where(eq(logistics_providers.customer_id, customerId));
}

/** A read model for other modules (catalog's imports and batch changes): the seller's platforms' ids and codes. */
export async function platformCodes(tx: Executor, customerId: string): Promise<{ id: string; code: string }[]> {
  return tx
    .select({ id: ecommerce_platforms.id, code: ecommerce_platforms.code })
    .from(ecommerce_platforms)
    .where(eq(ecommerce_platforms.customer_id, customerId));
}
