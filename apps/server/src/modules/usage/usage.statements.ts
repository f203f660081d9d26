import type { TStatement, TStatementTapPayInput, TUsageKind } from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { nextDocumentNumber } from '../../platform/sequences';
import {
  payStatementNewebPay,
  payStatementTapPay,
  statementPayAmount,
  statementPayment,
  type TBillingPayDeps,
  type TStatementPaid,
  type TStatementToPay,
} from '../billing';
import { fromUnits, priced, type TUsageDeps, thisMonth, toUnits } from './usage.service';
import * as statementRepo from './usage.statements.repository';

/**
 * Statements (issue #35): a seller's month, issued by staff once it has ended — numbered, its charges marked as billed
 * on it and its lines and totals frozen — then marked paid (a bank transfer) or voided with a reason, after which the
 * month can be issued again. Every line drills down to its events, every event to its document.
 */

const money = (v: string) => fromUnits(toUnits(v));

export function toStatement(row: statementRepo.TStatementRow, customerName: string): TStatement {
  return {
    id: row.id,
    customer_id: row.customer_id,
    customer_name: customerName,
    number: row.number,
    status: row.status as TStatement['status'],
    month: row.month,
    lines: row.lines.map((l) => ({ ...l, kind: l.kind as TUsageKind })),
    subtotal: money(row.subtotal),
    minimum_fee: money(row.minimum_fee),
    tax_rate: fromUnits(toUnits(row.tax_rate)),
    tax: money(row.tax),
    total: money(row.total),
    issued_at: row.issued_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
    payment_note: row.payment_note,
    voided_at: row.voided_at?.toISOString() ?? null,
    void_reason: row.void_reason,
    pay_amount: statementPayAmount(money(row.total)),
  };
}

const userOf = (actor: TActor) => (actor.kind === 'user' ? actor.id : null);

/**
 * Issue a seller's statement of an ended month, in one transaction: the statement row first (the partial unique index
 * lets one of two parallel issues through; the other answers 409 DUPLICATE_VALUE on month), then the month's charges
 * not billed yet are marked as billed on it, and its lines and totals are computed from exactly those.
 */
export async function issueStatement(
  deps: TUsageDeps & { issueOpenMonth?: boolean },
  actor: TActor,
  input: { customer_id: string; month: string },
): Promise<TStatement> {
  const open = thisMonth();
  if (input.month > open || (input.month === open && !deps.issueOpenMonth))
    throw new AppError('INVALID_FIELD', { field: 'month' });
  try {
    return await withTx(deps.db, (tx) => issueIn(tx, actor, input));
  } catch (err) {
    if (statementRepo.isMonthTaken(err)) throw new AppError('DUPLICATE_VALUE', { field: 'month' });
    if (sqlState(err) === '23503') throw new AppError('NOT_FOUND', { field: 'customer_id' });
    throw err;
  }
}

/** Issue a seller's month in the caller's transaction (a first issue, or a re-issue after a correction's void). */
export async function issueIn(tx: Executor, actor: TActor, input: { customer_id: string; month: string }) {
  {
    const now = new Date();
    const number = await nextDocumentNumber(tx, input.customer_id, 'ST', now);
    const row = await statementRepo.insertStatement(tx, {
      customer_id: input.customer_id,
      month: input.month,
      number,
      issued_at: now,
      issued_by: userOf(actor),
      tax_rate: '0.05',
      billed_through: await statementRepo.billThrough(tx, input.customer_id),
    });
    const summary = await priced(tx, input.customer_id, input.month, await statementRepo.statementLines(tx, row));
    const issued = await statementRepo.updateStatement(tx, row.id, {
      lines: summary.lines,
      subtotal: summary.subtotal,
      minimum_fee: summary.minimum_fee,
      tax_rate: summary.tax_rate,
      tax: summary.tax,
      total: summary.total,
    });
    await writeAudit(tx, actor, {
      action: 'usage.statement.issue',
      entity: 'usage_statement',
      entityId: row.id,
      customerId: input.customer_id,
      after: { number, month: input.month, total: summary.total },
    });
    const found = await statementRepo.findStatement(tx, issued.id);
    return toStatement(issued, found?.customer_name ?? '');
  }
}

/** Void an issued statement with a reason: it bills nothing any more (the month can be issued again). */
export async function voidStatement(deps: TUsageDeps, actor: TActor, id: string, reason: string): Promise<TStatement> {
  return withTx(deps.db, (tx) => voidIn(tx, actor, id, reason));
}

export async function voidIn(tx: Executor, actor: TActor, id: string, reason: string): Promise<TStatement> {
  {
    const found = await statementRepo.findStatement(tx, id, undefined, true);
    if (!found) throw notFound();
    if (found.statement.status !== 'issued') throw new AppError('INVALID_STATUS_TRANSITION');
    await refuseWhilePaying(tx, found.statement);
    const row = await statementRepo.updateStatement(tx, id, {
      status: 'void',
      void_reason: reason,
      voided_at: new Date(),
      voided_by: userOf(actor),
    });
    await writeAudit(tx, actor, {
      action: 'usage.statement.void',
      entity: 'usage_statement',
      entityId: id,
      customerId: row.customer_id,
      before: { status: found.statement.status },
      after: { status: 'void', reason },
    });
    return toStatement(row, found.customer_name);
  }
}

/** Mark an issued statement paid (a bank transfer the staff saw arrive), with their note. */
export async function payStatement(deps: TUsageDeps, actor: TActor, id: string, note: string): Promise<TStatement> {
  return withTx(deps.db, async (tx) => {
    const found = await statementRepo.findStatement(tx, id, undefined, true);
    if (!found) throw notFound();
    if (found.statement.status !== 'issued') throw new AppError('INVALID_STATUS_TRANSITION');
    await refuseWhilePaying(tx, found.statement);
    const row = await statementRepo.updateStatement(tx, id, {
      status: 'paid',
      paid_at: new Date(),
      paid_by: userOf(actor),
      payment_note: note,
    });
    await writeAudit(tx, actor, {
      action: 'usage.statement.paid',
      entity: 'usage_statement',
      entityId: id,
      customerId: row.customer_id,
      before: { status: 'issued' },
      after: { status: 'paid', note },
    });
    return toStatement(row, found.customer_name);
  });
}

/**
 * Under the statement's row lock: a card or NewebPay payment of it in flight (or paid already, its event not
 * delivered yet) keeps it as it is — no void, no bank-transfer mark — until its outcome is recorded.
 */
async function refuseWhilePaying(tx: Executor, s: statementRepo.TStatementRow) {
  const held = await statementPayment(tx, s.id);
  if (held?.status === 'succeeded') throw new AppError('STATEMENT_ALREADY_PAID', { number: s.number });
  if (held) throw new AppError('STATEMENT_PAYMENT_IN_PROGRESS', { number: s.number, order_number: held.order_number });
}

/** The seller's issued statement, locked for its payment's start (billing's transaction): another's answers 404. */
const lockToPay =
  (id: string, customerId: string) =>
  async (tx: Executor): Promise<TStatementToPay> => {
    const found = await statementRepo.findStatement(tx, id, customerId, true);
    if (!found) throw notFound();
    const s = found.statement;
    if (s.status === 'paid') throw new AppError('STATEMENT_ALREADY_PAID', { number: s.number });
    if (s.status !== 'issued') throw new AppError('INVALID_STATUS_TRANSITION');
    return { id: s.id, customer_id: s.customer_id, number: s.number, month: s.month, total: s.total, tax: s.tax };
  };

/**
 * The seller pays an issued statement by card, through billing's TapPay flow (the one pending record per statement,
 * its confirmation job, TapPay's notify). Paid at once: the statement is marked paid here too (the same idempotent
 * step the billing.statement-paid event runs).
 */
export async function payByTapPay(
  deps: TBillingPayDeps,
  actor: Extract<TActor, { kind: 'user' }>,
  id: string,
  customerId: string,
  body: TStatementTapPayInput,
) {
  const res = await payStatementTapPay(deps, actor, lockToPay(id, customerId), body);
  if (res.payment.status === 'succeeded')
    await markPaidByPayment(deps.db, {
      statement_id: id,
      payment_id: res.payment.id,
      customer_id: customerId,
      order_number: res.payment.order_number,
      provider: 'tappay',
      amount: res.payment.amount,
    });
  return res;
}

/** The NewebPay form paying an issued statement (NewebPay's Notify then pays it, through billing). */
export async function payByNewebPay(
  deps: TBillingPayDeps,
  actor: Extract<TActor, { kind: 'user' }>,
  id: string,
  customerId: string,
) {
  return payStatementNewebPay(deps, actor, lockToPay(id, customerId));
}

/**
 * A payment of a statement succeeded (billing.statement-paid, delivered at least once; or the pay request itself):
 * an issued statement becomes paid, once — a second delivery finds it paid and adds nothing. A statement voided
 * meanwhile is not revived: the money is the staff's to refund, and the audit log says so.
 */
export async function markPaidByPayment(db: Db, p: TStatementPaid): Promise<{ paid: boolean }> {
  return withTx(db, async (tx) => {
    const found = await statementRepo.findStatement(tx, p.statement_id, p.customer_id, true);
    if (!found || found.statement.status === 'paid') return { paid: false };
    const actor: TActor = { kind: 'system', id: null, customerId: p.customer_id };
    const provider = p.provider === 'tappay' ? 'TapPay' : 'NewebPay';
    if (found.statement.status !== 'issued') {
      await writeAudit(tx, actor, {
        action: 'usage.statement.paid-after-void',
        entity: 'usage_statement',
        entityId: p.statement_id,
        customerId: p.customer_id,
        after: { payment: p.order_number, provider, amount: p.amount },
      });
      return { paid: false };
    }
    await statementRepo.updateStatement(tx, p.statement_id, {
      status: 'paid',
      paid_at: new Date(),
      paid_by: null,
      payment_note: `${provider} ${p.order_number}`,
    });
    await writeAudit(tx, actor, {
      action: 'usage.statement.paid',
      entity: 'usage_statement',
      entityId: p.statement_id,
      customerId: p.customer_id,
      before: { status: 'issued' },
      after: { status: 'paid', payment: p.order_number, provider, amount: p.amount },
    });
    return { paid: true };
  });
}
