import type { TShopeeArrangement, TShopeeShipSettings } from '@wms/contracts';
import type { TAppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { MarketplaceError, type TShippingParameter } from '../../platform/providers';
import type { TShopeeOrderRow } from './shopee.repository';
import * as repo from './shopee.repository';
import {
  findShop,
  markShopError,
  shipSettingsOf,
  shopeeFailure,
  shopeeOf,
  type TShopRow,
  withShopAccess,
} from './shopee.shops';

/**
 * Shopee-arranged (integrated) channels at consignment time: the order's shipment is arranged with Shopee
 * (`get_shipping_parameter` → `ship_order` pickup or dropoff, the shop's choice), its tracking number read from Shopee
 * and Shopee's own label fetched (`create_shipping_document` → `get_shipping_document_result` until READY →
 * `download_shipping_document`).
 *
 * `ship_order` is called at most once per order, whatever is retried or killed: a short transaction first claims the
 * order (`arranging_at`, so two runs never arrange it at once); the call is made outside any transaction; Shopee's
 * answer is recorded (`arranged_at`) in another. A run that finds an earlier attempt (`arranging_at` set: a run killed
 * mid-call, or a call whose answer was lost) asks Shopee first — the tracking number, then the order's status — and
 * calls `ship_order` only when Shopee still has the order unarranged (READY_TO_SHIP).
 */

/**
 * A claim older than this is a run that died (killed mid-call): the next run may take the order, and asks Shopee first.
 * The same span as a job's stale heartbeat (JOB_STALE_SECONDS, 60 s by default), well above one Shopee call's timeout.
 */
const claimLapseMs = (deps: TAppDeps) => deps.config.jobStaleMs;
/** Tries of `get_tracking_number` right after arranging (Shopee may need a moment to assign it). */
const TRACKING_TRIES = 4;

/** The label type Shopee prints for the channel: convenience-store channels thermal, the others A4/A6 normal. */
export const documentTypeOf = (channelName: string | null) =>
  /7-?ELEVEN|全家|萊爾富|OK|店到店/i.test(channelName ?? '') ? 'THERMAL_AIR_WAYBILL' : 'NORMAL_AIR_WAYBILL';

/** Minutes after midnight (Taipei) a slot starts: its text "HH:MM-…", else the time of its `date`. */
function slotStart(slot: { date: number; text: string }): number {
  const m = /^(\d{1,2}):(\d{2})/.exec(slot.text.trim());
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  return Math.floor(((slot.date + 8 * 3600) % 86_400) / 60);
}
const taipeiDate = (unix: number) => new Date((unix + 8 * 3600) * 1000).toISOString().slice(0, 10);

/**
 * What `ship_order` is sent, by the shop's settings: pickup — the chosen address (else the one Shopee flags as pickup
 * address, else the default, else the first) and the slot by the rule (Shopee's recommended one, the earliest, or the
 * first starting at or after the chosen time of day); dropoff — the shop's branch for the channel when the channel asks
 * for one (else the first Shopee lists). Throws the error the order's row shows when nothing fits.
 */
export function chooseArrangement(
  param: TShippingParameter,
  mode: 'pickup' | 'dropoff',
  settings: TShopeeShipSettings,
  channelId: number | null,
  channel: string,
): {
  input: { pickup?: { addressId: number; pickupTimeId: string }; dropoff?: { branchId?: number } };
  arrangement: TShopeeArrangement;
} {
  if (mode === 'pickup') {
    const address =
      settings.pickup_address_id !== null
        ? param.pickup.find((a) => a.addressId === settings.pickup_address_id)
        : (param.pickup.find((a) => a.flags.includes('pickup_address')) ??
          param.pickup.find((a) => a.flags.includes('default_address')) ??
          param.pickup[0]);
    if (!address && settings.pickup_address_id !== null)
      throw new AppError('SHOPEE_OPTION_UNKNOWN', { field: 'pickup_address_id', value: settings.pickup_address_id });
    const slots = [...(address?.slots ?? [])].sort((a, b) => a.date - b.date || slotStart(a) - slotStart(b));
    const after = settings.pickup_after
      ? Number(settings.pickup_after.slice(0, 2)) * 60 + Number(settings.pickup_after.slice(3))
      : 0;
    const slot =
      settings.pickup_slot === 'earliest'
        ? slots[0]
        : settings.pickup_slot === 'after'
          ? slots.find((s) => slotStart(s) >= after)
          : (slots.find((s) => s.recommended) ?? slots[0]);
    if (!address || !slot) throw new AppError('SHOPEE_NO_PICKUP_SLOT', { channel });
    return {
      input: { pickup: { addressId: address.addressId, pickupTimeId: slot.id } },
      arrangement: {
        mode,
        address_id: address.addressId,
        address: address.address,
        slot_date: taipeiDate(slot.date),
        slot_text: slot.text,
      },
    };
  }
  if (!param.infoNeeded.dropoff?.includes('branch_id')) return { input: { dropoff: {} }, arrangement: { mode } };
  const wanted = settings.dropoff_branches.find((b) => b.channel_id === channelId)?.branch_id;
  const branch = wanted !== undefined ? param.dropoff.find((b) => b.branchId === wanted) : param.dropoff[0];
  if (!branch && wanted !== undefined)
    throw new AppError('SHOPEE_OPTION_UNKNOWN', { field: 'dropoff_branches', value: wanted });
  if (!branch) throw new AppError('SHOPEE_CHANNEL_NOT_SET_UP', { channel });
  return {
    input: { dropoff: { branchId: branch.branchId } },
    arrangement: { mode, branch_id: branch.branchId, branch: branch.address },
  };
}

/** The platform-logistics Shopee order behind one of the seller's orders (none: not a Shopee-arranged order). */
export async function platformLogisticsOrder(
  deps: TAppDeps,
  customerId: string,
  orderId: string,
): Promise<TShopeeOrderRow | undefined> {
  return repo.platformLogisticsOrderOf(deps.database.db, customerId, orderId);
}

async function usableShop(deps: TAppDeps, row: TShopeeOrderRow): Promise<TShopRow> {
  const shop = await findShop(deps.database.db, row.shop_ref);
  if (!shop || shop.state === 'disconnected') throw new AppError('SHOPEE_SHOP_DISCONNECTED');
  if (shop.state === 'reauthorize') throw new AppError('SHOPEE_REAUTHORIZE', { shop_id: shop.shop_id });
  return shop;
}

/** A Shopee answer as the order row shows it (the shop keeps auth/sign failures too). */
async function failure(deps: TAppDeps, shop: TShopRow, err: unknown): Promise<AppError> {
  if (err instanceof MarketplaceError && (err.kind === 'auth' || err.kind === 'sign'))
    await markShopError(deps.database.db, shop, err);
  if (err instanceof MarketplaceError && err.retryable) return new AppError('SHOPEE_UNAVAILABLE');
  return shopeeFailure(err);
}

/**
 * Arrange the order with Shopee (once) and get its tracking number and label. Throws an AppError the consignment row
 * shows (channel not set up, Shopee's refusal, Shopee unavailable, tracking number not given yet).
 */
export async function arrangeShopeeShipment(
  deps: TAppDeps,
  row: TShopeeOrderRow,
): Promise<{ trackingNumber: string; label: Buffer | null; labelError: string | null }> {
  const db = deps.database.db;
  const shop = await usableShop(deps, row);
  const provider = shopeeOf(deps);
  const ctx = { customerId: row.customer_id, reference: row.id };
  const channel = row.logistics_channel_name ?? String(row.logistics_channel_id ?? '');
  let current = row;
  if (!current.arranged_at) {
    // Claim the order: one run at a time arranges it.
    const claimed = await repo.claimArranging(db, row.id, new Date(Date.now() - claimLapseMs(deps)));
    if (!claimed) {
      const now = await repo.findShopeeOrder(db, row.id);
      if (!now?.arranged_at) throw new AppError('SHOPEE_ARRANGING', { channel });
      current = now;
    } else {
      try {
        // An earlier attempt may have reached Shopee: ask before arranging again.
        let arranged = false;
        let arrangement: TShopeeArrangement | null = null;
        if (row.arranging_at) {
          const tn = await withShopAccess(db, deps, shop, (auth) => provider.trackingNumber(auth, row.order_sn, ctx));
          const [detail] = tn
            ? []
            : await withShopAccess(db, deps, shop, (auth) => provider.orderDetails(auth, [row.order_sn], ctx));
          arranged = !!tn || (!!detail && detail.status !== 'READY_TO_SHIP');
        }
        if (!arranged) {
          const param = await withShopAccess(db, deps, shop, (auth) =>
            provider.shippingParameter(auth, row.order_sn, ctx),
          );
          const modes = (['pickup', 'dropoff'] as const).filter((m) => param.infoNeeded[m] !== undefined);
          const mode = modes.length === 1 ? modes[0]! : modes.find((m) => m === shop.ship_mode);
          if (!mode) throw new AppError('SHOPEE_CHANNEL_NOT_SET_UP', { channel });
          const chosen = chooseArrangement(param, mode, shipSettingsOf(shop), row.logistics_channel_id, channel);
          arrangement = chosen.arrangement;
          await withShopAccess(db, deps, shop, (auth) =>
            provider.arrangeShipment(auth, { orderNumber: row.order_sn, ...chosen.input }, ctx),
          );
        }
        current = await repo.markArranged(db, row.id, arrangement);
      } catch (err) {
        // A definite refusal (or our own): nothing was arranged, the claim goes. A lost answer (5xx, transport): the
        // claim lapses at once but stays as "attempted", so the next run asks Shopee first.
        const unknown = err instanceof MarketplaceError ? err.retryable : !(err instanceof AppError);
        await repo.setArrangingAt(db, row.id, unknown ? new Date(Date.now() - claimLapseMs(deps) - 1000) : null);
        throw err instanceof AppError ? err : await failure(deps, shop, err);
      }
    }
  }
  let trackingNumber = current.tracking_number ?? '';
  try {
    for (let i = 0; !trackingNumber && i < TRACKING_TRIES; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 300 * i));
      trackingNumber = await withShopAccess(db, deps, shop, (auth) => provider.trackingNumber(auth, row.order_sn, ctx));
    }
  } catch (err) {
    throw await failure(deps, shop, err);
  }
  if (!trackingNumber) throw new AppError('SHOPEE_TRACKING_PENDING', { channel });
  await repo.setTrackingNumber(db, row.id, trackingNumber);
  const { label, error } = await shopeeLabel(deps, shop, row, trackingNumber);
  return { trackingNumber, label, labelError: error };
}

/** Shopee's label of an arranged order (null with the reason when Shopee has not made it yet or refused). */
export async function shopeeLabel(
  deps: TAppDeps,
  shop: TShopRow | null,
  row: TShopeeOrderRow,
  trackingNumber: string,
): Promise<{ label: Buffer | null; error: string | null }> {
  try {
    const s = shop ?? (await usableShop(deps, row));
    const label = await withShopAccess(deps.database.db, deps, s, (auth) =>
      shopeeOf(deps).shippingLabel(
        auth,
        { orderNumber: row.order_sn, trackingNumber, documentType: documentTypeOf(row.logistics_channel_name) },
        { customerId: row.customer_id, reference: row.id },
      ),
    );
    return { label, error: label ? null : 'PROCESSING' };
  } catch (err) {
    return { label: null, error: err instanceof Error ? err.message.slice(0, 300) : String(err) };
  }
}
