import type { TReceiptAction, TReceiptStatus } from '@wms/contracts';

/**
 * The receipt state machine (spec §4) of inbound and return receipts, pure. pending confirmation → confirmed (stock
 * posted) → cancelled-confirmed (stock taken back out); a cancelled confirmation can be corrected and confirmed again.
 * Only a pending receipt can be deleted (nothing was ever posted for it).
 */

const FROM: Record<TReceiptAction, readonly TReceiptStatus[]> = {
  edit: ['pending', 'cancelled'],
  delete: ['pending'],
  confirm: ['pending', 'cancelled'],
  cancel: ['confirmed'],
};

const TO: Partial<Record<TReceiptAction, TReceiptStatus>> = { confirm: 'confirmed', cancel: 'cancelled' };

/** The statuses an action may start from: the service puts them in its conditional update (`… AND status IN (…)`). */
export function statusesAllowing(action: TReceiptAction): readonly TReceiptStatus[] {
  return FROM[action];
}

export function canDo(status: TReceiptStatus, action: TReceiptAction): boolean {
  return FROM[action].includes(status);
}

/** The status an action leads to (edit and delete leave none). */
export function targetStatus(action: 'confirm' | 'cancel'): TReceiptStatus {
  return TO[action]!;
}

/** What a receipt in this status allows, for the screens' buttons. */
export function actionsFor(status: TReceiptStatus): TReceiptAction[] {
  return (Object.keys(FROM) as TReceiptAction[]).filter((a) => canDo(status, a));
}

export interface TCheckedQuantities {
  accepted: number;
  defective: number;
  good: number;
}

/**
 * The numbers of one confirmed line: accepted and defective whole and not negative, defective ≤ accepted,
 * good = accepted − defective (when the dock typed a good quantity it must match). Returns the field that is off,
 * or the checked numbers. Accepted may differ from the planned quantity: that difference is shown, not refused.
 */
export function checkConfirmQuantities(input: {
  accepted_quantity: number;
  defective_quantity?: number;
  good_quantity?: number;
}): { ok: true; value: TCheckedQuantities } | { ok: false; field: string } {
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 0;
  const accepted = input.accepted_quantity;
  const defective = input.defective_quantity ?? 0;
  if (!whole(accepted)) return { ok: false, field: 'accepted_quantity' };
  if (!whole(defective) || defective > accepted) return { ok: false, field: 'defective_quantity' };
  const good = accepted - defective;
  if (input.good_quantity !== undefined && input.good_quantity !== good) return { ok: false, field: 'good_quantity' };
  return { ok: true, value: { accepted, defective, good } };
}

/** A planned line quantity: a whole number of at least 1. */
export function isPlannedQuantity(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1;
}
