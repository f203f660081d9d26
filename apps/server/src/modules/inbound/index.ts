/**
 * Inbound receipts: a seller's planned arrivals of goods, their lines, printing, confirmation into stock through
 * the receiving routine. Owns inbound_receipts and inbound_receipt_lines. Publishes `inbound.receipt-confirmed`.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { receiptConfirmed } from './inbound.events';
export { inboundReceiptsPurge } from './inbound.repository';
export { createReceipt, getReceipt } from './inbound.service';
