import type { TShopeeShipSettings, TShopeeShop } from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import { decryptSecret, encryptSecret } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import {
  MarketplaceError,
  type ProviderRegistry,
  type TMarketplaceAuth,
  type TMarketplaceProvider,
  type TProviderServices,
} from '../../platform/providers';
import { findPlatform } from '../partners';
import * as repo from './shopee.repository';
import type { TShopRow } from './shopee.shops.repository';
import * as shopsRepo from './shopee.shops.repository';

export { findShop, type TShopRow } from './shopee.shops.repository';

/** What the Shopee use cases and jobs call out with. */
export type TShopeeServices = TProviderServices & { providers: ProviderRegistry };

/** A refresh token lives 30 days (Shopee): past that the seller authorises the shop again. */
export const REFRESH_LIFE_MS = 30 * 86_400_000;
/** A token this close to its end is refreshed (by the schedule, or before a call). */
export const REFRESH_AHEAD_MS = 30 * 60_000;

/** The Shopee adapter with the operator's partner settings; SHOPEE_NOT_CONFIGURED when they are missing. */
export function shopeeOf(services: TShopeeServices): TMarketplaceProvider {
  const c = services.config.shopee;
  if (!c.partnerId || !c.partnerKey) throw new AppError('SHOPEE_NOT_CONFIGURED');
  return services.providers.resolve('marketplace', 'shopee', {
    partnerId: c.partnerId,
    partnerKey: c.partnerKey,
    baseUrl: c.baseUrl,
    pushUrl: c.pushUrl,
  });
}

export const isShopeeConfigured = (services: TShopeeServices) =>
  !!(services.config.shopee.partnerId && services.config.shopee.partnerKey);

/** A Shopee failure as the seller sees it: code and message kept on the shop, then an AppError to answer. */
export function shopeeFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof MarketplaceError)
    return new AppError('SHOPEE_ERROR', { remote: err.remoteCode, message: err.message });
  return new AppError('SHOPEE_ERROR', { remote: 'unknown', message: err instanceof Error ? err.message : String(err) });
}

/**
 * Shopee's answers to `auth/access_token/get` that mean the refresh token itself is dead (expired after its 30 days,
 * revoked by the seller, the shop unlinked or banned): no retry can help, the seller must authorise the shop again.
 * (`v2.public.refresh_access_token`'s error list; `error_auth` is what Shopee answers "Invalid refresh_token." with.)
 */
const DEAD_REFRESH = new Set([
  'error_auth',
  'refresh_token_expired',
  'error_shop_refresh_token',
  'shop_access_expired',
  'shop_no_linked',
  'shop_banned',
]);

/** The shop waits for the seller to authorise it again: no call is made for it until then. */
export const needsReauthorisation = (shop: Pick<TShopRow, 'state'>) => shop.state === 'reauthorize';

/** Record the last failure on the shop: the screen shows the state "error" with Shopee's own message. */
export async function markShopError(db: Db, shop: TShopRow, err: unknown): Promise<void> {
  const shopee = err instanceof AppError && err.code === 'SHOPEE_ERROR';
  const remote =
    err instanceof MarketplaceError
      ? err.remoteCode
      : shopee
        ? String(err.params.remote)
        : err instanceof AppError
          ? err.code
          : 'unknown';
  const message = shopee ? String(err.params.message) : err instanceof Error ? err.message : String(err);
  // A shop waiting to be authorised again stays so (its refresh token is dead whatever a later call says).
  await shopsRepo.setShopError(db, shop.id, { code: remote, message: message.slice(0, 500) });
}

/** Shopee declared the refresh token dead: the shop shows "authorise again" and no call is made until it is. */
async function markReauthorise(db: Db, shop: TShopRow, err: MarketplaceError): Promise<void> {
  await shopsRepo.setShopReauthorize(db, shop.id, { code: err.remoteCode, message: err.message.slice(0, 500) });
  shop.state = 'reauthorize';
}

/** Tokens fresh from Shopee, encrypted, on the shop (a connect or a refresh). */
export function tokenColumns(key: Buffer, t: { accessToken: string; refreshToken: string; expiresIn: number }) {
  return {
    access_token_enc: encryptSecret(key, t.accessToken),
    refresh_token_enc: encryptSecret(key, t.refreshToken),
    token_expires_at: new Date(Date.now() + t.expiresIn * 1000),
    refresh_expires_at: new Date(Date.now() + REFRESH_LIFE_MS),
  };
}

/** One refresh at a time per shop in this process (a refresh token is spent by its use). */
const refreshing = new Map<string, Promise<TMarketplaceAuth>>();

/**
 * The shop's access for a call: the stored token while it has more than `REFRESH_AHEAD_MS` left (unless `force`:
 * Shopee just refused it), else a refreshed one. The fresh token is written onto `shop` itself, so every later call of
 * the same run (which holds that row) uses it at once instead of trying the dead one first. A refresh token Shopee
 * declares dead puts the shop in "reauthorize" (SHOPEE_REAUTHORIZE, never retried; no call is made for the shop again
 * until the seller authorises it); any other refused refresh marks it "error".
 */
export async function shopAccess(
  db: Db,
  services: TShopeeServices,
  shop: TShopRow,
  opts: { force?: boolean } = {},
): Promise<TMarketplaceAuth> {
  const key = services.config.encryptionKey;
  if (shop.state === 'disconnected' || !shop.refresh_token_enc) throw new AppError('SHOPEE_SHOP_DISCONNECTED');
  if (needsReauthorisation(shop)) throw new AppError('SHOPEE_REAUTHORIZE', { shop_id: shop.shop_id });
  const fresh = shop.token_expires_at && shop.token_expires_at.getTime() > Date.now() + REFRESH_AHEAD_MS;
  if (shop.access_token_enc && fresh && !opts.force)
    return { shopId: shop.shop_id, accessToken: decryptSecret(key, shop.access_token_enc) };
  const running = refreshing.get(shop.id);
  if (running) return running;
  const work = (async () => {
    // Another process (or an earlier call) may have refreshed meanwhile: read the row again.
    const current = (await shopsRepo.findShop(db, shop.id)) ?? shop;
    if (current.state === 'disconnected' || !current.refresh_token_enc) throw new AppError('SHOPEE_SHOP_DISCONNECTED');
    if (needsReauthorisation(current)) {
      shop.state = current.state;
      throw new AppError('SHOPEE_REAUTHORIZE', { shop_id: current.shop_id });
    }
    if (
      current.access_token_enc &&
      current.token_expires_at &&
      current.token_expires_at.getTime() > Date.now() + REFRESH_AHEAD_MS &&
      (!opts.force || current.access_token_enc !== shop.access_token_enc)
    ) {
      Object.assign(shop, pickTokens(current));
      return { shopId: current.shop_id, accessToken: decryptSecret(key, current.access_token_enc) };
    }
    const refreshToken = decryptSecret(key, current.refresh_token_enc);
    try {
      const tokens = await shopeeOf(services).refreshToken(
        { refreshToken, shopId: current.shop_id },
        { customerId: current.customer_id, reference: current.id },
      );
      const columns = tokenColumns(key, tokens);
      await shopsRepo.updateShop(db, current.id, columns);
      Object.assign(shop, columns);
      return { shopId: current.shop_id, accessToken: tokens.accessToken };
    } catch (err) {
      if (err instanceof MarketplaceError && !err.retryable && DEAD_REFRESH.has(err.remoteCode)) {
        await markReauthorise(db, current, err);
        shop.state = 'reauthorize';
        throw new AppError('SHOPEE_REAUTHORIZE', { shop_id: current.shop_id });
      }
      await markShopError(db, current, err);
      throw err instanceof MarketplaceError && !err.retryable ? shopeeFailure(err) : err;
    }
  })();
  refreshing.set(shop.id, work);
  try {
    return await work;
  } finally {
    refreshing.delete(shop.id);
  }
}

const pickTokens = (r: TShopRow) => ({
  access_token_enc: r.access_token_enc,
  refresh_token_enc: r.refresh_token_enc,
  token_expires_at: r.token_expires_at,
  refresh_expires_at: r.refresh_expires_at,
});

/** Call Shopee with the shop's token; when Shopee says the token is invalid, refresh once and call again. */
export async function withShopAccess<T>(
  db: Db,
  services: TShopeeServices,
  shop: TShopRow,
  call: (auth: TMarketplaceAuth) => Promise<T>,
): Promise<T> {
  const auth = await shopAccess(db, services, shop);
  try {
    return await call(auth);
  } catch (err) {
    if (!(err instanceof MarketplaceError) || err.kind !== 'auth') throw err;
    return call(await shopAccess(db, services, shop, { force: true }));
  }
}

/** The shop's settings with Shopee's defaults filled in. */
export function shipSettingsOf(shop: Pick<TShopRow, 'ship_settings'>): TShopeeShipSettings {
  const s = shop.ship_settings ?? {};
  return {
    pickup_address_id: s.pickup_address_id ?? null,
    pickup_slot: s.pickup_slot ?? 'recommended',
    pickup_after: s.pickup_after ?? null,
    dropoff_branches: s.dropoff_branches ?? [],
  };
}

/** The shop as the screen shows it. */
export async function toShop(ex: Executor, row: TShopRow): Promise<TShopeeShop> {
  const platform = await findPlatform(ex, row.customer_id, row.platform_id);
  const abnormal = await repo.abnormalCount(ex, row.id);
  const expiring =
    row.state === 'connected' &&
    !!row.refresh_expires_at &&
    row.refresh_expires_at.getTime() < Date.now() + 3 * 86_400_000;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: row.id,
    shop_id: row.shop_id,
    name: row.name,
    platform_code: platform?.code ?? '',
    state: expiring ? 'token_expiring' : (row.state as TShopeeShop['state']),
    token_expires_at: iso(row.token_expires_at),
    refresh_expires_at: iso(row.refresh_expires_at),
    last_error_code: row.last_error_code,
    last_error_message: row.last_error_message,
    last_error_at: iso(row.last_error_at),
    last_sync_at: iso(row.last_sync_at),
    last_sync_counts: row.last_sync_counts ?? null,
    abnormal_orders: abnormal,
    ship_mode: (row.ship_mode as TShopeeShop['ship_mode']) ?? null,
    ship_settings: shipSettingsOf(row),
    connected_at: row.connected_at.toISOString(),
  };
}
