import type { TReturnCategory, TSupplierReturnStatus } from '@wms/contracts';

/**
 * Pure rules of returns (no I/O); written down in docs/ARCHITECTURE.md, section "Returns".
 *
 * A return receipt has the receipt life cycle of modules/receiving — pending confirmation → confirmed →
 * cancelled-confirmed, a cancelled confirmation can be corrected and confirmed again, only a pending receipt can be
 * deleted — and the same confirmation numbers (accepted = good + defective). Those rules are receiving.workflow.ts's,
 * re-exported here, not copied: a change to the receipt life cycle changes inbound and return receipts alike.
 */
export {
  actionsFor,
  canDo,
  checkConfirmQuantities,
  statusesAllowing,
  targetStatus,
} from '../receiving';

/** The outbound order events a return reports (outbound.workflow.ts owns what they do to the order). */
export type TOrderReturnEvent = 'return_registered' | 'return_confirmed' | 'return_unconfirmed' | 'return_cancelled';

/**
 * What confirming a return does to its original (shipped, so closed) order: a customer return of a closed order
 * ends closed-returned (closed → returned → closed_returned), an undeliverable parcel ends returned
 * (closed → returned); other returns leave the order alone. Only the first confirmed return of an order moves it.
 */
export function orderEventsOnConfirm(category: TReturnCategory): TOrderReturnEvent[] {
  if (category === 'customer_return') return ['return_registered', 'return_confirmed'];
  if (category === 'undeliverable') return ['return_registered'];
  return [];
}

/** Undoing a confirmation walks the order back to closed (when no other confirmed return of it remains). */
export function orderEventsOnCancel(category: TReturnCategory): TOrderReturnEvent[] {
  if (category === 'customer_return') return ['return_unconfirmed', 'return_cancelled'];
  if (category === 'undeliverable') return ['return_cancelled'];
  return [];
}

/** The order status a return of this category leaves behind once confirmed (null: none). */
export function orderStatusAfterConfirm(category: TReturnCategory): 'closed_returned' | 'returned' | null {
  if (category === 'customer_return') return 'closed_returned';
  if (category === 'undeliverable') return 'returned';
  return null;
}

// ---- return-to-supplier orders ----

/**
 * reserved (created: every line's stock is held for the order) → dispatched (the stock left: negative ledger rows,
 * reason return_to_supplier) or → cancelled (the stock is given back). The header (supplier, dates, remark) can be
 * edited while reserved; the lines are fixed (cancel and create again).
 */
export type TSupplierReturnAction = 'edit' | 'dispatch' | 'cancel';

const SUPPLIER_FROM: Record<TSupplierReturnAction, readonly TSupplierReturnStatus[]> = {
  edit: ['reserved'],
  dispatch: ['reserved'],
  cancel: ['reserved'],
};

export function supplierStatusesAllowing(action: TSupplierReturnAction): readonly TSupplierReturnStatus[] {
  return SUPPLIER_FROM[action];
}

export function canDoSupplier(status: TSupplierReturnStatus, action: TSupplierReturnAction): boolean {
  return SUPPLIER_FROM[action].includes(status);
}

export function supplierTargetStatus(action: 'dispatch' | 'cancel'): TSupplierReturnStatus {
  return action === 'dispatch' ? 'dispatched' : 'cancelled';
}

export function supplierActionsFor(status: TSupplierReturnStatus): TSupplierReturnAction[] {
  return (Object.keys(SUPPLIER_FROM) as TSupplierReturnAction[]).filter((a) => canDoSupplier(status, a));
}

/**
 * How a return-to-supplier order holds a pile until dispatch. Sellable stock is reserved in the stock engine (so no
 * order can allocate it). The engine reserves sellable locations only; stock in defective, expired and staging
 * locations — never allocated to orders — is held by the order's own claim: a new order may take only
 * free − what other open return-to-supplier orders claim, checked under the pile's row lock.
 */
export function holdOf(locationKind: string): 'reservation' | 'claim' {
  return locationKind === 'sellable' ? 'reservation' : 'claim';
}

/** What a new return-to-supplier order may still take from a pile. */
export function claimable(pile: { onHand: number; reserved: number; claimed: number }): number {
  return Math.max(0, pile.onHand - pile.reserved - pile.claimed);
}
