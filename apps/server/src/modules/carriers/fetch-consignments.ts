/**
 * Use case "get consignment numbers": each selected order's number from its carrier's API (ECPay, T-cat) or from
 * Shopee for Shopee-arranged orders, each stored in its own short transaction.
 */
import {
  ECPAY_AMOUNT_MAX,
  ECPAY_AMOUNT_MIN,
  errorMessage,
  receiverIssue,
  senderIssue,
  type TConsignmentOutcome,
  type TErrorCode,
  type TLanguage,
  type TOrderStatus,
} from '@wms/contracts';
import { allOf } from '../../db/client';
import { type TActor, tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { acceptsConsignment, findOrders, setConsignment, type TOrderRow } from '../outbound';
import { providerCredentials, providersByIds } from '../partners';
import { arrangeShopeeShipment, platformArrangedOrders, type TShopeeOrderRow } from '../shopee';
import * as repo from './carriers.repository';
import type { TEcpaySetting } from './providers/ecpay';
import type { TTcatSetting } from './providers/tcat';

/**
 * "Get consignment numbers" (/deliver-opser, /deliver-operation): for each selected order whose logistics provider
 * has a carrier API, the carrier is called OUTSIDE any database transaction (the attempt is logged by OutgoingHttp,
 * reference = the order id), then the number is stored on the order by outbound's `setConsignment` in its own short
 * transaction with its audit row (never replacing a number the order got meanwhile). Orders are handled one by one;
 * every order gets a result — a carrier refusal is reported with its translated message, never lost.
 */
export async function fetchConsignments(
  deps: TAppDeps,
  actor: TActor,
  orderIds: string[],
  lang: TLanguage,
): Promise<TConsignmentOutcome[]> {
  const customerId = tenantOf(actor);
  const db = deps.database.db;
  const ids = [...new Set(orderIds)];
  // The orders with their logistics provider and pickup store, each read from the module that owns it.
  const orders = await findOrders(db, customerId, ids);
  const providerIds = [...new Set(orders.flatMap((o) => (o.logistics_provider_id ? [o.logistics_provider_id] : [])))];
  const [providers, stores, arranged] = await allOf(db, [
    () => providersByIds(db, customerId, providerIds),
    () => repo.cvsStoresOf(db, customerId, ids),
    // Orders of Shopee-arranged channels: their number and label come from Shopee, not from a carrier of ours.
    () => platformArrangedOrders(db, customerId, ids),
  ]);
  const providerById = new Map(providers.map((p) => [p.id, p]));
  const storeByOrder = new Map(stores.map((r) => [r.order_id, r]));
  const byId = new Map(
    orders.map((order) => {
      const p = order.logistics_provider_id ? providerById.get(order.logistics_provider_id) : undefined;
      const row = {
        order,
        carrierType: p?.carrier_type ?? null,
        providerName: p?.name ?? null,
        temperature: p?.temperature_code ?? null,
        specification: p?.specification_code ?? null,
        senderName: p?.sender_name ?? null,
        senderPhone: p?.sender_phone ?? null,
        senderPostcode: p?.sender_postcode ?? null,
        senderAddress: p?.sender_address ?? null,
        store: storeByOrder.get(order.id) ?? null,
      };
      return [order.id, row] as const;
    }),
  );
  const shopeeArranged = new Map(arranged.map((r) => [r.order_id!, r]));

  const failed = (id: string, number: string | null, code: TErrorCode, params: Record<string, unknown> = {}) =>
    ({
      order_id: id,
      number,
      outcome: 'failed',
      consignment_number: null,
      label: false,
      code,
      message: errorMessage(code, lang, params),
    }) satisfies TConsignmentOutcome;

  const results: TConsignmentOutcome[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) {
      results.push(failed(id, null, 'NOT_FOUND'));
      continue;
    }
    const o = row.order;
    const base = { order_id: o.id, number: o.number, code: null, message: null, label: false };
    if (o.consignment_number) {
      results.push({ ...base, outcome: 'already', consignment_number: o.consignment_number });
      continue;
    }
    const shopee = shopeeArranged.get(o.id);
    if (shopee) {
      results.push(await shopeeConsignment(deps, actor, o, shopee, lang));
      continue;
    }
    if (!o.logistics_provider_id || !row.carrierType) {
      results.push({ ...base, outcome: 'no_carrier', consignment_number: null });
      continue;
    }
    if (!acceptsConsignment(o.status as TOrderStatus)) {
      results.push(failed(o.id, o.number, 'INVALID_STATUS_TRANSITION', { status: o.status, action: 'consignment' }));
      continue;
    }
    if (row.carrierType !== 'ecpay' && row.carrierType !== 'tcat') {
      results.push(failed(o.id, o.number, 'CARRIER_NOT_SUPPORTED', { carrier: row.carrierType }));
      continue;
    }
    const carrierCode = row.carrierType;
    // Convenience-store pickup: an ECPay CVS consignment to the order's store (its LogisticsSubType: chain, B2C/C2C).
    const store = row.store;
    if (store && carrierCode !== 'ecpay') {
      results.push(failed(o.id, o.number, 'CVS_NOT_ECPAY'));
      continue;
    }
    const home = !store;
    const c2cCellRequired = store?.subtype === 'UNIMARTC2C' || store?.subtype === 'HILIFEC2C';
    // The sender: the order's own (typed, imported, or its defaults when it was made) when it meets the carrier's
    // rules, else its logistics provider's sender (set and checked on /express-provider). An order's default sender is
    // the company name, which ECPay mostly refuses (2–5 CJK characters): the provider's sender is what ships then.
    const own = {
      name: o.sender_name,
      phone: o.sender_phone,
      postcode: o.sender_postcode,
      address: o.sender_address,
    };
    const sender =
      !senderIssue(carrierCode, own, { home, c2cCellRequired }) || !row.senderName
        ? own
        : {
            name: row.senderName,
            phone: row.senderPhone || '',
            postcode: row.senderPostcode || '',
            address: row.senderAddress || '',
          };
    const recipient = {
      name: o.recipient_name,
      phone: o.recipient_phone,
      mobile: o.recipient_mobile,
      postcode: o.recipient_postcode,
      address: o.recipient_address,
    };
    const creds = await providerCredentials(db, deps.config.encryptionKey, customerId, o.logistics_provider_id);
    // ECPay: merchant id, hash key and IV; T-cat: contract customer id (merchant id) and token (hash key).
    if (!creds.merchantId || !creds.hashKey || (carrierCode === 'ecpay' && !creds.hashIv)) {
      results.push(failed(o.id, o.number, 'CARRIER_NOT_CONFIGURED', { provider: row.providerName }));
      continue;
    }
    // Checked before the carrier is asked, with the fix: the carrier's own refusal names neither the rule nor where.
    const badSender = senderIssue(carrierCode, sender, { home, c2cCellRequired });
    if (badSender) {
      const rule = errorMessage(badSender.code, lang, { field: badSender.field });
      results.push(failed(o.id, o.number, 'CARRIER_SENDER_INVALID', { rule, provider: row.providerName }));
      continue;
    }
    const badReceiver = receiverIssue(carrierCode, recipient, { home });
    if (badReceiver?.code === 'CARRIER_RECEIVER_MASKED') {
      results.push(failed(o.id, o.number, 'CARRIER_RECEIVER_MASKED', { name: o.recipient_name }));
      continue;
    }
    if (badReceiver) {
      const rule = errorMessage(badReceiver.code, lang, { field: badReceiver.field });
      results.push(failed(o.id, o.number, 'CARRIER_RECEIVER_INVALID', { rule }));
      continue;
    }
    // Cash on delivery and the goods' value, by the carrier's rules (ECPay's SDK: HOME takes no COD; amounts are whole
    // NT$ 1–20,000; store pickup with payment declares the collected amount as the goods' value).
    const cod = o.cod ? Number(o.cod_amount ?? 0) : 0;
    if (o.cod && carrierCode === 'ecpay' && home) {
      results.push(failed(o.id, o.number, 'CARRIER_COD_NOT_SUPPORTED', { carrier: errorMessageCarrier(lang) }));
      continue;
    }
    if (o.cod && (!Number.isInteger(cod) || cod < ECPAY_AMOUNT_MIN || cod > ECPAY_AMOUNT_MAX)) {
      results.push(failed(o.id, o.number, 'CARRIER_AMOUNT_LIMIT', { field: 'cod_amount', amount: o.cod_amount ?? 0 }));
      continue;
    }
    const total = o.total_amount ? Math.round(Number(o.total_amount)) : null;
    if (carrierCode === 'ecpay' && !o.cod && total !== null && total > ECPAY_AMOUNT_MAX) {
      results.push(failed(o.id, o.number, 'CARRIER_AMOUNT_LIMIT', { field: 'total_amount', amount: o.total_amount }));
      continue;
    }
    const temperature = row.temperature && row.temperature.length === 4 ? row.temperature : null;
    const specification = o.volume ?? row.specification;
    const carrier =
      carrierCode === 'ecpay'
        ? deps.providers.resolve('carrier', 'ecpay', {
            baseUrl: deps.config.ecpayLogisticsUrl,
            merchantId: creds.merchantId,
            hashKey: creds.hashKey,
            hashIv: creds.hashIv ?? '',
            serverReplyUrl: `${deps.config.publicUrl.replace(/\/+$/, '')}/api/carriers/ecpay/notify/`,
            logisticsType: store ? 'CVS' : 'HOME',
            logisticsSubType: store ? store.subtype : 'TCAT',
            temperature,
            specification,
          } satisfies TEcpaySetting)
        : deps.providers.resolve('carrier', 'tcat', {
            baseUrl: deps.config.tcatEgsUrl,
            customerId: creds.merchantId,
            customerToken: creds.hashKey,
          } satisfies TTcatSetting);
    let made: Awaited<ReturnType<typeof carrier.createConsignment>>;
    try {
      // Outside any transaction: a slow carrier holds no row lock.
      made = await carrier.createConsignment(
        {
          orderNumber: o.number,
          recipient,
          sender,
          codAmount: cod || null,
          temperature,
          specification,
          memo: o.shipping_remark || null,
          goodsAmount: cod || (total && total > 0 ? total : null),
          pickupStore: store ? { storeId: store.store_id } : null,
        },
        { customerId, reference: o.id },
      );
    } catch (e) {
      if (e instanceof AppError && e.code === 'PROVIDER_REFUSED')
        results.push(failed(o.id, o.number, 'CARRIER_REFUSED', { message: String(e.params.message ?? '') }));
      else results.push(failed(o.id, o.number, 'CARRIER_UNAVAILABLE'));
      continue;
    }
    const consignmentNumber = made.consignmentNumber;
    // ECPay makes no PDF: its label is printed from its page with the AllPayLogisticsID kept as the label's reference.
    const hasLabel = Boolean(made.label) || (carrierCode === 'ecpay' && Boolean(made.labelRef));
    try {
      await setConsignment(
        { db },
        actor,
        o.id,
        { consignment_number: consignmentNumber },
        {
          onlyIfEmpty: true,
          source: { carrier: carrierCode },
          // The label (or how to fetch it again) in the same transaction as the number.
          also: async (tx) => {
            if (!made.label && !made.labelRef) return;
            const label = {
              customer_id: customerId,
              carrier: carrierCode,
              consignment_number: consignmentNumber,
              file_no: made.labelRef ?? null,
              content: made.label ?? null,
              error: made.label ? null : (made.labelError ?? null),
              fetched_at: made.label ? new Date() : null,
            };
            await repo.upsertCarrierLabel(tx, o.id, label);
            // The store-to-store print pages take these numbers with the AllPayLogisticsID.
            if (store && made.cvs) await repo.setCvsPaymentNumbers(tx, o.id, made.cvs);
          },
        },
      );
      results.push({ ...base, outcome: 'created', consignment_number: consignmentNumber, label: hasLabel });
    } catch (e) {
      // The carrier made the consignment but the order could not take it (number taken, status changed, a number
      // typed meanwhile): reported with the carrier's number so nothing is lost.
      const code: TErrorCode = e instanceof AppError ? e.code : 'INTERNAL_ERROR';
      const params = e instanceof AppError ? e.params : {};
      results.push({
        ...failed(o.id, o.number, code, params),
        consignment_number: consignmentNumber,
      });
    }
  }
  return results;
}

/**
 * A Shopee-arranged order: arranged with Shopee once (`arrangeShopeeShipment`, outside any transaction), then Shopee's
 * tracking number and label stored on the order in one transaction (as a carrier's are).
 */
async function shopeeConsignment(
  deps: TAppDeps,
  actor: TActor,
  o: TOrderRow,
  shopee: TShopeeOrderRow,
  lang: TLanguage,
): Promise<TConsignmentOutcome> {
  const base = { order_id: o.id, number: o.number, label: false };
  const failed = (code: TErrorCode, params: Record<string, unknown>, number: string | null = null) =>
    ({
      ...base,
      outcome: 'failed',
      consignment_number: number,
      code,
      message: errorMessage(code, lang, params),
    }) satisfies TConsignmentOutcome;
  if (!acceptsConsignment(o.status as TOrderStatus))
    return failed('INVALID_STATUS_TRANSITION', { status: o.status, action: 'consignment' });
  let made: Awaited<ReturnType<typeof arrangeShopeeShipment>>;
  try {
    made = await arrangeShopeeShipment(deps, shopee);
  } catch (e) {
    if (e instanceof AppError) return failed(e.code, e.params);
    throw e;
  }
  try {
    await setConsignment(
      { db: deps.database.db },
      actor,
      o.id,
      { consignment_number: made.trackingNumber },
      {
        onlyIfEmpty: true,
        source: { carrier: 'shopee', channel: shopee.logistics_channel_name },
        also: async (tx) => {
          const label = {
            customer_id: o.customer_id,
            carrier: 'shopee',
            consignment_number: made.trackingNumber,
            file_no: shopee.order_sn,
            content: made.label,
            error: made.label ? null : made.labelError,
            fetched_at: made.label ? new Date() : null,
          };
          await repo.upsertCarrierLabel(tx, o.id, label);
        },
      },
    );
  } catch (e) {
    const code: TErrorCode = e instanceof AppError ? e.code : 'INTERNAL_ERROR';
    return failed(code, e instanceof AppError ? e.params : {}, made.trackingNumber);
  }
  return {
    ...base,
    outcome: 'created',
    consignment_number: made.trackingNumber,
    label: !!made.label,
    code: null,
    message: null,
  };
}

const errorMessageCarrier = (lang: TLanguage) =>
  ({ 'zh-TW': '綠界宅配', ja: 'ECPay 宅配', en: 'ECPay home delivery' })[lang];
