import { z } from 'zod';
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
  }),
  note: z.string().trim().max(500).default(''),
});
export type TRateCardInput = z.input<typeof ZRateCardInput>;

export const ZRateCard = z.object({
  id: z.uuid(),
  customer_id: z.uuid().nullable(),
  valid_from: ZIsoDate,
  rates: z.record(z.string(), ZMoney),
  tax_rate: z.string(),
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
export const USAGE_SOURCES = ['inbound_receipt', 'outbound_order'] as const;

/** One line of a month's usage: a kind, how many units, what they cost before tax. */
export const ZUsageLine = z.object({
  kind: z.enum(USAGE_KINDS),
  events: z.number().int(),
  quantity: z.number().int(),
  amount: ZMoney,
});
export type TUsageLine = z.infer<typeof ZUsageLine>;

/** A seller's usage of a month so far: lines per kind, their sum, the 5 % business tax (whole TWD) and the total. */
export const ZUsageSummary = z.object({
  month: ZMonth,
  lines: z.array(ZUsageLine),
  subtotal: ZMoney,
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
});
export type TUsageEvent = z.infer<typeof ZUsageEvent>;

const ZCustomerParams = z.object({ id: z.uuid() });

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
