import { ORDER_STATUSES, type TOrderStatus } from '@wms/contracts';
import { describe, expect, it } from 'vitest';
import {
  acceptsConsignment,
  canApply,
  holdsReservation,
  isEditable,
  nextStatus,
  ORDER_RULES,
  stockEffect,
  type TOrderEvent,
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

function byLife(a: string, b: string): number {
  return ORDER_STATUSES.indexOf(a as TOrderStatus) - ORDER_STATUSES.indexOf(b as TOrderStatus);
}
