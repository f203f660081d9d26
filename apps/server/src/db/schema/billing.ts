import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';

/**
 * A seller's contract with the operator (spec §1 billing, §9): set by an EMPLOYEE on the CRM customer screen. One per
 * seller. `price` is the price per period before tax (TWD, decimal); the amount charged is price × (1 + tax_rate)
 * rounded to whole TWD, as the gateways take it. Periods start on `start_date` and last 3 (quarterly) or 12 (annual)
 * months. A remembered card (TapPay card_key/card_token) is stored AES-GCM encrypted for the renewal job.
 */
export const billing_contracts = pgTable(
  'billing_contracts',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    plan: text('plan').notNull(),
    price: numeric('price', { precision: 14, scale: 4 }).notNull(),
    tax_rate: numeric('tax_rate', { precision: 6, scale: 4 }).notNull().default('0.05'),
    period: text('period').notNull(),
    start_date: date('start_date', { mode: 'string' }).notNull(),
    /** Spec §9: 11 monthly, 21 collect on arrival, 31 cash. */
    payment_terms: text('payment_terms').notNull(),
    note: text('note').notNull().default(''),
    /** How due periods are renewed automatically: a TapPay remembered card, a NewebPay periodic authorisation, none. */
    auto_renew: text('auto_renew'),
    card_key_enc: text('card_key_enc'),
    card_token_enc: text('card_token_enc'),
    card_last_four: text('card_last_four'),
    /** NewebPay periodic authorisation: its merchant order number (the periodic results carry it). */
    newebpay_period_order: text('newebpay_period_order'),
    /** Its PeriodNo at NewebPay: what ends it there (AlterStatus terminate) when renewal stops or changes. */
    newebpay_period_no: text('newebpay_period_no'),
    /** Set after the last retry of a renewal failed; cleared by the next successful payment. Nothing is blocked. */
    overdue_since: timestamp('overdue_since', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('billing_contracts_customer_key').on(t.customer_id),
    check('billing_contracts_period_check', sql`${t.period} in ('quarterly', 'annual')`),
    check('billing_contracts_terms_check', sql`${t.payment_terms} in ('11', '21', '31')`),
    check('billing_contracts_price_check', sql`${t.price} >= 0`),
  ],
);

/**
 * Transaction records (spec §3: date, amount, failure): one row per charge attempt. `order_number` is ours (sent as
 * TapPay order_number / NewebPay MerchantOrderNo); `provider_transaction_id` (TapPay rec_trade_id, NewebPay TradeNo)
 * is unique per provider, so a result that arrives twice (NewebPay retries Notify) is recorded once.
 */
export const billing_payments = pgTable(
  'billing_payments',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    /** The contract whose period it pays; null for a usage statement's payment (kind `statement`). */
    contract_id: uuid('contract_id').references(() => billing_contracts.id),
    /**
     * The usage statement it pays (issue #35, kind `statement`: the seller pays an issued statement by card); its
     * period is the statement's month. The usage module marks the statement paid on the payment's success.
     */
    statement_id: uuid('statement_id'),
    order_number: text('order_number').notNull(),
    provider: text('provider').notNull(),
    /**
     * checkout (the seller paid on a payment page), renewal (the renewal job), periodic (NewebPay periodic result),
     * credit (a periodic charge that found no period to pay: the seller's credit, never a second payment of a period),
     * statement (a usage statement paid on its page).
     */
    kind: text('kind').notNull(),
    period_start: date('period_start', { mode: 'string' }).notNull(),
    period_end: date('period_end', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 4 }).notNull(),
    tax: numeric('tax', { precision: 14, scale: 4 }).notNull().default('0'),
    status: text('status').notNull().default('pending'),
    provider_transaction_id: text('provider_transaction_id'),
    failure: text('failure'),
    card_last_four: text('card_last_four'),
    /** Renewal attempt (1 = first charge, 2… = retries). */
    attempt: integer('attempt').notNull().default(1),
    remember: boolean('remember').notNull().default(false),
    paid_at: timestamp('paid_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('billing_payments_order_number_key').on(t.order_number),
    uniqueIndex('billing_payments_provider_tx_key')
      .on(t.provider, t.provider_transaction_id)
      .where(sql`${t.provider_transaction_id} is not null`),
    /**
     * A period is paid at most once, and a payment in flight holds it: one record per contract and period that is
     * pending (waiting for the gateway's answer, or for its confirmation) or succeeded. A charge booked as credit
     * (a periodic charge with no period left to pay) holds none.
     */
    uniqueIndex('billing_payments_period_key')
      .on(t.contract_id, t.period_start)
      .where(sql`${t.status} in ('pending', 'succeeded') and ${t.kind} <> 'credit'`),
    /** A usage statement is paid at most once, and a payment in flight holds it (as a contract's period). */
    uniqueIndex('billing_payments_statement_key')
      .on(t.statement_id)
      .where(sql`${t.statement_id} is not null and ${t.status} in ('pending', 'succeeded') and ${t.kind} <> 'credit'`),
    check(
      'billing_payments_purpose_check',
      sql`(${t.statement_id} is null) = (${t.contract_id} is not null) and (${t.kind} <> 'statement' or ${t.statement_id} is not null)`,
    ),
    index('billing_payments_customer_idx').on(t.customer_id, t.created_at),
    check('billing_payments_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
    check('billing_payments_provider_check', sql`${t.provider} in ('tappay', 'newebpay')`),
  ],
);

/**
 * Refunds of a payment (issue #31), by the operator's staff from the CRM: full or partial, with a reason. Write, then
 * call: the row commits `pending` first (the payment row locked: the refunds of a payment queue, and their sum never
 * passes its amount), the gateway is called (TapPay transaction/refund, NewebPay CreditCard/Close refund), its answer
 * recorded on the row. `idempotency_key` (one per staff action) makes a repeated request answer the same refund.
 */
export const billing_refunds = pgTable(
  'billing_refunds',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    payment_id: uuid('payment_id')
      .notNull()
      .references(() => billing_payments.id),
    amount: numeric('amount', { precision: 14, scale: 4 }).notNull(),
    reason: text('reason').notNull(),
    /** pending (sent, no answer yet), succeeded, failed (the gateway refused: its answer says why). */
    status: text('status').notNull().default('pending'),
    idempotency_key: text('idempotency_key').notNull(),
    /** TapPay refund_id / NewebPay TradeNo of the refund. */
    provider_refund_id: text('provider_refund_id'),
    /** The gateway's answer as it said it (code and message). */
    gateway_answer: text('gateway_answer'),
    created_by: uuid('created_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('billing_refunds_idempotency_key').on(t.payment_id, t.idempotency_key),
    index('billing_refunds_payment_idx').on(t.payment_id),
    check('billing_refunds_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
    check('billing_refunds_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * The operator's list prices (issue #31): what a seller without a contract sees for each period, set by the staff in
 * the CRM. A seller's contract (billing_contracts) sets its own price and overrides these.
 */
export const billing_list_prices = pgTable(
  'billing_list_prices',
  {
    period: text('period').primaryKey(),
    plan: text('plan').notNull(),
    price: numeric('price', { precision: 14, scale: 4 }).notNull(),
    tax_rate: numeric('tax_rate', { precision: 6, scale: 4 }).notNull().default('0.05'),
    updated_by: uuid('updated_by'),
    ...timestamps,
  },
  (t) => [
    check('billing_list_prices_period_check', sql`${t.period} in ('quarterly', 'annual')`),
    check('billing_list_prices_price_check', sql`${t.price} >= 0`),
  ],
);

/**
 * Daily reconciliation (issue #31): differences between our payment records and a gateway's own records for one day
 * — charged there but not paid here (`missing_here`), paid here but not found there (`not_found_there`), amounts
 * that differ (`amount_differs`). Found once per day, gateway, kind and order number (a re-run adds nothing); the
 * staff resolve each with a note (who and when kept here and in the audit log).
 */
export const billing_reconciliation_items = pgTable(
  'billing_reconciliation_items',
  {
    id: id(),
    day: date('day', { mode: 'string' }).notNull(),
    provider: text('provider').notNull(),
    kind: text('kind').notNull(),
    customer_id: uuid('customer_id').references(() => customers.id),
    payment_id: uuid('payment_id').references(() => billing_payments.id),
    order_number: text('order_number').notNull(),
    provider_transaction_id: text('provider_transaction_id'),
    our_amount: numeric('our_amount', { precision: 14, scale: 4 }),
    their_amount: numeric('their_amount', { precision: 14, scale: 4 }),
    our_status: text('our_status'),
    their_status: text('their_status'),
    status: text('status').notNull().default('open'),
    resolution: text('resolution'),
    resolved_by: uuid('resolved_by'),
    resolved_at: timestamp('resolved_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('billing_reconciliation_items_key').on(t.day, t.provider, t.kind, t.order_number),
    index('billing_reconciliation_items_status_idx').on(t.status, t.day),
    check(
      'billing_reconciliation_items_kind_check',
      sql`${t.kind} in ('missing_here', 'not_found_there', 'amount_differs')`,
    ),
    check('billing_reconciliation_items_status_check', sql`${t.status} in ('open', 'resolved')`),
  ],
);
