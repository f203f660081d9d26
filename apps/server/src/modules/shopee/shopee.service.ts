import { createHash } from 'node:crypto';
import type {
  TLanguage,
  TShopeeOrder,
  TShopeeShipOptions,
  TShopeeShipSettings,
  TShopeeShop,
  ZShopeeConnect,
  ZShopeeOrderQuery,
} from '@wms/contracts';
import { ERROR_CATALOGUE, errorMessage, type TErrorCode } from '@wms/contracts';
import type { z } from 'zod';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { MarketplaceError, type TShippingParameter } from '../../platform/providers';
import { orderNumbersOf } from '../outbound';
import { findPlatformByCode, insertPlatform } from '../partners';
import * as repo from './shopee.repository';
import {
  findShop,
  isShopeeConfigured,
  shopeeFailure,
  shopeeOf,
  type TShopRow,
  tokenColumns,
  toShop,
  withShopAccess,
} from './shopee.shops';
import * as shopsRepo from './shopee.shops.repository';
import { queueShopSync } from './shopee.sync-jobs';

/** Where Shopee sends the seller back after authorising: the screen, which posts `code` and `shop_id` to us. */
const returnUrl = (deps: TAppDeps) => `${deps.config.publicUrl.replace(/\/+$/, '')}/module-shopee-create`;

export function authUrl(deps: TAppDeps, _actor: TActor): { url: string } {
  return { url: shopeeOf(deps).authUrl(returnUrl(deps)) };
}

async function ownShop(deps: TAppDeps, actor: TActor, id: string): Promise<TShopRow> {
  const shop = await findShop(deps.database.db, id);
  if (!shop || shop.customer_id !== tenantOf(actor)) throw notFound();
  return shop;
}

export async function listShops(
  deps: TAppDeps,
  actor: TActor,
): Promise<{ configured: boolean; results: TShopeeShop[] }> {
  const db = deps.database.db;
  const rows = await shopsRepo.shopsOf(db, tenantOf(actor));
  const results: TShopeeShop[] = [];
  for (const r of rows) results.push(await toShop(db, r));
  return { configured: isShopeeConfigured(deps), results };
}

/**
 * The seller came back from Shopee: exchange the one-time code for tokens (outside any transaction), then store the
 * shop, its e-commerce platform (`SHOPEE-<shop id>`, made once) and the audit row in one transaction, and queue the
 * first sync. Connecting a shop again (after a disconnect or an error) renews its tokens.
 */
export async function connectShop(
  deps: TAppDeps,
  actor: TActor,
  input: z.infer<typeof ZShopeeConnect>,
): Promise<TShopeeShop> {
  const customerId = tenantOf(actor);
  const provider = shopeeOf(deps);
  let tokens: Awaited<ReturnType<typeof provider.getToken>>;
  try {
    tokens = await provider.getToken({ code: input.code, shopId: input.shop_id }, { customerId });
  } catch (err) {
    throw shopeeFailure(err);
  }
  const db = deps.database.db;
  const shop = await withTx(db, async (tx) => {
    const code = `SHOPEE-${input.shop_id}`;
    const platform =
      (await findPlatformByCode(tx, customerId, code)) ??
      (await insertPlatform(tx, {
        customer_id: customerId,
        code,
        name: `Shopee ${input.shop_id}`,
        store_number: String(input.shop_id),
        url: `https://shopee.tw/shop/${input.shop_id}`,
        callback_enabled: true,
      }));
    const values = {
      customer_id: customerId,
      shop_id: input.shop_id,
      name: platform.name,
      platform_id: platform.id,
      state: 'connected',
      ...tokenColumns(deps.config.encryptionKey, tokens),
      last_error_code: null,
      last_error_message: null,
      last_error_at: null,
      connected_at: new Date(),
    };
    // The first sync starts this far back (the seller's choice). Connecting again re-covers the chosen days (nothing
    // is made twice), or more when the shop's last complete run is older still.
    const start = new Date(Date.now() - input.first_sync_days * 86_400_000);
    const row = await shopsRepo.upsertShop(tx, values, start);
    await writeAudit(tx, actor, {
      action: 'shopee.connect',
      entity: 'shopee_shop',
      entityId: row.id,
      after: { shop_id: input.shop_id, first_sync_days: input.first_sync_days },
    });
    await queueShopSync(tx, deps.jobs, row, { createdBy: actor.id }).catch((err) => {
      if (!(err instanceof AppError && err.code === 'JOB_ALREADY_QUEUED')) throw err;
    });
    return row;
  });
  deps.jobs.kick('shopee.sync');
  return toShop(db, shop);
}

/** Forget the shop's tokens and stop syncing it (its orders stay). */
export async function disconnectShop(deps: TAppDeps, actor: TActor, id: string): Promise<TShopeeShop> {
  await ownShop(deps, actor, id);
  const db = deps.database.db;
  const row = await withTx(db, async (tx) => {
    const updated = await shopsRepo.updateOwnShop(tx, tenantOf(actor), id, {
      state: 'disconnected',
      access_token_enc: null,
      refresh_token_enc: null,
      token_expires_at: null,
    });
    await writeAudit(tx, actor, { action: 'shopee.disconnect', entity: 'shopee_shop', entityId: id });
    return updated;
  });
  return toShop(db, row);
}

export async function syncNow(deps: TAppDeps, actor: TActor, id: string): Promise<{ job_id: string }> {
  const shop = await ownShop(deps, actor, id);
  if (shop.state === 'disconnected') throw new AppError('SHOPEE_SHOP_DISCONNECTED');
  if (shop.state === 'reauthorize') throw new AppError('SHOPEE_REAUTHORIZE', { shop_id: shop.shop_id });
  if (!isShopeeConfigured(deps)) throw new AppError('SHOPEE_NOT_CONFIGURED');
  const job = await withTx(deps.database.db, async (tx) => {
    const queued = await queueShopSync(tx, deps.jobs, shop, { createdBy: actor.id });
    await writeAudit(tx, actor, { action: 'shopee.sync_requested', entity: 'shopee_shop', entityId: id });
    return queued;
  });
  deps.jobs.kick('shopee.sync');
  return { job_id: job.id };
}

/**
 * What the shop can choose from, read from Shopee: its addresses (`get_address_list`) and, per Shopee-arranged channel
 * with an order waiting to be arranged, the modes and drop-off branches (`get_shipping_parameter` of one such order:
 * Shopee lists branches per order only). A channel whose order Shopee no longer answers for is left out.
 */
export async function shipOptions(deps: TAppDeps, actor: TActor, id: string): Promise<TShopeeShipOptions> {
  const shop = await ownShop(deps, actor, id);
  if (shop.state === 'disconnected') throw new AppError('SHOPEE_SHOP_DISCONNECTED');
  if (shop.state === 'reauthorize') throw new AppError('SHOPEE_REAUTHORIZE', { shop_id: shop.shop_id });
  const db = deps.database.db;
  const provider = shopeeOf(deps);
  const ctx = { customerId: shop.customer_id, reference: shop.id };
  const waiting = await repo.channelsAwaitingArrangement(db, shop.id);
  try {
    const addresses = await withShopAccess(db, deps, shop, (auth) => provider.addressList(auth, ctx));
    const channels: TShopeeShipOptions['channels'] = [];
    for (const w of waiting) {
      let param: TShippingParameter;
      try {
        param = await withShopAccess(db, deps, shop, (auth) => provider.shippingParameter(auth, w.order_sn, ctx));
      } catch (err) {
        // The order moved on at Shopee (no longer ready to ship): its channel is simply not offered now.
        if (err instanceof MarketplaceError && !err.retryable && err.kind !== 'auth' && err.kind !== 'sign') continue;
        throw err;
      }
      channels.push({
        channel_id: w.channel_id!,
        channel_name: w.channel_name ?? String(w.channel_id),
        modes: (['pickup', 'dropoff'] as const).filter((m) => param.infoNeeded[m] !== undefined),
        branches: param.infoNeeded.dropoff?.includes('branch_id')
          ? param.dropoff.map((b) => ({ branch_id: b.branchId, address: b.address }))
          : [],
      });
    }
    return {
      pickup_addresses: addresses
        .filter((a) => a.flags.includes('pickup_address') || a.flags.includes('default_address'))
        .map((a) => ({ address_id: a.addressId, address: a.address, flags: a.flags })),
      channels,
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof MarketplaceError && err.retryable) throw new AppError('SHOPEE_UNAVAILABLE');
    throw shopeeFailure(err);
  }
}

/**
 * Pickup or dropoff for the shop's Shopee-arranged parcels, and (when given) the pickup address, time-slot rule and
 * drop-off branches — each checked against what Shopee lists for the shop before it is kept.
 */
export async function setShipMode(
  deps: TAppDeps,
  actor: TActor,
  id: string,
  input: { ship_mode: 'pickup' | 'dropoff' | null; ship_settings?: TShopeeShipSettings | undefined },
): Promise<TShopeeShop> {
  const before = await ownShop(deps, actor, id);
  const db = deps.database.db;
  const settings = input.ship_settings;
  if (settings) {
    if (settings.pickup_slot === 'after' && !settings.pickup_after)
      throw new AppError('REQUIRED_FIELD', { field: 'pickup_after' });
    const channels = new Set<number>();
    for (const b of settings.dropoff_branches) {
      if (channels.has(b.channel_id))
        throw new AppError('INVALID_FIELD', { field: 'dropoff_branches', value: b.channel_id });
      channels.add(b.channel_id);
    }
    const changed =
      settings.pickup_address_id !== (before.ship_settings?.pickup_address_id ?? null) ||
      settings.dropoff_branches.some(
        (b) =>
          !(before.ship_settings?.dropoff_branches ?? []).some(
            (k) => k.channel_id === b.channel_id && k.branch_id === b.branch_id,
          ),
      );
    if (changed) {
      const options = await shipOptions(deps, actor, id);
      if (
        settings.pickup_address_id !== null &&
        !options.pickup_addresses.some((a) => a.address_id === settings.pickup_address_id)
      )
        throw new AppError('SHOPEE_OPTION_UNKNOWN', { field: 'pickup_address_id', value: settings.pickup_address_id });
      for (const b of settings.dropoff_branches) {
        const ch = options.channels.find((c) => c.channel_id === b.channel_id);
        if (!ch?.branches.some((k) => k.branch_id === b.branch_id))
          throw new AppError('SHOPEE_OPTION_UNKNOWN', { field: 'dropoff_branches', value: b.branch_id });
      }
    }
  }
  const row = await withTx(db, async (tx) => {
    const updated = await shopsRepo.updateOwnShop(tx, tenantOf(actor), id, {
      ship_mode: input.ship_mode,
      ...(settings ? { ship_settings: { ...settings, pickup_after: settings.pickup_after ?? null } } : {}),
    });
    await writeAudit(tx, actor, {
      action: 'shopee.ship_mode',
      entity: 'shopee_shop',
      entityId: id,
      before: { ship_mode: before.ship_mode, ship_settings: before.ship_settings },
      after: { ship_mode: input.ship_mode, ...(settings ? { ship_settings: settings } : {}) },
    });
    return updated;
  });
  return toShop(db, row);
}

/** "Retry now": a sync of the shop's abnormal orders (these, or all up to 500), in one job. */
export async function retryOrders(
  deps: TAppDeps,
  actor: TActor,
  id: string,
  input: { order_ids?: string[] },
): Promise<{ job_id: string | null; orders: number }> {
  const shop = await ownShop(deps, actor, id);
  if (shop.state === 'disconnected') throw new AppError('SHOPEE_SHOP_DISCONNECTED');
  if (shop.state === 'reauthorize') throw new AppError('SHOPEE_REAUTHORIZE', { shop_id: shop.shop_id });
  const job = await withTx(deps.database.db, async (tx) => {
    const rows = await repo.abnormalOrderSns(tx, tenantOf(actor), id, input.order_ids);
    if (rows.length === 0) return null;
    const queued = await queueShopSync(tx, deps.jobs, shop, { orderSn: rows, createdBy: actor.id });
    await writeAudit(tx, actor, {
      action: 'shopee.retry_abnormal',
      entity: 'shopee_shop',
      entityId: id,
      after: { orders: rows.length },
    });
    return { id: queued.id, orders: rows.length };
  });
  if (job) deps.jobs.kick('shopee.sync');
  return { job_id: job?.id ?? null, orders: job?.orders ?? 0 };
}

export async function listShopOrders(
  deps: TAppDeps,
  actor: TActor,
  id: string,
  query: z.infer<typeof ZShopeeOrderQuery>,
  lang: TLanguage,
): Promise<{ count: number; results: TShopeeOrder[] }> {
  await ownShop(deps, actor, id);
  const db = deps.database.db;
  const { rows, count } = await repo.shopOrderPage(db, tenantOf(actor), id, query);
  // Our order's number, read from outbound.
  const numbers = await orderNumbersOf(
    db,
    tenantOf(actor),
    rows.flatMap((o) => (o.order_id ? [o.order_id] : [])),
  );
  return {
    count,
    results: rows.map((o) => ({
      id: o.id,
      order_sn: o.order_sn,
      shopee_status: o.shopee_status,
      state: o.state as TShopeeOrder['state'],
      order_id: o.order_id,
      order_number: (o.order_id && numbers.get(o.order_id)) || null,
      problem: o.problem
        ? {
            code: o.problem.code,
            message: problemMessage(o.problem, lang),
            field: o.problem.field ?? null,
            value: o.problem.value ?? null,
          }
        : null,
      shipped_at: o.shipped_at?.toISOString() ?? null,
      logistics_channel_name: o.logistics_channel_name,
      platform_logistics: o.platform_logistics,
      tracking_number: o.tracking_number,
      arrangement: o.arrangement ?? null,
      updated_at: o.updated_at.toISOString(),
    })),
  };
}

function problemMessage(
  p: { code: string; message?: string; field?: string | null; value?: string | null },
  lang: TLanguage,
): string {
  if (!(p.code in ERROR_CATALOGUE)) return p.message ?? p.code;
  const message = errorMessage(p.code as TErrorCode, lang, p.field ? { field: p.field } : {});
  return p.value ? `${message}: ${p.value}` : message;
}

/**
 * How old a push may be (its `timestamp`, unix seconds) and still be taken: Shopee's own timestamp validity (a signed
 * call is valid 5 minutes). An older push is refused as a replay; within the window, `shopee_pushes` remembers every
 * push taken, so a re-delivery (or a replay inside the window) does nothing twice. A push missed this way is not lost:
 * the 15-minute schedule lists every order updated since the last run.
 */
export const PUSH_TOLERANCE_S = 300;

/**
 * A push from Shopee: the `Authorization` header must be the HMAC of our push URL and the raw body with the partner
 * key (else 401, nothing done), and its `timestamp` within PUSH_TOLERANCE_S of now (else 401 SHOPEE_PUSH_EXPIRED).
 * Each push is taken once (by the digest of its raw body): a re-delivery is answered the same and does nothing. An
 * order status push (code 3) queues a sync of that order for every shop of that shop id, in the transaction that
 * records the push; anything else is acknowledged. The route answers 200 with an empty body (what Shopee expects).
 */
export async function handlePush(
  deps: TAppDeps,
  rawBody: string,
  authorization: string | undefined,
  body: { shop_id?: number; code: number; timestamp?: number; data?: Record<string, unknown> },
): Promise<{ taken: boolean }> {
  const provider = shopeeOf(deps);
  if (!authorization || !provider.verifyPush(rawBody, authorization)) throw new AppError('SHOPEE_SIGNATURE_INVALID');
  const now = Date.now() / 1000;
  if (typeof body.timestamp !== 'number' || Math.abs(now - body.timestamp) > PUSH_TOLERANCE_S)
    throw new AppError('SHOPEE_PUSH_EXPIRED', { field: 'timestamp' });
  const orderSn = typeof body.data?.ordersn === 'string' ? body.data.ordersn : null;
  const db = deps.database.db;
  const digest = createHash('sha256').update(rawBody, 'utf8').digest('hex');
  let queued = false;
  const taken = await withTx(db, async (tx) => {
    const fresh = await shopsRepo.takePush(
      tx,
      { digest, shop_id: body.shop_id ?? null, code: body.code },
      new Date(Date.now() - 2 * PUSH_TOLERANCE_S * 1000),
    );
    if (!fresh) return false;
    if (body.code !== 3 || !orderSn || !body.shop_id) return true;
    const shops = await shopsRepo.shopsByShopId(tx, body.shop_id);
    for (const shop of shops) await queueShopSync(tx, deps.jobs, shop, { orderSn: [orderSn] });
    queued = shops.length > 0;
    return true;
  });
  if (queued) deps.jobs.kick('shopee.sync');
  return { taken };
}
