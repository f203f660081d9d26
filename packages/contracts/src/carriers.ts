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
  /** The carrier's label was fetched and stored with the order (T-cat). */
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
   * `x-labels-missing-orders`); none at all → LABEL_NOT_AVAILABLE.
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
