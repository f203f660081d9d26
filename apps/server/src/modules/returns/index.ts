/**
 * Returns: customer return receipts (back into stock through the receiving routine) and returns to suppliers
 * (taken out of stock). Owns return_receipts, return_receipt_lines, supplier_returns and supplier_return_lines.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { returnConfirmed } from './returns.events';
export { returnReceiptsPurge, unlinkReturnsFromOrders } from './returns.repository';
