import { and, desc, eq, inArray, isNotNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client';
import type { TShopeeSyncCounts } from '../../db/schema';
import { shopee_pushes, shopee_shops } from '../../db/schema';

export type TShopRow = typeof shopee_shops.$inferSelect;

/** Shops by id (any seller's: the caller has the ids from the seller's own rows). */
export async function shopsByIds(ex: Executor, ids: string[]): Promise<TShopRow[]> {
  if (!ids.length) return [];
  return ex.select().from(shopee_shops).where(inArray(shopee_shops.id, ids));
}

/** One shop by id. */
export async function findShop(ex: Executor, id: string): Promise<TShopRow | undefined> {
  const [row] = await ex.select().from(shopee_shops).where(eq(shopee_shops.id, id));
  return row;
}

/** A shop's columns changed (tokens, sync stamps, settings…). */
export async function updateShop(ex: Executor, id: string, patch: Partial<typeof shopee_shops.$inferInsert>) {
  await ex.update(shopee_shops).set(patch).where(eq(shopee_shops.id, id));
}

/** The last failure on the shop: state "error", unless it is disconnected or waits to be authorised again. */
export async function setShopError(ex: Executor, id: string, error: { code: string; message: string }) {
  await ex
    .update(shopee_shops)
    .set({
      state: sql`case when ${shopee_shops.state} in ('disconnected', 'reauthorize') then ${shopee_shops.state} else 'error' end`,
      last_error_code: error.code,
      last_error_message: error.message,
      last_error_at: new Date(),
    })
    .where(eq(shopee_shops.id, id));
}

/** The shop waits to be authorised again (unless disconnected meanwhile). */
export async function setShopReauthorize(ex: Executor, id: string, error: { code: string; message: string }) {
  await ex
    .update(shopee_shops)
    .set({
      state: 'reauthorize',
      last_error_code: error.code,
      last_error_message: error.message,
      last_error_at: new Date(),
    })
    .where(and(eq(shopee_shops.id, id), ne(shopee_shops.state, 'disconnected')));
}

/** A complete (or pushed) run went through: the shop is connected again, with the run's counts. */
export async function markShopSynced(
  ex: Executor,
  id: string,
  counts: TShopeeSyncCounts,
  syncedUntil: Date | null,
): Promise<void> {
  await ex
    .update(shopee_shops)
    .set({
      state: 'connected',
      last_error_code: null,
      last_error_message: null,
      last_error_at: null,
      last_sync_at: new Date(),
      last_sync_counts: counts,
      ...(syncedUntil ? { synced_until: syncedUntil } : {}),
    })
    .where(and(eq(shopee_shops.id, id), ne(shopee_shops.state, 'disconnected')));
}

/** Every shop that syncs (neither disconnected nor waiting to be authorised again, with a refresh token). */
export async function syncingShops(ex: Executor): Promise<TShopRow[]> {
  return ex
    .select()
    .from(shopee_shops)
    .where(
      and(notInArray(shopee_shops.state, ['disconnected', 'reauthorize']), isNotNull(shopee_shops.refresh_token_enc)),
    );
}

/** The syncing shops whose access token is unknown or ends before `before`. */
export async function shopsTokenDue(ex: Executor, before: Date): Promise<TShopRow[]> {
  return ex
    .select()
    .from(shopee_shops)
    .where(
      and(
        notInArray(shopee_shops.state, ['disconnected', 'reauthorize']),
        isNotNull(shopee_shops.refresh_token_enc),
        or(sql`${shopee_shops.token_expires_at} is null`, lt(shopee_shops.token_expires_at, before)),
      ),
    );
}

/** The seller's shops, newest connection first. */
export async function shopsOf(ex: Executor, customerId: string): Promise<TShopRow[]> {
  return ex
    .select()
    .from(shopee_shops)
    .where(eq(shopee_shops.customer_id, customerId))
    .orderBy(desc(shopee_shops.connected_at));
}

/**
 * The shop connected (made, or its tokens renewed): a connect again keeps the earlier of its `synced_until` and
 * `start`.
 */
export async function upsertShop(
  tx: Tx,
  values: Omit<typeof shopee_shops.$inferInsert, 'synced_until'>,
  start: Date,
): Promise<TShopRow> {
  const [row] = await tx
    .insert(shopee_shops)
    .values({ ...values, synced_until: start })
    .onConflictDoUpdate({
      target: [shopee_shops.customer_id, shopee_shops.shop_id],
      set: {
        ...values,
        synced_until: sql`least(coalesce(${shopee_shops.synced_until}, ${start.toISOString()}::timestamptz), ${start.toISOString()}::timestamptz)`,
      },
    })
    .returning();
  return row!;
}

/** One of the seller's shops changed: answers the row. */
export async function updateOwnShop(
  tx: Tx,
  customerId: string,
  id: string,
  patch: Partial<typeof shopee_shops.$inferInsert>,
): Promise<TShopRow> {
  const [updated] = await tx
    .update(shopee_shops)
    .set(patch)
    .where(and(eq(shopee_shops.id, id), eq(shopee_shops.customer_id, customerId)))
    .returning();
  return updated!;
}

/**
 * Takes a push once: pushes older than `keepSince` are forgotten, then this one's digest is recorded. False when the
 * same push was taken already.
 */
export async function takePush(
  tx: Tx,
  push: { digest: string; shop_id: number | null; code: number },
  keepSince: Date,
): Promise<boolean> {
  await tx.delete(shopee_pushes).where(lt(shopee_pushes.received_at, keepSince));
  const [fresh] = await tx
    .insert(shopee_pushes)
    .values(push)
    .onConflictDoNothing()
    .returning({ digest: shopee_pushes.digest });
  return !!fresh;
}

/** Every seller's connected (not disconnected) shops of this Shopee shop id. */
export async function shopsByShopId(ex: Executor, shopId: number): Promise<TShopRow[]> {
  return ex
    .select()
    .from(shopee_shops)
    .where(and(eq(shopee_shops.shop_id, shopId), ne(shopee_shops.state, 'disconnected')));
}
