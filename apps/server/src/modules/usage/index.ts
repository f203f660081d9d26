/**
 * Usage billing (issue #35): what the warehouse charges each seller for the work it did. Owns usage_rate_cards (the
 * CRM's default and per-seller rate cards, each valid from a day) and usage_charges (immutable billable events, each
 * priced by the card of its work's day and traceable to its document). The charges are written by subscribers to the
 * work's own events (inbound.receipt-confirmed, outbound.orders-shipped; listed in src/events.ts), once per
 * document and kind. The daily storage snapshot job (usage.jobs.ts) records what each seller stored and charges it; statements
 * (usage.statements.ts; read in usage.statement-reads.ts) freeze a seller's month: issued → paid or void, each line down to its events and documents.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { recordOrdersShipped, recordReceiptConfirmed, recordReturnConfirmed } from './usage.service';
export {
  getStatement,
  listStatements,
  partnerStatementEvents,
  statementEvents,
} from './usage.statement-reads';
export { markPaidByPayment } from './usage.statements';
