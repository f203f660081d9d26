import { z } from 'zod';
import { ZNewebPayCheckoutResult, ZTapPayCheckout, ZTapPayCheckoutResult } from './billing';
import { ZIdParams, ZIsoDate, ZListQuery, ZMoney, ZPage } from './common';
import { defineRoutes } from './routes';

/**
 * Usage billing (issue #35): rate cards (what each kind of work costs a seller) and the billable events the work
 * itself writes. Money: TWD, decimal strings, before the 5 % business tax (shown beside).
 */

/**
 * Every charge kind a rate card can price. This slice charges: receiving per receipt and per unit (a confirmed
 * receipt), pick & pack per order and per unit beyond the first (a shipped order); storage per location-day is set
 * on the card and charged by the daily storage snapshot (a later slice). The rest are reserved for later slices.
 */
export const USAGE_KINDS = [
  'receiving_receipt',
  'receiving_unit',
  'pick_order',
  'pick_extra_unit',
  'storage_location_day',
  'receiving_line',
  'receiving_carton',
  'putaway',
  'pick_extra_sku',
  'packaging',
  'return_receipt',
  'return_unit',
  'storage_cbm_day',
  'storage_pallet_day',
  'stocktake_location',
  'service',
  'carrier_passthrough',
  'minimum_monthly',
] as const;
export type TUsageKind = (typeof USAGE_KINDS)[number];

/** The kinds a card sets today (the form's fields), in the order they are shown. */
export const RATE_CARD_KINDS = [
  'receiving_receipt',
  'receiving_unit',
  'pick_order',
  'pick_extra_unit',
  'storage_location_day',
  'storage_cbm_day',
  'return_receipt',
  'return_unit',
  'minimum_monthly',
] as const satisfies readonly TUsageKind[];
export type TRateCardKind = (typeof RATE_CARD_KINDS)[number];

/** Taiwan's business tax on the charges. */
export const USAGE_TAX_RATE = '0.05';

/** A non-negative amount of TWD per unit, up to 4 decimals. */
const ZRate = ZMoney.refine((v) => !v.startsWith('-'), { message: 'negative' });

export const ZRateCardInput = z.strictObject({
  /** null: the operator's default card (every seller without a card of their own on that day). */
  customer_id: z.uuid().nullable(),
  /** The first day (Asia/Taipei) the card prices work; it applies until the owner's next card. */
  valid_from: ZIsoDate,
  /** TWD per unit before tax; a kind left out is not charged while this card applies. */
  rates: z.strictObject({
    receiving_receipt: ZRate.optional(),
    receiving_unit: ZRate.optional(),
    pick_order: ZRate.optional(),
    pick_extra_unit: ZRate.optional(),
    storage_location_day: ZRate.optional(),
    /** TWD per cubic metre and day (the event's quantity is litres: amount = litres × rate / 1,000). */
    storage_cbm_day: ZRate.optional(),
    /** Returns handling per confirmed return receipt and per accepted unit. */
    return_receipt: ZRate.optional(),
    return_unit: ZRate.optional(),
    /** The least a month's statement comes to before tax (topped up by a "minimum fee" line). */
    minimum_monthly: ZRate.optional(),
  }),
  /** Days after receipt a unit is stored free (0: charged from the first night). */
  storage_free_days: z.number().int().min(0).max(365).default(0),
  note: z.string().trim().max(500).default(''),
});
export type TRateCardInput = z.input<typeof ZRateCardInput>;

export const ZRateCard = z.object({
  id: z.uuid(),
  customer_id: z.uuid().nullable(),
  valid_from: ZIsoDate,
  rates: z.record(z.string(), ZMoney),
  tax_rate: z.string(),
  storage_free_days: z.number().int(),
  note: z.string(),
  /** How many billable events it priced: such a card is kept as it is (add a new card from a later day instead). */
  charge_count: z.number().int(),
  updated_at: z.string(),
});
export type TRateCard = z.infer<typeof ZRateCard>;

export const ZRateCardList = z.object({
  /** The default cards, newest first. */
  default_cards: z.array(ZRateCard),
  /** The seller's own cards (when asked for one), newest first. */
  cards: z.array(ZRateCard),
});
export type TRateCardList = z.infer<typeof ZRateCardList>;

export const ZRateCardQuery = z.object({ customer_id: z.uuid().optional() });

/** A month, `YYYY-MM`; left out: this month (Asia/Taipei). */
const ZMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/);

export const ZUsageQuery = z.object({ month: ZMonth.optional() });
export const ZUsageEventsQuery = ZListQuery.extend({
  month: ZMonth.optional(),
  kind: z.enum(USAGE_KINDS).optional(),
});

/** The work a charge came from. */
export const USAGE_SOURCES = [
  'inbound_receipt',
  'outbound_order',
  'storage_snapshot',
  'return_receipt',
  /** Staff's correction of an event (answering a dispute): its document is the dispute. */
  'correction',
] as const;

/** One line of a month's usage: a kind, how many units, what they cost before tax. */
export const ZUsageLine = z.object({
  kind: z.enum(USAGE_KINDS),
  events: z.number().int(),
  quantity: z.number().int(),
  amount: ZMoney,
});
export type TUsageLine = z.infer<typeof ZUsageLine>;

/**
 * A seller's usage of a month so far: lines per kind, their sum, the minimum monthly fee's top-up (what the card's
 * minimum is above the sum; 0 when the sum reaches it), the 5 % business tax of both (whole TWD) and the total.
 */
export const ZUsageSummary = z.object({
  month: ZMonth,
  lines: z.array(ZUsageLine),
  subtotal: ZMoney,
  minimum_fee: ZMoney,
  tax_rate: z.string(),
  tax: ZMoney,
  total: ZMoney,
});
export type TUsageSummary = z.infer<typeof ZUsageSummary>;

/** One billable event, with the document (receipt, order) that caused it. */
export const ZUsageEvent = z.object({
  id: z.uuid(),
  kind: z.enum(USAGE_KINDS),
  source_type: z.enum(USAGE_SOURCES),
  source_id: z.uuid(),
  document_number: z.string(),
  occurred_at: z.string(),
  day: ZIsoDate,
  quantity: z.number().int(),
  unit_price: ZMoney,
  amount: ZMoney,
  /** A correction: the event it corrects (its quantity and amount are the difference, negative to credit). */
  corrects_id: z.uuid().nullable(),
});
export type TUsageEvent = z.infer<typeof ZUsageEvent>;

/**
 * An event as the partner API (/api/v1/, kept compatible) shows it: a correction carries the document of the event
 * it corrects (source_type and source_id) and `corrects_id`.
 */
export const ZPartnerUsageEvent = ZUsageEvent.extend({
  source_type: z.enum(['inbound_receipt', 'outbound_order', 'storage_snapshot', 'return_receipt']),
});
export type TPartnerUsageEvent = z.infer<typeof ZPartnerUsageEvent>;

const ZCustomerParams = z.object({ id: z.uuid() });

/** A daily storage snapshot: what one seller stored in one warehouse at the end of one day (the storage charges' document). */
export const ZStorageSnapshot = z.object({
  id: z.uuid(),
  warehouse_id: z.uuid(),
  day: ZIsoDate,
  locations: z.number().int(),
  units: z.number().int(),
  litres: z.number().int(),
  /** The part charged: units received more than `free_days` before. */
  charged_locations: z.number().int(),
  charged_units: z.number().int(),
  charged_litres: z.number().int(),
  free_days: z.number().int(),
});
export type TStorageSnapshot = z.infer<typeof ZStorageSnapshot>;

export const STATEMENT_STATUSES = ['issued', 'paid', 'void'] as const;
export type TStatementStatus = (typeof STATEMENT_STATUSES)[number];

/**
 * A seller's statement of a month: issued (numbered; lines and totals frozen) → paid (staff mark a bank transfer) →
 * or void with a reason (the month can then be issued again). A month not issued yet is its draft: the usage summary.
 */
export const ZStatement = ZUsageSummary.extend({
  id: z.uuid(),
  customer_id: z.uuid(),
  customer_name: z.string(),
  number: z.string(),
  status: z.enum(STATEMENT_STATUSES),
  issued_at: z.string(),
  paid_at: z.string().nullable(),
  payment_note: z.string(),
  voided_at: z.string().nullable(),
  void_reason: z.string(),
  /** What paying it by card or at NewebPay takes: the total in whole TWD (rounded half up). */
  pay_amount: ZMoney,
});
export type TStatement = z.infer<typeof ZStatement>;

/** Pay an issued statement by card (TPDirect's prime): the statement is paid once, whatever the retries. */
export const ZStatementTapPayInput = ZTapPayCheckout.pick({ prime: true, cardholder: true });
export type TStatementTapPayInput = z.input<typeof ZStatementTapPayInput>;

export const ZStatementListQuery = ZListQuery.extend({
  customer_id: z.uuid().optional(),
  month: ZMonth.optional(),
  status: z.enum(STATEMENT_STATUSES).optional(),
});
/** The sums of the statements a CRM filter finds (before tax: charges and minimum fee; the tax; with tax). */
export const ZStatementSums = z.object({ count: z.number().int(), net: ZMoney, tax: ZMoney, total: ZMoney });
export const ZStatementTotals = ZStatementSums.extend({
  by_status: z.array(ZStatementSums.extend({ status: z.enum(STATEMENT_STATUSES) })),
});
export type TStatementTotals = z.infer<typeof ZStatementTotals>;
export const ZCrmStatementPage = ZPage(ZStatement).extend({ totals: ZStatementTotals });
export const ZStatementExportQuery = ZStatementListQuery.omit({ page: true, page_size: true, ordering: true });

/** Revenue per seller per month (the CRM dashboard): statements not void, before tax; what of it is paid. */
export const ZRevenueQuery = z.object({ months: z.coerce.number().int().min(1).max(24).default(6) });
export const ZRevenueCell = z.object({ month: ZMonth, net: ZMoney, paid: ZMoney });
export const ZRevenue = z.object({
  /** The months shown, oldest first (this month last). */
  months: z.array(ZMonth),
  sellers: z.array(
    z.object({ customer_id: z.uuid(), customer_name: z.string(), net: ZMoney, months: z.array(ZRevenueCell) }),
  ),
  /** All sellers' revenue per month. */
  totals: z.array(ZRevenueCell),
});
export type TRevenue = z.infer<typeof ZRevenue>;

export const DISPUTE_STATUSES = ['open', 'corrected', 'rejected'] as const;

/** A seller's dispute of a statement line, filed as a support request; answered by a correction or rejected. */
export const ZDispute = z.object({
  id: z.uuid(),
  statement_id: z.uuid(),
  kind: z.enum(USAGE_KINDS),
  event_id: z.uuid().nullable(),
  ticket_id: z.uuid(),
  reason: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  answer: z.string(),
  correction: ZUsageEvent.nullable(),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
});
export type TDispute = z.infer<typeof ZDispute>;
export const ZDisputeInput = z.strictObject({
  /** The disputed line (its kind). */
  kind: z.enum(USAGE_KINDS),
  /** One event of the line, when the seller points at one. */
  event_id: z.uuid().optional(),
  reason: z.string().trim().min(1).max(2000),
});
export type TDisputeInput = z.input<typeof ZDisputeInput>;
/**
 * The staff's correction: a new event referencing the disputed one, its quantity and amount the difference (negative
 * to credit). It lands on the seller's month being drafted (the next statement); with `reissue`, the disputed
 * statement (issued, not paid) is voided and its month issued again with the correction, in one step.
 */
export const ZCorrectionInput = z.strictObject({
  event_id: z.uuid(),
  quantity: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  amount: ZMoney,
  reason: z.string().trim().min(1).max(500),
  reissue: z.boolean().default(false),
});
export type TCorrectionInput = z.input<typeof ZCorrectionInput>;
export const ZRejectDisputeInput = z.strictObject({ answer: z.string().trim().min(1).max(2000) });
export const ZCorrectionResult = z.object({
  dispute: ZDispute,
  correction: ZUsageEvent,
  /** The statement issued again (with `reissue`), else null. */
  statement: ZStatement.nullable(),
});

export const ZSellerStatementListQuery = ZListQuery.extend({ month: ZMonth.optional() });
export const ZStatementEventsQuery = ZListQuery.extend({ kind: z.enum(USAGE_KINDS).optional() });
export const ZIssueStatementInput = z.strictObject({ customer_id: z.uuid(), month: ZMonth });
export const ZVoidStatementInput = z.strictObject({ reason: z.string().trim().min(1).max(500) });
export const ZPayStatementInput = z.strictObject({ note: z.string().trim().max(200).default('') });
export const ZStatementFileQuery = z.object({ format: z.enum(['pdf', 'xlsx']) });

export const usageRoutes = defineRoutes({
  /** The seller's usage of a month so far (this month when none is given). */
  usage: {
    method: 'GET',
    path: '/api/billing/usage/',
    auth: 'customer',
    perm: 'billing:read',
    query: ZUsageQuery,
    response: ZUsageSummary,
  },
  /** The seller's billable events of a month (optionally of one kind), oldest first. */
  usageEvents: {
    method: 'GET',
    path: '/api/billing/usage/events/',
    auth: 'customer',
    perm: 'billing:read',
    query: ZUsageEventsQuery,
    response: ZPage(ZUsageEvent),
  },
  /** CRM: one seller's usage of a month (employees). */
  crmUsage: {
    method: 'GET',
    path: '/api/crm/usage/customers/:id/',
    auth: 'employee',
    params: ZCustomerParams,
    query: ZUsageQuery,
    response: ZUsageSummary,
  },
  /** CRM: one seller's billable events of a month (employees). */
  crmUsageEvents: {
    method: 'GET',
    path: '/api/crm/usage/customers/:id/events/',
    auth: 'employee',
    params: ZCustomerParams,
    query: ZUsageEventsQuery,
    response: ZPage(ZUsageEvent),
  },
  /** The seller's statements, newest month first. */
  statements: {
    method: 'GET',
    path: '/api/billing/usage/statements/',
    auth: 'customer',
    perm: 'billing:read',
    query: ZSellerStatementListQuery,
    response: ZPage(ZStatement),
  },
  /** One of the seller's statements. */
  statement: {
    method: 'GET',
    path: '/api/billing/usage/statements/:id/',
    auth: 'customer',
    perm: 'billing:read',
    params: ZIdParams,
    response: ZStatement,
    tenantScoped: true,
  },
  /** The billable events of one of the seller's statements (optionally of one line's kind), oldest first. */
  statementEvents: {
    method: 'GET',
    path: '/api/billing/usage/statements/:id/events/',
    auth: 'customer',
    perm: 'billing:read',
    params: ZIdParams,
    query: ZStatementEventsQuery,
    response: ZPage(ZUsageEvent),
    tenantScoped: true,
  },
  /** One of the seller's statements as a file: PDF or xlsx (its lines and every event). */
  statementFile: {
    method: 'GET',
    path: '/api/billing/usage/statements/:id/file/',
    auth: 'customer',
    perm: 'billing:read',
    params: ZIdParams,
    query: ZStatementFileQuery,
    response: z.unknown(),
    tenantScoped: true,
  },
  /**
   * Pay one of the seller's issued statements with TapPay (409 STATEMENT_ALREADY_PAID, 409
   * STATEMENT_PAYMENT_IN_PROGRESS while an earlier attempt's outcome is not known, 409 INVALID_STATUS_TRANSITION when
   * void). 3-D Secure: the browser goes to payment_url and comes back to /wait-tappay.
   */
  payStatementTapPay: {
    method: 'POST',
    path: '/api/billing/usage/statements/:id/tappay/',
    auth: 'customer',
    perm: 'billing:write',
    params: ZIdParams,
    body: ZStatementTapPayInput,
    response: ZTapPayCheckoutResult,
    tenantScoped: true,
  },
  /** Pay one of the seller's issued statements at NewebPay: the MPG form for the browser to post (409s as by card). */
  payStatementNewebPay: {
    method: 'POST',
    path: '/api/billing/usage/statements/:id/newebpay/',
    auth: 'customer',
    perm: 'billing:write',
    params: ZIdParams,
    response: ZNewebPayCheckoutResult,
    tenantScoped: true,
  },
  /** Dispute a line (or one event) of one of the seller's statements: files a support request linked to it. */
  disputeLine: {
    method: 'POST',
    path: '/api/billing/usage/statements/:id/disputes/',
    auth: 'customer',
    perm: 'billing:write',
    params: ZIdParams,
    body: ZDisputeInput,
    response: ZDispute,
    tenantScoped: true,
  },
  statementDisputes: {
    method: 'GET',
    path: '/api/billing/usage/statements/:id/disputes/',
    auth: 'customer',
    perm: 'billing:read',
    params: ZIdParams,
    response: z.object({ results: z.array(ZDispute) }),
    tenantScoped: true,
  },
  /** One of the seller's daily storage snapshots (the document of a storage charge). */
  snapshot: {
    method: 'GET',
    path: '/api/billing/usage/snapshots/:id/',
    auth: 'customer',
    perm: 'billing:read',
    params: ZIdParams,
    response: ZStorageSnapshot,
    tenantScoped: true,
  },
  /**
   * CRM: statements of every seller (or one), newest first (employees); filters month, status, seller, search (number
   * or seller name); with the sums of everything the filters find.
   */
  crmStatements: {
    method: 'GET',
    path: '/api/crm/usage/statements/',
    auth: 'employee',
    query: ZStatementListQuery,
    response: ZCrmStatementPage,
  },
  /** CRM: the statements the filters find, as xlsx (one row each, in the user's language). */
  crmExportStatements: {
    method: 'GET',
    path: '/api/crm/usage/statements/export/',
    auth: 'employee',
    query: ZStatementExportQuery,
    response: z.unknown(),
  },
  /** CRM dashboard: revenue per seller per month over the last `months` months. */
  crmRevenue: {
    method: 'GET',
    path: '/api/crm/usage/revenue/',
    auth: 'employee',
    query: ZRevenueQuery,
    response: ZRevenue,
  },
  /**
   * CRM: issue a seller's statement of an ended month (422 INVALID_FIELD on month for this month or later; 409
   * DUPLICATE_VALUE on month when the month already has a statement that is not void).
   */
  crmIssueStatement: {
    method: 'POST',
    path: '/api/crm/usage/statements/',
    auth: 'employee',
    body: ZIssueStatementInput,
    response: ZStatement,
  },
  crmStatement: {
    method: 'GET',
    path: '/api/crm/usage/statements/:id/',
    auth: 'employee',
    params: ZIdParams,
    response: ZStatement,
  },
  crmStatementEvents: {
    method: 'GET',
    path: '/api/crm/usage/statements/:id/events/',
    auth: 'employee',
    params: ZIdParams,
    query: ZStatementEventsQuery,
    response: ZPage(ZUsageEvent),
  },
  crmStatementFile: {
    method: 'GET',
    path: '/api/crm/usage/statements/:id/file/',
    auth: 'employee',
    params: ZIdParams,
    query: ZStatementFileQuery,
    response: z.unknown(),
  },
  /** CRM: void an issued statement, with a reason (409 INVALID_STATUS_TRANSITION when paid or void already). */
  crmVoidStatement: {
    method: 'POST',
    path: '/api/crm/usage/statements/:id/void/',
    auth: 'employee',
    params: ZIdParams,
    body: ZVoidStatementInput,
    response: ZStatement,
  },
  /** CRM: mark an issued statement paid by bank transfer (409 INVALID_STATUS_TRANSITION otherwise). */
  crmPayStatement: {
    method: 'POST',
    path: '/api/crm/usage/statements/:id/paid/',
    auth: 'employee',
    params: ZIdParams,
    body: ZPayStatementInput,
    response: ZStatement,
  },
  crmStatementDisputes: {
    method: 'GET',
    path: '/api/crm/usage/statements/:id/disputes/',
    auth: 'employee',
    params: ZIdParams,
    response: z.object({ results: z.array(ZDispute) }),
  },
  /** CRM: answer a dispute with a correction event (409 DISPUTE_CLOSED when answered already). */
  crmCorrectDispute: {
    method: 'POST',
    path: '/api/crm/usage/disputes/:id/correct/',
    auth: 'employee',
    params: ZIdParams,
    body: ZCorrectionInput,
    response: ZCorrectionResult,
  },
  /** CRM: reject a dispute with an answer (409 DISPUTE_CLOSED when answered already). */
  crmRejectDispute: {
    method: 'POST',
    path: '/api/crm/usage/disputes/:id/reject/',
    auth: 'employee',
    params: ZIdParams,
    body: ZRejectDisputeInput,
    response: ZDispute,
  },
  crmSnapshot: {
    method: 'GET',
    path: '/api/crm/usage/snapshots/:id/',
    auth: 'employee',
    params: ZIdParams,
    response: ZStorageSnapshot,
  },
  /** CRM: the default rate cards and (with customer_id) one seller's cards (employees). */
  crmRateCards: {
    method: 'GET',
    path: '/api/crm/usage/rate-cards/',
    auth: 'employee',
    query: ZRateCardQuery,
    response: ZRateCardList,
  },
  /** CRM: add a rate card (409 DUPLICATE_VALUE on valid_from when the owner already has a card from that day). */
  crmCreateRateCard: {
    method: 'POST',
    path: '/api/crm/usage/rate-cards/',
    auth: 'employee',
    body: ZRateCardInput,
    response: ZRateCard,
  },
  /** CRM: change a card that priced nothing yet (409 IN_USE once it did: add a card from a later day instead). */
  crmUpdateRateCard: {
    method: 'PUT',
    path: '/api/crm/usage/rate-cards/:id/',
    auth: 'employee',
    params: ZIdParams,
    body: ZRateCardInput,
    response: ZRateCard,
  },
  /** CRM: delete a card that priced nothing yet (409 IN_USE otherwise). */
  crmDeleteRateCard: {
    method: 'DELETE',
    path: '/api/crm/usage/rate-cards/:id/',
    auth: 'employee',
    params: ZIdParams,
    response: z.object({ ok: z.literal(true) }),
  },
});
