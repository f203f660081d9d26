import { describe, expect, it } from 'vitest';
import {
  actionsFor,
  canDo,
  checkConfirmQuantities,
  isPlannedQuantity,
  statusesAllowing,
  targetStatus,
} from '../receiving.workflow';

describe('receipt workflow (inbound and return receipts)', () => {
  it('allows the transitions of spec §4 and nothing else', () => {
    expect(actionsFor('pending')).toEqual(['edit', 'delete', 'confirm']);
    expect(actionsFor('confirmed')).toEqual(['cancel']);
    expect(actionsFor('cancelled')).toEqual(['edit', 'confirm']);
    expect(canDo('confirmed', 'confirm')).toBe(false);
    expect(canDo('pending', 'cancel')).toBe(false);
    expect(canDo('cancelled', 'delete')).toBe(false);
    expect(statusesAllowing('confirm')).toEqual(['pending', 'cancelled']);
    expect(targetStatus('confirm')).toBe('confirmed');
    expect(targetStatus('cancel')).toBe('cancelled');
  });

  it('checks the numbers of a confirmed line: good = accepted − defective, whole and not negative', () => {
    expect(checkConfirmQuantities({ accepted_quantity: 9, defective_quantity: 2 })).toEqual({
      ok: true,
      value: { accepted: 9, defective: 2, good: 7 },
    });
    expect(checkConfirmQuantities({ accepted_quantity: 0 })).toEqual({
      ok: true,
      value: { accepted: 0, defective: 0, good: 0 },
    });
    expect(checkConfirmQuantities({ accepted_quantity: 9, defective_quantity: 2, good_quantity: 7 }).ok).toBe(true);
    const bad = (input: Parameters<typeof checkConfirmQuantities>[0]) => {
      const r = checkConfirmQuantities(input);
      return r.ok ? null : r.field;
    };
    expect(bad({ accepted_quantity: -1 })).toBe('accepted_quantity');
    expect(bad({ accepted_quantity: 1.5 })).toBe('accepted_quantity');
    expect(bad({ accepted_quantity: 3, defective_quantity: 4 })).toBe('defective_quantity');
    expect(bad({ accepted_quantity: 3, defective_quantity: 0.5 })).toBe('defective_quantity');
    expect(bad({ accepted_quantity: 3, defective_quantity: 1, good_quantity: 3 })).toBe('good_quantity');
    expect(isPlannedQuantity(1)).toBe(true);
    expect(isPlannedQuantity(0)).toBe(false);
    expect(isPlannedQuantity(2.5)).toBe(false);
  });
});
