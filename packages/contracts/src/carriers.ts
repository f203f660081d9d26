import { z } from 'zod';
import { ZId, ZIdParams, ZOk } from './common';
import { ERROR_CODES, type TErrorCode } from './errors';
import { defineRoutes } from './routes';

/** "Get consignment numbers" for selected orders (/deliver-opser, /deliver-operation): at most 100 at a time. */
export const ZFetchConsignments = z.strictObject({ order_ids: z.array(ZId).min(1).max(100) });
export type TFetchConsignments = z.infer<typeof ZFetchConsignments>;

/**
 * What became of one order: `created` (the carrier gave a number, now on the order), `already` (it had one, skipped),
 * `no_carrier` (its logistics provider has no carrier API: type or import the number), `failed` (`code` and the
 * translated `message`: refused by the carrier, unreachable, not found, wrong status…).
 */
export const CONSIGNMENT_OUTCOMES = ['created', 'already', 'no_carrier', 'failed'] as const;
export const ZConsignmentOutcome = z.object({
  order_id: z.string(),
  number: z.string().nullable(),
  outcome: z.enum(CONSIGNMENT_OUTCOMES),
  consignment_number: z.string().nullable(),
  /** The order has a carrier label to print: T-cat's PDF fetched and stored, or ECPay's (printed from ECPay's page). */
  label: z.boolean(),
  code: z.enum(ERROR_CODES as [TErrorCode, ...TErrorCode[]]).nullable(),
  message: z.string().nullable(),
});
export type TConsignmentOutcome = z.infer<typeof ZConsignmentOutcome>;
export const ZFetchConsignmentsResult = z.object({ results: z.array(ZConsignmentOutcome) });
export type TFetchConsignmentsResult = z.infer<typeof ZFetchConsignmentsResult>;

/** Print the carriers' labels of selected orders (or a collection batch's): one PDF, in the order given. */
export const ZPrintLabels = z.strictObject({ order_ids: z.array(ZId).min(1).max(500) });
export type TPrintLabels = z.infer<typeof ZPrintLabels>;

/**
 * ECPay's labels are HTML pages the BROWSER gets by posting a signed form to ECPay (`/helper/printTradeDocument`,
 * never in an iframe): one form per ECPay logistics provider of the selected orders (each has its own MerchantID and
 * keys), the AllPayLogisticsIDs comma-joined (B2C home batch printing), `fields` posted as they are.
 */
export const ZEcpayLabelForm = z.object({
  provider: z.object({ id: z.string(), name: z.string() }),
  /**
   * Which ECPay print page: `HOME_B2C` (`/helper/printTradeDocument`: home delivery and B2C store pickup, several
   * AllPayLogisticsIDs comma-joined) or a store-to-store chain's own page (`UNIMARTC2C` PrintUniMartC2COrderInfo,
   * `FAMIC2C` PrintFAMIC2COrderInfo, `HILIFEC2C` PrintHILIFEC2COrderInfo, `OKMARTC2C` PrintOKMARTC2COrderInfo).
   */
  kind: z.enum(['HOME_B2C', 'UNIMARTC2C', 'FAMIC2C', 'HILIFEC2C', 'OKMARTC2C']),
  action: z.string(),
  /** Posted as they are (MerchantID, AllPayLogisticsID, the C2C payment numbers, CheckMacValue). */
  fields: z.record(z.string(), z.string()),
  orders: z.array(z.object({ id: z.string(), number: z.string() })),
});
export type TEcpayLabelForm = z.infer<typeof ZEcpayLabelForm>;
export const ZEcpayLabelForms = z.object({
  forms: z.array(ZEcpayLabelForm),
  /** The selected orders whose label is not at ECPay (T-cat PDFs, or none): for `printLabels`. */
  others: z.array(z.object({ id: z.string(), number: z.string() })),
});
export type TEcpayLabelForms = z.infer<typeof ZEcpayLabelForms>;

/**
 * What an ECPay status means for a parcel picked up at a store (shown on the order's tracking history): the logistics
 * centre accepted it (B2C goods reach it from the seller), the sender dropped it off at a store (C2C), it reached the
 * buyer's store, the buyer picked it up, or the buyer did not and it goes back.
 */
export const CVS_STATUS_KINDS = ['accepted', 'dropped_off', 'at_store', 'picked_up', 'returned'] as const;
export type TCvsStatusKind = (typeof CVS_STATUS_KINDS)[number];
const kinds = (m: Partial<Record<TCvsStatusKind, string[]>>): Record<string, TCvsStatusKind> =>
  Object.fromEntries(Object.entries(m).flatMap(([kind, codes]) => codes.map((c) => [c, kind as TCvsStatusKind])));
const HILIFE_STATUS = kinds({
  accepted: ['2030', '3024'],
  dropped_off: ['2068', '3032'],
  at_store: ['2063', '2073', '3018', '3029'],
  picked_up: ['2067', '3022'],
  returned: ['2065', '2074', '3020', '3025'],
});
const FAMI_STATUS = kinds({
  accepted: ['3024'],
  dropped_off: ['3032'],
  at_store: ['3018', '3029'],
  picked_up: ['3022'],
  returned: ['3020', '3025'],
});
const OKMART_STATUS = kinds({
  accepted: ['2030'],
  dropped_off: ['3032'],
  at_store: ['2073'],
  picked_up: ['3022'],
  returned: ['2074', '2078'],
});
/**
 * ECPay's logistics status codes (RtnCode of its status notices, LogisticsStatus of its query) of store pickup per
 * LogisticsSubType, from ECPay's own status workbook: `example/Logistics/logistics_status.xlsx` of the official PHP SDK
 * (github.com/ECPay/SDK_PHP, sheets 統一超商/全家超商/萊爾富/OK超商, as of May 2026). A code means something only for
 * the sub-types whose sheet lists it (7-ELEVEN 2073 is "包裹配達取件門市" but OK mart's pickup is 3022, not 2067); a
 * code not listed for the order's sub-type is shown as ECPay sent it, without a kind. The workbook lists OK mart only as
 * store-to-store (OKMARTC2C); OKMART takes OK mart's codes.
 */
export const ECPAY_CVS_STATUS: Record<TCvsSubtype, Record<string, TCvsStatusKind>> = {
  UNIMART: kinds({
    accepted: ['2030'],
    at_store: ['2063', '2073', '2098'],
    picked_up: ['2067'],
    returned: ['2065', '2074', '2076'],
  }),
  UNIMARTC2C: kinds({
    accepted: ['2030'],
    dropped_off: ['2068'],
    at_store: ['2073', '2098'],
    picked_up: ['2067'],
    // 2074/2076 and 2078–2093: the buyer did not pick it up, back to the logistics centre (each with its reason).
    returned: ['2074', '2076', ...'2078 2079 2080 2081 2082 2083 2084 2085 2086 2087 2088 2089 2092 2093'.split(' ')],
  }),
  FAMI: FAMI_STATUS,
  FAMIC2C: FAMI_STATUS,
  HILIFE: HILIFE_STATUS,
  HILIFEC2C: HILIFE_STATUS,
  OKMART: OKMART_STATUS,
  OKMARTC2C: OKMART_STATUS,
};
/** The kind of an ECPay status for an order picked up at a store of that sub-type (null: home delivery, or none). */
export const ecpayStatusKind = (code: string, subtype: string | null | undefined): TCvsStatusKind | null =>
  (subtype ? ECPAY_CVS_STATUS[subtype as TCvsSubtype]?.[code] : undefined) ?? null;
/** `SUBTYPE:code` of every status of these kinds (for SQL that matches an event with its order's store). */
export const ecpayStatusKeys = (wanted: readonly TCvsStatusKind[]): string[] =>
  Object.entries(ECPAY_CVS_STATUS).flatMap(([sub, m]) =>
    Object.entries(m)
      .filter(([, k]) => wanted.includes(k))
      .map(([code]) => `${sub}:${code}`),
  );

/** One status the carrier reported for an order (its tracking history), newest first. */
export const ZCarrierEvent = z.object({
  id: z.string(),
  carrier: z.string(),
  status_code: z.string(),
  status_text: z.string(),
  status_at: z.string(),
  booking_note: z.string(),
  /** Store pickup: accepted, dropped off, arrived at the store, picked up, returned (null: another status). */
  kind: z.enum(CVS_STATUS_KINDS).nullable(),
  created_at: z.string(),
});
export type TCarrierEvent = z.infer<typeof ZCarrierEvent>;

/**
 * Convenience-store pickup through ECPay (超商取貨): the LogisticsSubType of each chain, B2C (the seller's goods go to
 * ECPay's warehouse contract) and C2C (店到店: the parcel is dropped off at a store). ECPay's field rules.
 */
export const CVS_SUBTYPES = [
  'UNIMART',
  'FAMI',
  'HILIFE',
  'OKMART',
  'UNIMARTC2C',
  'FAMIC2C',
  'HILIFEC2C',
  'OKMARTC2C',
] as const;
export type TCvsSubtype = (typeof CVS_SUBTYPES)[number];
export const CVS_CHAINS = { UNIMART: '7-ELEVEN', FAMI: 'FamilyMart', HILIFE: 'Hi-Life', OKMART: 'OK mart' } as const;
export type TCvsChain = keyof typeof CVS_CHAINS;
export const cvsChainOf = (subtype: TCvsSubtype): TCvsChain => subtype.replace(/C2C$/, '') as TCvsChain;
export const isC2C = (subtype: string) => subtype.endsWith('C2C');
/** ECPay ReceiverStoreID: up to 6 letters or digits. */
export const CVS_STORE_ID = /^[0-9A-Za-z]{1,6}$/;
export const CVS_STORE_SOURCES = ['map', 'import', 'api', 'manual'] as const;

/**
 * Days after ECPay made the consignment (D) within which the parcel must be dropped off (B2C: at ECPay's logistics
 * centre; C2C: at a store), from ECPay's "各家物流通路訂單寄貨編號效期" (support.ecpay.com.tw/6248). Its table has the
 * columns 7-ELEVEN, 7-ELEVEN frozen, 7-ELEVEN cross-border, FamilyMart, Hi-Life, OK and lists a value only where the
 * service exists: B2C D+5, D+5, D+6, D+6, D+7 (OK mart has no B2C: ECPay's status workbook lists OK mart only as
 * OKMARTC2C), so 7-ELEVEN 5, FamilyMart 6, Hi-Life 7; C2C D+6, D+6, D+7, D+7 for 7-ELEVEN, FamilyMart, Hi-Life, OK.
 * OKMART (B2C) takes OK mart's C2C window.
 */
export const CVS_DROP_OFF_DAYS: Record<TCvsSubtype, number> = {
  UNIMART: 5,
  FAMI: 6,
  HILIFE: 7,
  OKMART: 7,
  UNIMARTC2C: 6,
  FAMIC2C: 6,
  HILIFEC2C: 7,
  OKMARTC2C: 7,
};
export const ZCvsOverdue = z.object({
  order_id: z.string(),
  number: z.string(),
  subtype: z.enum(CVS_SUBTYPES),
  consignment_number: z.string(),
  store_id: z.string(),
  /** The last day to drop it off (Taipei date): past it, ECPay's number is void. */
  deadline: z.string(),
});
export type TCvsOverdue = z.infer<typeof ZCvsOverdue>;

export const ZSetCvsStore = z.strictObject({
  subtype: z.enum(CVS_SUBTYPES),
  store_id: z.string().trim().regex(CVS_STORE_ID),
  store_name: z.string().trim().max(60).default(''),
  store_address: z.string().trim().max(200).default(''),
});
export type TSetCvsStore = z.infer<typeof ZSetCvsStore>;
export const ZCvsStore = z.object({
  order_id: z.string(),
  subtype: z.enum(CVS_SUBTYPES),
  chain: z.enum(Object.keys(CVS_CHAINS) as [TCvsChain, ...TCvsChain[]]),
  c2c: z.boolean(),
  store_id: z.string(),
  store_name: z.string(),
  store_address: z.string(),
  source: z.enum(CVS_STORE_SOURCES),
  /** After the consignment: the C2C payment number (寄件代碼) and 7-ELEVEN's validation number. */
  payment_no: z.string().nullable(),
  validation_no: z.string().nullable(),
  updated_at: z.string(),
});
export type TCvsStore = z.infer<typeof ZCvsStore>;
/** The form the browser posts to ECPay's store map (`/Express/map`); its answer comes back to `ecpayMapReply`. */
export const ZCvsMapForm = z.object({ action: z.string(), fields: z.record(z.string(), z.string()) });
export type TCvsMapForm = z.infer<typeof ZCvsMapForm>;

/** Cash collected on delivery per day: the COD orders whose parcel the buyer picked up (ECPay's notice), by its day. */
export const ZCodCollectedQuery = z.object({
  date_from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  date_to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
export const ZCodCollectedDay = z.object({ date: z.string(), orders: z.number().int(), amount: z.string() });
export type TCodCollectedDay = z.infer<typeof ZCodCollectedDay>;
export const ZCodCollected = z.object({
  results: z.array(ZCodCollectedDay),
  total_orders: z.number().int(),
  total_amount: z.string(),
});
export type TCodCollected = z.infer<typeof ZCodCollected>;

export const carrierRoutes = defineRoutes({
  /**
   * Store-pickup parcels not dropped off in time: numbered by ECPay more than the chain's window ago
   * (`CVS_DROP_OFF_DAYS`) and no status from ECPay since (no drop-off seen). Shown on /deliver-operation.
   */
  cvsOverdue: {
    method: 'GET',
    path: '/api/carriers/cvs-overdue/',
    auth: 'customer',
    perm: 'orders:read',
    response: z.object({ results: z.array(ZCvsOverdue) }),
  },
  /** Cash collected on delivery per day (newest first) for the seller: the picked-up COD orders and their amounts. */
  codCollected: {
    method: 'GET',
    path: '/api/carriers/cod-collected/',
    auth: 'customer',
    perm: 'analysis:read',
    query: ZCodCollectedQuery,
    response: ZCodCollected,
  },
  /** The convenience store an order of the seller is picked up at (null: home delivery). */
  getOrderCvsStore: {
    method: 'GET',
    path: '/api/carriers/orders/:id/cvs-store/',
    auth: 'customer',
    perm: 'orders:read',
    params: ZIdParams,
    response: z.object({ store: ZCvsStore.nullable() }),
  },
  /** Set the store by hand (or from an order file / the partner API): not after the order has its consignment. */
  setOrderCvsStore: {
    method: 'PUT',
    path: '/api/carriers/orders/:id/cvs-store/',
    auth: 'customer',
    perm: 'orders:write',
    params: ZIdParams,
    body: ZSetCvsStore,
    response: z.object({ store: ZCvsStore }),
  },
  /** Home delivery again (the store removed): not after the order has its consignment. */
  deleteOrderCvsStore: {
    method: 'DELETE',
    path: '/api/carriers/orders/:id/cvs-store/',
    auth: 'customer',
    perm: 'orders:write',
    params: ZIdParams,
    response: ZOk,
  },
  /**
   * Open ECPay's store map for an order of an ECPay provider: a fresh single-use MerchantTradeNo is recorded for the
   * order; the browser posts the form to ECPay, whose answer is posted back to `ecpayMapReply`.
   */
  openCvsMap: {
    method: 'POST',
    path: '/api/carriers/orders/:id/cvs-map/',
    auth: 'customer',
    perm: 'orders:write',
    params: ZIdParams,
    body: z.strictObject({ subtype: z.enum(CVS_SUBTYPES) }),
    response: ZCvsMapForm,
  },
  /**
   * ECPay's store map answer (the map's ServerReplyURL, posted by the browser, unsigned): taken only for an open map
   * request of that MerchantTradeNo and MerchantID, once; answered 303 to the order on /deliver.
   */
  ecpayMapReply: {
    method: 'POST',
    path: '/api/carriers/ecpay/map-reply/',
    auth: 'public',
    callback: true,
    body: z.record(z.string().max(100), z.string().max(1000)),
    response: z.string(),
  },
  /** The carrier's status callbacks for one order of the seller (newest first). */
  orderCarrierEvents: {
    method: 'GET',
    path: '/api/carriers/orders/:id/events/',
    auth: 'customer',
    perm: 'orders:read',
    params: ZIdParams,
    response: z.object({ results: z.array(ZCarrierEvent) }),
  },
  /**
   * Get consignment numbers from the carrier for the selected orders: the carrier is called outside any transaction
   * (attempt logged), each number stored on its order in its own transaction with an audit row; one result per order.
   */
  fetchConsignments: {
    method: 'POST',
    path: '/api/carriers/consignments/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZFetchConsignments,
    response: ZFetchConsignmentsResult,
  },
  /**
   * The carriers' labels of the selected orders (≤ 500) as one PDF (application/pdf), pages in the order given. A label
   * stored when the number was fetched is used as it is; one that could not be fetched then is fetched now (T-cat
   * DownloadOBT, FileNo valid 24 h). Header `x-labels-missing`: how many of the orders have no label (their numbers in
   * `x-labels-missing-orders`); orders whose label is at ECPay are not missing but named in `x-labels-ecpay-orders`
   * (print them with `ecpayLabelForms`). No PDF label at all → LABELS_AT_ECPAY when some labels are at ECPay, else
   * LABEL_NOT_AVAILABLE. The web asks `ecpayLabelForms` first and sends only its `others` here.
   */
  printLabels: {
    method: 'POST',
    path: '/api/carriers/labels/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZPrintLabels,
    response: z.unknown(),
  },
  /**
   * The signed ECPay print forms for the selected orders (≤ 500) whose label is at ECPay (numbered by ECPay, number
   * unchanged since): one per ECPay logistics provider, to post from the browser to a new tab; the other orders in
   * `others`. Another seller's order → NOT_FOUND; a provider whose keys were removed → CARRIER_NOT_CONFIGURED.
   */
  ecpayLabelForms: {
    method: 'POST',
    path: '/api/carriers/labels/ecpay-forms/',
    auth: 'customer',
    perm: 'orders:write',
    body: ZPrintLabels,
    response: ZEcpayLabelForms,
  },
  /**
   * ECPay logistics status callback (the `ServerReplyURL` of Express/Create): a form POST signed with CheckMacValue
   * (the merchant's hash key and IV); answered `1|OK` as ECPay requires, 401 when the signature does not verify.
   */
  ecpayLogisticsNotify: {
    method: 'POST',
    path: '/api/carriers/ecpay/notify/',
    auth: 'public',
    callback: true,
    body: z.record(z.string().max(100), z.string().max(1000)),
    response: z.string(),
  },
});
