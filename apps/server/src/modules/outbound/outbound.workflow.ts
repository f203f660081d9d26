import { ORDER_STATUSES, type TOrderAction, type TOrderStatus } from '@wms/contracts';

/**
 * The order state machine (spec §4), pure: which event moves an order from which status to which, and what it does
 * to stock. The service asks it before every status change and then writes the change as a conditional update
 * (`… WHERE status IN (from)`), so a concurrent change turns into a 409 instead of a lost update.
 * The rules are listed (with a diagram) in this module's README.md.
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

const EVENTS = Object.keys(ORDER_RULES) as TOrderEvent[];

export function canApply(event: TOrderEvent, status: TOrderStatus): boolean {
  return ORDER_RULES[event].from.includes(status);
}

/**
 * The statuses an event can lead to from `status` (none when it is not allowed there). For `previous`: every status
 * an event leads into `status` from (cancel_export is entered from exported or online).
 */
export function targetsOf(event: TOrderEvent, status: TOrderStatus): TOrderStatus[] {
  const rule = ORDER_RULES[event];
  if (!rule.from.includes(status)) return [];
  if (rule.to !== 'previous') return [rule.to];
  return ORDER_STATUSES.filter((s) =>
    EVENTS.some((e) => ORDER_RULES[e].to === status && ORDER_RULES[e].from.includes(s)),
  );
}

/**
 * The status an event leads to, or null when the event is not allowed in `status`. `previous` is the status saved
 * when the cancel-export request was made; without one, the earliest status the request can come from.
 */
export function nextStatus(
  event: TOrderEvent,
  status: TOrderStatus,
  previous: TOrderStatus | null = null,
): TOrderStatus | null {
  const targets = targetsOf(event, status);
  if (previous !== null && targets.includes(previous)) return previous;
  return targets[0] ?? null;
}

export function stockEffect(event: TOrderEvent): TStockEffect {
  return ORDER_RULES[event].stock;
}

/** The events with this stock effect. */
export function eventsWith(effect: TStockEffect): TOrderEvent[] {
  return EVENTS.filter((e) => stockEffect(e) === effect);
}

/** The statuses these events start from, in life-cycle order. */
export function statusesBefore(events: readonly TOrderEvent[]): TOrderStatus[] {
  return ORDER_STATUSES.filter((s) => events.some((e) => canApply(e, s)));
}

/** The statuses these events lead to, in life-cycle order. */
export function statusesAfter(events: readonly TOrderEvent[]): TOrderStatus[] {
  return ORDER_STATUSES.filter((s) => events.some((e) => ORDER_STATUSES.some((f) => targetsOf(e, f).includes(s))));
}

/** The statuses reachable from `start` (itself included) through the events `through` lets pass, in life-cycle order. */
export function reachableStatuses(
  start: readonly TOrderStatus[],
  through: (event: TOrderEvent) => boolean = () => true,
): TOrderStatus[] {
  const seen = new Set(start);
  const queue = [...start];
  while (queue.length > 0) {
    const status = queue.shift()!;
    for (const e of EVENTS.filter(through))
      for (const t of targetsOf(e, status))
        if (!seen.has(t)) {
          seen.add(t);
          queue.push(t);
        }
  }
  return ORDER_STATUSES.filter((s) => seen.has(s));
}

// The status sets the service and the repository use, derived from the rules above (never written out again).

/** Header and lines can be edited only before stock is reserved: where a reserving event starts. */
export const EDITABLE_STATUSES = statusesBefore(eventsWith('reserve'));

/** Reserved stock is held from a reserving event until an event releases or consumes it. */
export const RESERVED_STATUSES = reachableStatuses(
  statusesAfter(eventsWith('reserve')),
  (e) => stockEffect(e) === 'none',
);

/** Consignment number, shipping date and piece count can be set while the order can still ship (not yet, not cancelled). */
export const CONSIGNMENT_STATUSES = ORDER_STATUSES.filter((s) =>
  reachableStatuses([s]).some((r) => eventsWith('consume').some((e) => canApply(e, r))),
);

/** Shipped: where a consuming event leads, and wherever returns take the order from there. */
export const SHIPPED_STATUSES = reachableStatuses(statusesAfter(eventsWith('consume')));

/** Where shipping leads (closed): an order's IMEIs count as shipped there; returns take it out (freeing them) and back. */
export const SHIPPED_OUT_STATUSES = statusesAfter(eventsWith('consume'));

/** A collection batch takes orders whose picking has not started (exported, no pending cancel request). */
export const BATCHABLE_STATUSES = statusesBefore(['start_packing']);

/** The packing station opens orders it may start (exported) and packs orders that may ship (online). */
export const PACKABLE_STATUSES = statusesBefore(['start_packing', ...eventsWith('consume')]);

/** Header and lines can be edited (EDITABLE_STATUSES). */
export function isEditable(status: TOrderStatus): boolean {
  return EDITABLE_STATUSES.includes(status);
}

/** Consignment number, shipping date and piece count can be set (CONSIGNMENT_STATUSES). */
export function acceptsConsignment(status: TOrderStatus): boolean {
  return CONSIGNMENT_STATUSES.includes(status);
}

/** The order holds reserved stock (RESERVED_STATUSES). */
export function holdsReservation(status: TOrderStatus): boolean {
  return RESERVED_STATUSES.includes(status);
}

/** A collection batch may take the order (BATCHABLE_STATUSES). */
export function canJoinBatch(status: TOrderStatus): boolean {
  return BATCHABLE_STATUSES.includes(status);
}

/** The packing station may open the order (PACKABLE_STATUSES). */
export function canPack(status: TOrderStatus): boolean {
  return PACKABLE_STATUSES.includes(status);
}

/** The order is where shipping leaves it, nothing returned (SHIPPED_OUT_STATUSES). */
export function isShippedOut(status: TOrderStatus): boolean {
  return SHIPPED_OUT_STATUSES.includes(status);
}
