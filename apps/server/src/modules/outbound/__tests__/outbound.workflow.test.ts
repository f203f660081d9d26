import { ORDER_STATUSES, type TOrderStatus } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import {
  acceptsConsignment,
  BATCHABLE_STATUSES,
  CONSIGNMENT_STATUSES,
  canApply,
  canJoinBatch,
  canPack,
  EDITABLE_STATUSES,
  eventsWith,
  holdsReservation,
  isEditable,
  nextStatus,
  ORDER_RULES,
  PACKABLE_STATUSES,
  RESERVED_STATUSES,
  reachableStatuses,
  SHIPPED_OUT_STATUSES,
  SHIPPED_STATUSES,
  statusesAfter,
  statusesBefore,
  stockEffect,
  type TOrderEvent,
  targetsOf,
} from '../outbound.workflow';

const EVENTS = Object.keys(ORDER_RULES) as TOrderEvent[];

describe('order workflow', () => {
  it('walks the happy path pending export → exported → online → closed with reserve and consume', () => {
    expect(nextStatus('export', 'pending_export')).toBe('exported');
    expect(stockEffect('export')).toBe('reserve');
    expect(nextStatus('start_packing', 'exported')).toBe('online');
    expect(nextStatus('ship', 'online')).toBe('closed');
    expect(stockEffect('ship')).toBe('consume');
  });

  it('undoes an export only through a granted cancel-export request, which releases the reservation', () => {
    expect(nextStatus('request_cancel_export', 'exported')).toBe('cancel_export');
    expect(nextStatus('request_cancel_export', 'online')).toBe('cancel_export');
    expect(stockEffect('request_cancel_export')).toBe('none');
    expect(nextStatus('grant_cancel_export', 'cancel_export')).toBe('pending_export');
    expect(stockEffect('grant_cancel_export')).toBe('release');
    // refused: back to where the order was when the request was made
    expect(nextStatus('refuse_cancel_export', 'cancel_export', 'online')).toBe('online');
    expect(nextStatus('refuse_cancel_export', 'cancel_export', 'exported')).toBe('exported');
  });

  it('leaves closed orders to returns: returned, closed-returned and back', () => {
    expect(nextStatus('return_registered', 'closed')).toBe('returned');
    expect(nextStatus('return_confirmed', 'returned')).toBe('closed_returned');
    expect(nextStatus('return_confirmed', 'closed')).toBe('closed_returned');
    expect(nextStatus('return_unconfirmed', 'closed_returned')).toBe('returned');
    expect(nextStatus('return_cancelled', 'returned')).toBe('closed');
  });

  it('refuses every event outside its from-statuses (the 409 cases)', () => {
    const illegal: Array<[TOrderEvent, TOrderStatus]> = [
      ['export', 'exported'],
      ['export', 'cancelled'],
      ['export', 'closed'],
      ['ship', 'exported'],
      ['ship', 'pending_export'],
      ['ship', 'closed'],
      ['cancel', 'exported'],
      ['cancel', 'online'],
      ['cancel', 'closed'],
      ['grant_cancel_export', 'exported'],
      ['request_cancel_export', 'pending_export'],
      ['request_cancel_export', 'closed'],
      ['start_packing', 'pending_export'],
      ['return_registered', 'online'],
      ['return_confirmed', 'online'],
    ];
    for (const [event, status] of illegal) {
      expect(canApply(event, status), `${event} from ${status}`).toBe(false);
      expect(nextStatus(event, status)).toBeNull();
    }
  });

  it('has no event out of cancelled, and only returns events out of closed', () => {
    for (const e of EVENTS) expect(canApply(e, 'cancelled')).toBe(false);
    expect(EVENTS.filter((e) => canApply(e, 'closed'))).toEqual(['return_registered', 'return_confirmed']);
  });

  it('keeps reservations exactly in exported, online and cancel export', () => {
    expect(ORDER_STATUSES.filter(holdsReservation)).toEqual(['exported', 'cancel_export', 'online'].sort(byLife));
    // every way into a reserving status from a non-reserving one reserves, and every way out releases or consumes
    for (const e of EVENTS) {
      for (const from of ORDER_RULES[e].from) {
        const to = nextStatus(e, from, 'exported')!;
        if (!holdsReservation(from) && holdsReservation(to)) expect(stockEffect(e), e).toBe('reserve');
        if (holdsReservation(from) && !holdsReservation(to)) expect(['release', 'consume']).toContain(stockEffect(e));
        if (holdsReservation(from) === holdsReservation(to)) expect(stockEffect(e), e).toBe('none');
      }
    }
  });

  it('edits only pending orders; consignment numbers until shipping', () => {
    expect(ORDER_STATUSES.filter(isEditable)).toEqual(['pending_export']);
    expect(ORDER_STATUSES.filter(acceptsConsignment)).toEqual(
      ['pending_export', 'exported', 'cancel_export', 'online'].sort(byLife),
    );
  });
});

describe('status sets derived from the rule table', () => {
  it('reads where an event starts and leads, "previous" being every status that leads into its from-status', () => {
    expect(targetsOf('export', 'pending_export')).toEqual(['exported']);
    expect(targetsOf('export', 'exported')).toEqual([]);
    expect(targetsOf('refuse_cancel_export', 'cancel_export')).toEqual(['exported', 'online']);
    expect(eventsWith('reserve')).toEqual(['export']);
    expect(eventsWith('consume')).toEqual(['ship']);
    expect(statusesBefore(['request_cancel_export', 'cancel'])).toEqual(['pending_export', 'exported', 'online']);
    expect(statusesAfter(['ship', 'return_registered'])).toEqual(['closed', 'returned']);
  });

  it('walks the rules from some statuses, through every event or only the ones let pass', () => {
    expect(reachableStatuses(['closed'])).toEqual(['closed', 'returned', 'closed_returned']);
    expect(reachableStatuses(['cancelled'])).toEqual(['cancelled']);
    expect(reachableStatuses(['pending_export'])).toEqual([...ORDER_STATUSES]);
    expect(reachableStatuses(['exported'], (e) => e === 'start_packing')).toEqual(['exported', 'online']);
  });

  it('sends a refused cancel-export back to the saved status, else to the earliest it can have come from', () => {
    expect(nextStatus('refuse_cancel_export', 'cancel_export')).toBe('exported');
    expect(nextStatus('refuse_cancel_export', 'cancel_export', 'pending_export')).toBe('exported');
    expect(nextStatus('export', 'pending_export', 'online')).toBe('exported');
  });

  it('gives the sets the service and the repository filter by', () => {
    expect(EDITABLE_STATUSES).toEqual(['pending_export']);
    expect(RESERVED_STATUSES).toEqual(['exported', 'cancel_export', 'online']);
    expect(CONSIGNMENT_STATUSES).toEqual(['pending_export', 'exported', 'cancel_export', 'online']);
    expect(SHIPPED_STATUSES).toEqual(['closed', 'returned', 'closed_returned']);
    expect(SHIPPED_OUT_STATUSES).toEqual(['closed']);
    expect(BATCHABLE_STATUSES).toEqual(['exported']);
    expect(PACKABLE_STATUSES).toEqual(['exported', 'online']);
    expect(ORDER_STATUSES.filter(canJoinBatch)).toEqual(BATCHABLE_STATUSES);
    expect(ORDER_STATUSES.filter(canPack)).toEqual(PACKABLE_STATUSES);
  });

  it('splits every status into before shipping (or cancelled) and shipped', () => {
    const before = new Set([...CONSIGNMENT_STATUSES, 'cancelled']);
    expect(ORDER_STATUSES.filter((s) => !before.has(s))).toEqual(SHIPPED_STATUSES);
  });
});

function byLife(a: string, b: string): number {
  return ORDER_STATUSES.indexOf(a as TOrderStatus) - ORDER_STATUSES.indexOf(b as TOrderStatus);
}
