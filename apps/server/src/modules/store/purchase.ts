/**
 * Use case: a direct purchase in the store (by a member, or by the seller for a member), which becomes a store order
 * and an outbound order in one transaction.
 */
import { randomBytes } from 'node:crypto';
import type { TDirectPurchase, TErrorCode } from '@wms/contracts';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError } from '../../platform/errors';
import { createOrdersFromRows, loadOrderLookups, type TOrderIntakeRow } from '../outbound';
import { activeMember, type TMemberActor } from './member-portal';
import * as repo from './store.repository';
import { CATALOG_MAX, centsText, money2, requireStore, type TStoreDeps, toCents } from './store.service';

/** A platform order number of the store's own: the short URL, the day and a random part. */
function storeOrderKey(store: repo.TStoreRow): string {
  const day = taipeiToday().replaceAll('-', '');
  return `${store.short_url.toUpperCase().slice(0, 30)}-${day}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

/**
 * Direct purchase: listed products at their selling price → one pending outbound order of channel `store`, through
 * the shared order-creation function (the order's checks are the importer's). Stock is shown, not held: allocation
 * decides what ships, so nothing is oversold. The warehouse is the one that can serve most of the cart.
 */
async function purchase(
  deps: TStoreDeps,
  actor: TActor,
  store: repo.TStoreRow,
  memberId: string | null,
  input: TDirectPurchase,
) {
  const customerId = store.customer_id;
  const ids = [...new Set(input.lines.map((l) => l.product_id))];
  if (ids.length !== input.lines.length) throw new AppError('DUPLICATE_VALUE', { field: 'product_id' });
  const listed = new Map((await repo.listedProducts(deps.db, customerId, CATALOG_MAX)).map((p) => [p.id, p]));
  for (const id of ids) if (!listed.has(id)) throw new AppError('PRODUCT_ABNORMAL', { field: 'lines' });
  const provider = (await repo.activeProviders(deps.db, customerId)).find((p) => p.id === input.logistics_provider_id);
  if (!provider) throw new AppError('PATHWAY_ABNORMAL', { field: 'logistics_provider_id' });

  let total = 0n;
  const lines = input.lines.map((l) => {
    const p = listed.get(l.product_id)!;
    const price = money2(p.selling_price)!;
    total += toCents(price) * BigInt(l.quantity);
    return { product: p, quantity: l.quantity, price };
  });
  const totalText = centsText(total);

  // The warehouse that can serve most units of the cart (ties: the first by code).
  const stock = await repo.availability(deps.db, customerId, ids, taipeiToday());
  const served = new Map<string, number>();
  for (const l of lines)
    for (const [code, available] of stock.get(l.product.id) ?? [])
      served.set(code, (served.get(code) ?? 0) + Math.min(available, l.quantity));
  const warehouse = [...served.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;

  const key = storeOrderKey(store);
  const rows: TOrderIntakeRow[] = lines.map((l, i) => ({
    row: i + 1,
    key,
    ...(i === 0
      ? {
          order: {
            platform_order_number: key,
            third_party_number: '',
            consignment_number: null,
            shipping_date: null,
            category: null,
            channel: 'store' as const,
            is_cross_border: false,
            recipient_name: input.recipient_name,
            recipient_phone: input.recipient_phone,
            recipient_mobile: '',
            recipient_postcode: input.recipient_postcode,
            recipient_address: input.recipient_address,
            sender_name: store.name.slice(0, 100),
            sender_phone: '',
            sender_postcode: '',
            sender_address: '',
            shipping_remark: input.shipping_remark ?? '',
            arrival_date: null,
            arrival_time_slot: null,
            cod: input.cod ?? false,
            cod_amount: input.cod ? totalText : null,
            total_amount: totalText,
            piece_count: 1,
            volume: null,
            platform: null,
            warehouse,
            logistics_provider: provider.code,
          },
        }
      : {}),
    line: { products: [l.product.number], quantity: l.quantity, unit_price: l.price },
  }));

  try {
    return await withTx(deps.db, async (tx) => {
      const lookups = await loadOrderLookups(
        tx,
        customerId,
        lines.map((l) => l.product.number),
      );
      const result = await createOrdersFromRows(tx, actor, rows, { lookups });
      const order = result.created[0];
      if (!order) throw new AppError('INTERNAL_ERROR');
      await repo.insertStoreOrder(tx, {
        customer_id: customerId,
        store_id: store.id,
        member_id: memberId,
        order_id: order.id,
      });
      await writeAudit(tx, actor, {
        action: 'create',
        entity: 'store_order',
        entityId: order.id,
        after: { number: order.number, total_amount: totalText, lines: input.lines, member_id: memberId },
      });
      return { id: order.id, number: order.number, total_amount: totalText };
    });
  } catch (err) {
    // The order's own checks (phone, postcode, a product needing a volume…): the first problem, by its field.
    if (err instanceof AppError && err.code === 'IMPORT_REJECTED') {
      const first = (err.params.errors as Array<{ code: TErrorCode; field?: string }> | undefined)?.[0];
      if (first) throw new AppError(first.code, { field: first.field ?? '' });
    }
    throw err;
  }
}

export async function memberPurchase(deps: TStoreDeps, actor: TMemberActor, input: TDirectPurchase) {
  const { member, store } = await activeMember(deps, actor);
  if (!store.is_open) throw new AppError('STORE_CLOSED');
  return purchase(deps, actor, store, member.id, input);
}

/** The seller orders from its own store (the main area's direct-purchase menu); a closed store still takes these. */
export async function sellerPurchase(deps: TStoreDeps, actor: TActor, input: TDirectPurchase) {
  const store = await requireStore(deps, tenantOf(actor));
  return purchase(deps, actor, store, null, input);
}
