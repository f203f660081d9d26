import { z } from 'zod';
import { ZId, ZIdParams } from './common';
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
  action: z.string(),
  fields: z.object({ MerchantID: z.string(), AllPayLogisticsID: z.string(), CheckMacValue: z.string() }),
  orders: z.array(z.object({ id: z.string(), number: z.string() })),
});
export type TEcpayLabelForm = z.infer<typeof ZEcpayLabelForm>;
export const ZEcpayLabelForms = z.object({
  forms: z.array(ZEcpayLabelForm),
  /** The selected orders whose label is not at ECPay (T-cat PDFs, or none): for `printLabels`. */
  others: z.array(z.object({ id: z.string(), number: z.string() })),
});
export type TEcpayLabelForms = z.infer<typeof ZEcpayLabelForms>;

/** One status the carrier reported for an order (its tracking history), newest first. */
export const ZCarrierEvent = z.object({
  id: z.string(),
  carrier: z.string(),
  status_code: z.string(),
  status_text: z.string(),
  status_at: z.string(),
  booking_note: z.string(),
  created_at: z.string(),
});
export type TCarrierEvent = z.infer<typeof ZCarrierEvent>;

export const carrierRoutes = defineRoutes({
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
