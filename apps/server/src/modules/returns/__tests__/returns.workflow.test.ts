import { RETURN_STATUSES, SUPPLIER_RETURN_STATUSES } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import * as receiving from '../../receiving/receiving.workflow';
import {
  actionsFor,
  canDo,
  canDoSupplier,
  checkConfirmQuantities,
  claimable,
  holdOf,
  orderEventsOnCancel,
  orderEventsOnConfirm,
  orderStatusAfterConfirm,
  supplierActionsFor,
  supplierTargetStatus,
  targetStatus,
} from '../returns.workflow';

describe('return receipt life cycle', () => {
  it('is the inbound receipt life cycle: pending → confirmed → cancelled-confirmed → confirmed again', () => {
    for (const status of RETURN_STATUSES) {
      expect(actionsFor(status)).toEqual(receiving.actionsFor(status));
    }
    expect(actionsFor('pending')).toEqual(['edit', 'delete', 'confirm']);
    expect(actionsFor('confirmed')).toEqual(['cancel']);
    expect(actionsFor('cancelled')).toEqual(['edit', 'confirm']);
    expect(targetStatus('confirm')).toBe('confirmed');
    expect(targetStatus('cancel')).toBe('cancelled');
    expect(canDo('confirmed', 'confirm')).toBe(false);
    expect(canDo('cancelled', 'delete')).toBe(false);
  });

  it('checks confirmation numbers as inbound does: accepted = good + defective', () => {
    expect(checkConfirmQuantities({ accepted_quantity: 4, defective_quantity: 1, good_quantity: 3 })).toEqual({
      ok: true,
      value: { accepted: 4, defective: 1, good: 3 },
    });
    expect(checkConfirmQuantities({ accepted_quantity: 4, defective_quantity: 1, good_quantity: 2 })).toEqual({
      ok: false,
      field: 'good_quantity',
    });
    expect(checkConfirmQuantities({ accepted_quantity: 1, defective_quantity: 2 })).toEqual({
      ok: false,
      field: 'defective_quantity',
    });
  });
});

describe("a return's effect on its order", () => {
  it('takes a customer return of a closed order to closed-returned and an undeliverable parcel to returned', () => {
    expect(orderEventsOnConfirm('customer_return')).toEqual(['return_registered', 'return_confirmed']);
    expect(orderStatusAfterConfirm('customer_return')).toBe('closed_returned');
    expect(orderEventsOnConfirm('undeliverable')).toEqual(['return_registered']);
    expect(orderStatusAfterConfirm('undeliverable')).toBe('returned');
    expect(orderEventsOnConfirm('other')).toEqual([]);
    expect(orderStatusAfterConfirm('other')).toBeNull();
  });

  it('walks the order back to closed when the confirmation is cancelled', () => {
    expect(orderEventsOnCancel('customer_return')).toEqual(['return_unconfirmed', 'return_cancelled']);
    expect(orderEventsOnCancel('undeliverable')).toEqual(['return_cancelled']);
    expect(orderEventsOnCancel('other')).toEqual([]);
  });
});

describe('return-to-supplier orders', () => {
  it('go reserved → dispatched or cancelled, and nothing after', () => {
    expect(supplierActionsFor('reserved')).toEqual(['edit', 'dispatch', 'cancel']);
    for (const status of SUPPLIER_RETURN_STATUSES.filter((s) => s !== 'reserved')) {
      expect(supplierActionsFor(status)).toEqual([]);
      expect(canDoSupplier(status, 'dispatch')).toBe(false);
    }
    expect(supplierTargetStatus('dispatch')).toBe('dispatched');
    expect(supplierTargetStatus('cancel')).toBe('cancelled');
  });

  it('hold sellable stock by an engine reservation and other stock by a claim, never more than is free', () => {
    expect(holdOf('sellable')).toBe('reservation');
    expect(holdOf('defective')).toBe('claim');
    expect(holdOf('expired')).toBe('claim');
    expect(holdOf('staging')).toBe('claim');
    expect(claimable({ onHand: 5, reserved: 1, claimed: 2 })).toBe(2);
    expect(claimable({ onHand: 5, reserved: 4, claimed: 3 })).toBe(0);
  });
});
