import type { TOrderAction, TOrderStatus } from '@wms/contracts';

/**
 * The order state machine (spec §4), pure: which event moves an order from which status to which, and what it does
 * to stock. The service asks it before every status change and then writes the change as a conditional update
 * (`… WHERE status IN (from)`), so a concurrent change turns into a 409 instead of a lost update.
 * The rules are listed (with a diagram) in docs/ARCHITECTURE.md, section "Outbound".
 */

/** Events: the HTTP actions of the contracts, packing/shipping, and the events returns (issue #7) report. */
export type TOrderEvent =
  | TOrderAction
  | 'ship'
  | 'return_registered'
  | 'return_confirmed'
  | 'return_unconfirmed'
  | 'return_cancelled';

/** What an event does to the order's stock (through the stock engine, in the same transaction). */
export type TStockEffect = 'reserve' | 'release' | 'consume' | 'none';

interface TRule {
  from: readonly TOrderStatus[];
  /** The status after the event; 'previous' = the status the order had before its cancel-export request. */
  to: TOrderStatus | 'previous';
  stock: TStockEffect;
}

export const ORDER_RULES: Record<TOrderEvent, TRule> = {
  /** Reserve stock (FEFO/FIFO, combinations exploded), all lines or none. */
  export: { from: ['pending_export'], to: 'exported', stock: 'reserve' },
  /** Picking/packing begins (a batch's picking starts, or the packing station opens the order). */
  start_packing: { from: ['exported'], to: 'online', stock: 'none' },
  /** Packed and handed to the carrier: the reserved stock leaves the warehouse. */
  ship: { from: ['online'], to: 'closed', stock: 'consume' },
  /** The seller asks to undo an export; the stock stays reserved until the request is granted. */
  request_cancel_export: { from: ['exported', 'online'], to: 'cancel_export', stock: 'none' },
  /** Granted: the reservation is released and the order is pending again (editable, exportable, cancellable). */
  grant_cancel_export: { from: ['cancel_export'], to: 'pending_export', stock: 'release' },
  /** Refused (e.g. already packed): back to where it was. */
  refuse_cancel_export: { from: ['cancel_export'], to: 'previous', stock: 'none' },
  /** Only an order that holds no stock can be cancelled. */
  cancel: { from: ['pending_export'], to: 'cancelled', stock: 'none' },
  /** Returns (issue #7): a return receipt was registered for a shipped order. */
  return_registered: { from: ['closed'], to: 'returned', stock: 'none' },
  /** Returns: the return receipt was confirmed (its stock is posted by the returns module); also straight from closed. */
  return_confirmed: { from: ['closed', 'returned'], to: 'closed_returned', stock: 'none' },
  /** Returns: the confirmation of the return receipt was cancelled. */
  return_unconfirmed: { from: ['closed_returned'], to: 'returned', stock: 'none' },
  /** Returns: the return receipt was cancelled before confirmation. */
  return_cancelled: { from: ['returned'], to: 'closed', stock: 'none' },
};

export function canApply(event: TOrderEvent, status: TOrderStatus): boolean {
  return ORDER_RULES[event].from.includes(status);
}

/**
 * The status an event leads to, or null when the event is not allowed in `status`. `previous` is the status saved
 * when the cancel-export request was made (exported or online).
 */
export function nextStatus(
  event: TOrderEvent,
  status: TOrderStatus,
  previous: TOrderStatus | null = null,
): TOrderStatus | null {
  const rule = ORDER_RULES[event];
  if (!rule.from.includes(status)) return null;
  if (rule.to !== 'previous') return rule.to;
  return previous === 'online' ? 'online' : 'exported';
}

export function stockEffect(event: TOrderEvent): TStockEffect {
  return ORDER_RULES[event].stock;
}

/** Header and lines can be edited only before stock is reserved. */
export function isEditable(status: TOrderStatus): boolean {
  return status === 'pending_export';
}

/** Consignment number, shipping date and piece count can be set until the order ships or is cancelled. */
export function acceptsConsignment(status: TOrderStatus): boolean {
  return status === 'pending_export' || status === 'exported' || status === 'online' || status === 'cancel_export';
}

/** Statuses in which the order holds reserved stock. */
export function holdsReservation(status: TOrderStatus): boolean {
  return status === 'exported' || status === 'online' || status === 'cancel_export';
}

/** A collection batch takes exported orders (not yet picked, no pending cancel request). */
export function canJoinBatch(status: TOrderStatus): boolean {
  return status === 'exported';
}

/** The packing station opens exported orders (starting them) and online ones. */
export function canPack(status: TOrderStatus): boolean {
  return status === 'exported' || status === 'online';
}
