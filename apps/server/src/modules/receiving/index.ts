/**
 * The receiving routine shared by inbound and return receipts (no routes): edit, confirm into stock, cancel a
 * confirmation, the receipt's lines. Works on the receipt tables of its callers (inbound_*, return_*).
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export {
  findLines,
  findProducts,
  insertReceipt,
  receiptLinesFrom,
  replaceLines,
  type TReceiptInsert,
  type TReceiptLineRow,
  type TReceiptRow,
} from './receiving.repository';
export {
  cancelConfirmation,
  checkPlannedLines,
  confirmReceipt,
  deleteReceipt,
  editReceipt,
  requireReceipt,
  toReceiptLine,
} from './receiving.service';
export { actionsFor, canDo, checkConfirmQuantities, statusesAllowing, targetStatus } from './receiving.workflow';
