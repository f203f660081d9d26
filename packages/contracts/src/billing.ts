import { z } from 'zod';
import { ZIdParams, ZIsoDate, ZListQuery, ZMoney, ZPage } from './common';
import { defineRoutes } from './routes';

/** Billing (spec §1, §2.2 /billing, §2.4 payment pages, §3 transaction record, §9 periods and terms). */

export const BILLING_PERIODS = ['quarterly', 'annual'] as const;
export type TBillingPeriod = (typeof BILLING_PERIODS)[number];
/** Months in one billing period. */
export const BILLING_PERIOD_MONTHS: Record<TBillingPeriod, 3 | 12> = { quarterly: 3, annual: 12 };
/** Spec §9: 11 monthly, 21 collect on arrival, 31 cash. */
export const PAYMENT_TERMS = ['11', '21', '31'] as const;
export type TPaymentTerms = (typeof PAYMENT_TERMS)[number];
export const PAYMENT_PROVIDERS = ['tappay', 'newebpay'] as const;
export type TPaymentProviderCode = (typeof PAYMENT_PROVIDERS)[number];
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type TPaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** credit: a periodic charge that found no period to pay (the seller's credit; it pays no period). */
export const PAYMENT_KINDS = ['checkout', 'renewal', 'periodic', 'credit', 'statement'] as const;
/** How due periods renew on their own: a remembered TapPay card, a NewebPay periodic authorisation. */
export const AUTO_RENEW = ['tappay', 'newebpay'] as const;
/** Renewal: the first charge and this many retries (with back-off) before the account is marked overdue. */
export const RENEWAL_RETRIES = 3;

/**
 * An amount of TWD as Taiwan writes it, the one way everywhere (pages, receipts, mails): NT$3,150 — thousands grouped,
 * cents only when there are any.
 */
export const formatTwd = (value: string | number): string =>
  `NT$${Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

/** A non-negative amount of TWD as a decimal string. */
const ZPrice = ZMoney.refine((v) => !v.startsWith('-'), { message: 'negative' });

export const ZBillingContractInput = z.strictObject({
  plan: z.string().trim().min(1).max(100),
  /** Price per period before tax. */
  price: ZPrice,
  /** 0.05 = 5 % business tax. */
  tax_rate: z
    .string()
    .regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/)
    .default('0.05'),
  period: z.enum(BILLING_PERIODS),
  /** Left out: decided by the server — today in Asia/Taipei for a new contract, unchanged for an existing one. */
  start_date: ZIsoDate.optional(),
  payment_terms: z.enum(PAYMENT_TERMS),
  note: z.string().trim().max(500).default(''),
});
export type TBillingContractInput = z.input<typeof ZBillingContractInput>;

export const ZBillingContract = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  plan: z.string(),
  price: ZMoney,
  tax_rate: z.string(),
  /** Tax of one period and the amount charged (whole TWD, as the gateways take it). */
  tax: ZMoney,
  total: ZMoney,
  period: z.enum(BILLING_PERIODS),
  start_date: ZIsoDate,
  payment_terms: z.enum(PAYMENT_TERMS),
  note: z.string(),
  auto_renew: z.enum(AUTO_RENEW).nullable(),
  card_last_four: z.string().nullable(),
  overdue_since: z.string().nullable(),
  updated_at: z.string(),
});
export type TBillingContract = z.infer<typeof ZBillingContract>;

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** A refund of a payment by the operator's staff (shown to the seller with the payment). */
export const ZBillingRefund = z.object({
  id: z.uuid(),
  payment_id: z.uuid(),
  amount: ZMoney,
  reason: z.string(),
  status: z.enum(REFUND_STATUSES),
  provider_refund_id: z.string().nullable(),
  /** The gateway's answer as it said it (code and message). */
  gateway_answer: z.string().nullable(),
  created_at: z.string(),
});
export type TBillingRefund = z.infer<typeof ZBillingRefund>;

export const ZBillingRefundInput = z.strictObject({
  /** Whole TWD (the gateways refund integers); left out: everything not refunded yet. */
  amount: z
    .string()
    .regex(/^[1-9]\d{0,9}$/)
    .optional(),
  reason: z.string().trim().min(1).max(500),
  /** One per staff action (the form makes it when it opens): the same key again answers the same refund. */
  idempotency_key: z.string().trim().min(8).max(100),
});
export type TBillingRefundInput = z.input<typeof ZBillingRefundInput>;

export const ZBillingPayment = z.object({
  id: z.uuid(),
  order_number: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS),
  kind: z.enum(PAYMENT_KINDS),
  period_start: ZIsoDate,
  period_end: ZIsoDate,
  amount: ZMoney,
  tax: ZMoney,
  status: z.enum(PAYMENT_STATUSES),
  provider_transaction_id: z.string().nullable(),
  failure: z.string().nullable(),
  card_last_four: z.string().nullable(),
  attempt: z.number().int(),
  paid_at: z.string().nullable(),
  created_at: z.string(),
  /** What has been refunded of it (succeeded refunds), and its refunds. */
  refunded: ZMoney,
  refunds: z.array(ZBillingRefund),
});
export type TBillingPayment = z.infer<typeof ZBillingPayment>;

export const ZBillingPeriod = z.object({ start: ZIsoDate, end: ZIsoDate });

export const ZBillingOverview = z.object({
  contract: ZBillingContract.nullable(),
  /** The period today falls in (null before the contract starts). */
  current_period: ZBillingPeriod.nullable(),
  /**
   * The first unpaid period, once it has started (overdue) or when it is the next one (due on its start); null when
   * everything up to the next period is paid. Never a paid period.
   */
  due: ZBillingPeriod.extend({ amount: ZMoney, tax: ZMoney, due_date: ZIsoDate, overdue: z.boolean() }).nullable(),
  /** Paid up to this day (null: nothing paid yet). */
  paid_through: ZIsoDate.nullable(),
  /** The payment holding the due period while its outcome is not known yet (no new attempt for it meanwhile). */
  in_progress: ZBillingPayment.nullable(),
  /** The gateways the operator set up; TapPay's app id/key are what the card form (TPDirect) needs. */
  providers: z.object({
    tappay: z.object({
      enabled: z.boolean(),
      app_id: z.number().int().nullable(),
      app_key: z.string().nullable(),
      environment: z.enum(['sandbox', 'production']),
    }),
    newebpay: z.object({ enabled: z.boolean() }),
  }),
  company: z.object({ name: z.string(), tax_id: z.string(), invoice_title: z.string(), invoice_address: z.string() }),
});
export type TBillingOverview = z.infer<typeof ZBillingOverview>;

export const ZBillingPaymentQuery = ZListQuery.extend({
  status: z.enum(PAYMENT_STATUSES).optional(),
  provider: z.enum(PAYMENT_PROVIDERS).optional(),
});
export type TBillingPaymentQuery = z.infer<typeof ZBillingPaymentQuery>;

export const ZTapPayCheckout = z.strictObject({
  /** The period the seller pays (the one the page showed): a paid or held period is refused, never charged again. */
  period_start: ZIsoDate,
  /** The one-time prime of TPDirect's card form (the card number never reaches us). */
  prime: z.string().trim().min(1).max(200),
  /** Remember the card (TapPay card_key/card_token, stored encrypted) to renew automatically. */
  remember: z.boolean().default(false),
  cardholder: z.strictObject({
    name: z.string().trim().min(1).max(100),
    email: z.email().max(200),
    phone: z.string().trim().min(1).max(30),
  }),
});
export type TTapPayCheckout = z.input<typeof ZTapPayCheckout>;

export const ZTapPayCheckoutResult = z.object({
  payment: ZBillingPayment,
  /** 3-D Secure: send the browser here; it comes back to /wait-tappay. */
  payment_url: z.string().nullable(),
});

export const ZNewebPayCheckout = z.strictObject({
  /** The period the seller pays (the one the page showed). */
  period_start: ZIsoDate,
  /** Authorise NewebPay to charge every period (periodic) instead of paying this period once. */
  periodic: z.boolean().default(false),
});
export type TNewebPayCheckout = z.input<typeof ZNewebPayCheckout>;
export const ZNewebPayCheckoutResult = z.object({
  payment: ZBillingPayment,
  /** The form the browser posts to NewebPay. */
  action: z.string(),
  fields: z.record(z.string(), z.string()),
});

/** A list price (the operator's, per period): what a seller without a contract sees, with the tax and the total. */
export const ZBillingPlan = z.object({
  period: z.enum(BILLING_PERIODS),
  plan: z.string(),
  price: ZMoney,
  tax_rate: z.string(),
  tax: ZMoney,
  total: ZMoney,
  updated_at: z.string(),
});
export type TBillingPlan = z.infer<typeof ZBillingPlan>;

export const ZBillingPlanInput = z.strictObject({
  period: z.enum(BILLING_PERIODS),
  plan: z.string().trim().min(1).max(100),
  price: ZPrice,
  tax_rate: z
    .string()
    .regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/)
    .default('0.05'),
});
export type TBillingPlanInput = z.input<typeof ZBillingPlanInput>;

export const ZBillingPlans = z.object({ plans: z.array(ZBillingPlan) });

export const ZContractRequestInput = z.strictObject({
  period: z.enum(BILLING_PERIODS),
  note: z.string().trim().max(1000).default(''),
});
export type TContractRequestInput = z.input<typeof ZContractRequestInput>;
/** The support request filed for it (the seller follows it under Support). */
export const ZContractRequestResult = z.object({ ticket_id: z.uuid() });

export const RECONCILIATION_KINDS = ['missing_here', 'not_found_there', 'amount_differs'] as const;

/** A difference the daily reconciliation found between our records and a gateway's, and how it was resolved. */
export const ZReconciliationItem = z.object({
  id: z.uuid(),
  day: ZIsoDate,
  provider: z.enum(PAYMENT_PROVIDERS),
  kind: z.enum(RECONCILIATION_KINDS),
  customer_id: z.uuid().nullable(),
  customer_name: z.string().nullable(),
  payment_id: z.uuid().nullable(),
  order_number: z.string(),
  provider_transaction_id: z.string().nullable(),
  our_amount: ZMoney.nullable(),
  their_amount: ZMoney.nullable(),
  our_status: z.string().nullable(),
  their_status: z.string().nullable(),
  status: z.enum(['open', 'resolved']),
  resolution: z.string().nullable(),
  resolved_by_name: z.string().nullable(),
  resolved_at: z.string().nullable(),
  created_at: z.string(),
});
export type TReconciliationItem = z.infer<typeof ZReconciliationItem>;

export const ZReconciliationQuery = ZListQuery.extend({ status: z.enum(['open', 'resolved']).optional() });
export const ZReconciliationResolve = z.strictObject({ resolution: z.string().trim().min(1).max(1000) });
/** `day` left out: yesterday in Asia/Taipei (as the daily job). */
export const ZReconciliationRun = z.strictObject({ day: ZIsoDate.optional() });

export const ZBillingCrmContract = z.object({
  contract: ZBillingContract.nullable(),
  payments: z.array(ZBillingPayment),
});

/** A gateway's form post (Notify / Return). */
const ZGatewayForm = z.record(z.string().max(100), z.string().max(20_000));

export const billingRoutes = defineRoutes({
  /** The seller's contract, current period, what is due and when. */
  overview: {
    method: 'GET',
    path: '/api/billing/',
    auth: 'customer',
    perm: 'billing:read',
    response: ZBillingOverview,
  },
  /** Transaction records (date, amount, provider, result, failure), newest first. */
  listPayments: {
    method: 'GET',
    path: '/api/billing/payments/',
    auth: 'customer',
    perm: 'billing:read',
    query: ZBillingPaymentQuery,
    response: ZPage(ZBillingPayment),
  },
  exportPayments: {
    method: 'GET',
    path: '/api/billing/payments/export/',
    auth: 'customer',
    perm: 'billing:read',
    query: ZBillingPaymentQuery,
    response: z.unknown(),
  },
  /** One record; a pending TapPay charge is confirmed with TapPay's transaction/query first (never the browser). */
  getPayment: {
    method: 'GET',
    path: '/api/billing/payments/:id/',
    auth: 'customer',
    perm: 'billing:read',
    params: ZIdParams,
    response: ZBillingPayment,
    tenantScoped: true,
  },
  /** Pay the due period with TapPay (pay-by-prime). */
  payTapPay: {
    method: 'POST',
    path: '/api/billing/tappay/',
    auth: 'customer',
    perm: 'billing:write',
    body: ZTapPayCheckout,
    response: ZTapPayCheckoutResult,
  },
  /** Pay the due period with NewebPay: the MPG (or periodic) form for the browser to post. */
  payNewebPay: {
    method: 'POST',
    path: '/api/billing/newebpay/',
    auth: 'customer',
    perm: 'billing:write',
    body: ZNewebPayCheckout,
    response: ZNewebPayCheckoutResult,
  },
  /** Forget the remembered card / stop automatic renewal. */
  stopAutoRenew: {
    method: 'DELETE',
    path: '/api/billing/auto-renew/',
    auth: 'customer',
    perm: 'billing:write',
    response: ZBillingOverview,
  },
  /** TapPay's backend notify after 3-D Secure: re-checked with transaction/query; answered 200. */
  tappayNotify: {
    method: 'POST',
    path: '/api/billing/tappay/notify/',
    auth: 'public',
    callback: true,
    body: z.looseObject({ rec_trade_id: z.string().max(100).optional(), order_number: z.string().max(100).optional() }),
    response: z.string(),
  },
  /** NewebPay NotifyURL (server to server): TradeSha verified, decrypted, recorded once; answered 200. */
  newebpayNotify: {
    method: 'POST',
    path: '/api/billing/newebpay/notify/',
    auth: 'public',
    callback: true,
    body: ZGatewayForm,
    response: z.string(),
  },
  /** NewebPay ReturnURL (the browser): recorded like Notify, then sent on to /wait-newebpay. */
  newebpayReturn: {
    method: 'POST',
    path: '/api/billing/newebpay/return/',
    auth: 'public',
    callback: true,
    body: ZGatewayForm,
    response: z.string(),
  },
  /** CRM: a seller's contract and its latest records (employees). */
  crmGetContract: {
    method: 'GET',
    path: '/api/crm/customers/:id/contract/',
    auth: 'employee',
    params: ZIdParams,
    response: ZBillingCrmContract,
  },
  /** The operator's list prices (quarterly, annual) a seller without a contract chooses from. */
  plans: {
    method: 'GET',
    path: '/api/billing/plans/',
    auth: 'customer',
    perm: 'billing:read',
    response: ZBillingPlans,
  },
  /** Request a contract for a plan: files a support request for the operator's staff. */
  requestContract: {
    method: 'POST',
    path: '/api/billing/contract-request/',
    auth: 'customer',
    perm: 'billing:write',
    body: ZContractRequestInput,
    response: ZContractRequestResult,
  },
  /** CRM: the list prices (employees). */
  crmPlans: {
    method: 'GET',
    path: '/api/crm/billing/plans/',
    auth: 'employee',
    response: ZBillingPlans,
  },
  /** CRM: set the list price of one period (employees). */
  crmSetPlan: {
    method: 'PUT',
    path: '/api/crm/billing/plans/',
    auth: 'employee',
    body: ZBillingPlanInput,
    response: ZBillingPlan,
  },
  /** CRM: the differences found by the daily reconciliation, open first (employees). */
  crmReconciliation: {
    method: 'GET',
    path: '/api/crm/billing/reconciliation/',
    auth: 'employee',
    query: ZReconciliationQuery,
    response: ZPage(ZReconciliationItem),
  },
  /** CRM: reconcile one day now (the job runs every day for the day before). */
  crmRunReconciliation: {
    method: 'POST',
    path: '/api/crm/billing/reconciliation/run/',
    auth: 'employee',
    body: ZReconciliationRun,
    response: z.object({ found: z.number().int() }),
  },
  /** CRM: resolve a difference with a note (kept with who and when; audited). */
  crmResolveReconciliation: {
    method: 'POST',
    path: '/api/crm/billing/reconciliation/:id/resolve/',
    auth: 'employee',
    params: ZIdParams,
    body: ZReconciliationResolve,
    response: ZReconciliationItem,
  },
  /** CRM: refund a seller's payment fully or in part, with a reason, once per idempotency key (employees). */
  crmRefundPayment: {
    method: 'POST',
    path: '/api/crm/customers/:id/payments/:payment_id/refunds/',
    auth: 'employee',
    params: z.object({ id: z.uuid(), payment_id: z.uuid() }),
    body: ZBillingRefundInput,
    response: ZBillingRefund,
  },
  /** CRM: set a seller's contract (plan, price per period, period, start date, payment terms). */
  crmSetContract: {
    method: 'PUT',
    path: '/api/crm/customers/:id/contract/',
    auth: 'employee',
    params: ZIdParams,
    body: ZBillingContractInput,
    response: ZBillingContract,
  },
});
