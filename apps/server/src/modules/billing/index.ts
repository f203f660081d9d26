/**
 * Billing of a seller's contract: plans and list prices, payments through NewebPay (periodic and one-off), refunds,
 * renewals, confirmation sweeps and the daily reconciliation with the gateway. Owns billing_contracts,
 * billing_payments, billing_refunds, billing_list_prices and billing_reconciliation_items.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

// Its routes (and jobs) are registered in app.ts (and jobs.ts). The usage module's statements are paid through it.
export { statementPaid, type TStatementPaid } from './billing.events';
export {
  payStatementNewebPay,
  payStatementTapPay,
  statementPayAmount,
  statementPayment,
  type TStatementToPay,
} from './billing.statements';
export type { TBillingDeps as TBillingPayDeps } from './billing.views';
