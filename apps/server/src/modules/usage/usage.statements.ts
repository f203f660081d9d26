import type {
  TPartnerUsageEvent,
  TRevenue,
  TStatement,
  TStatementTapPayInput,
  TStatementTotals,
  TStorageSnapshot,
  TUsageEvent,
  TUsageKind,
} from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { EXPORT_MAX_ROWS, pageWindow } from '../../platform/listing';
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
import * as repo from './usage.repository';
import { fromUnits, priced, type TUsageDeps, thisMonth, toEvent, toUnits } from './usage.service';

const addMonth = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 7);
};

/**
 * Statements (issue #35): a seller's month, issued by staff once it has ended — numbered, its charges marked as billed
 * on it and its lines and totals frozen — then marked paid (a bank transfer) or voided with a reason, after which the
 * month can be issued again. Every line drills down to its events, every event to its document.
 */

const money = (v: string) => fromUnits(toUnits(v));

export function toStatement(row: repo.TStatementRow, customerName: string): TStatement {
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
    if (repo.isMonthTaken(err)) throw new AppError('DUPLICATE_VALUE', { field: 'month' });
    if (sqlState(err) === '23503') throw new AppError('NOT_FOUND', { field: 'customer_id' });
    throw err;
  }
}

/** Issue a seller's month in the caller's transaction (a first issue, or a re-issue after a correction's void). */
export async function issueIn(tx: Executor, actor: TActor, input: { customer_id: string; month: string }) {
  {
    const now = new Date();
    const number = await nextDocumentNumber(tx, input.customer_id, 'ST', now);
    const row = await repo.insertStatement(tx, {
      customer_id: input.customer_id,
      month: input.month,
      number,
      issued_at: now,
      issued_by: userOf(actor),
      tax_rate: '0.05',
      billed_through: await repo.billThrough(tx, input.customer_id),
    });
    const summary = await priced(tx, input.customer_id, input.month, await repo.statementLines(tx, row));
    const issued = await repo.updateStatement(tx, row.id, {
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
    const found = await repo.findStatement(tx, issued.id);
    return toStatement(issued, found?.customer_name ?? '');
  }
}

/** Void an issued statement with a reason: it bills nothing any more (the month can be issued again). */
export async function voidStatement(deps: TUsageDeps, actor: TActor, id: string, reason: string): Promise<TStatement> {
  return withTx(deps.db, (tx) => voidIn(tx, actor, id, reason));
}

export async function voidIn(tx: Executor, actor: TActor, id: string, reason: string): Promise<TStatement> {
  {
    const found = await repo.findStatement(tx, id, undefined, true);
    if (!found) throw notFound();
    if (found.statement.status !== 'issued') throw new AppError('INVALID_STATUS_TRANSITION');
    await refuseWhilePaying(tx, found.statement);
    const row = await repo.updateStatement(tx, id, {
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
    const found = await repo.findStatement(tx, id, undefined, true);
    if (!found) throw notFound();
    if (found.statement.status !== 'issued') throw new AppError('INVALID_STATUS_TRANSITION');
    await refuseWhilePaying(tx, found.statement);
    const row = await repo.updateStatement(tx, id, {
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
async function refuseWhilePaying(tx: Executor, s: repo.TStatementRow) {
  const held = await statementPayment(tx, s.id);
  if (held?.status === 'succeeded') throw new AppError('STATEMENT_ALREADY_PAID', { number: s.number });
  if (held) throw new AppError('STATEMENT_PAYMENT_IN_PROGRESS', { number: s.number, order_number: held.order_number });
}

/** The seller's issued statement, locked for its payment's start (billing's transaction): another's answers 404. */
const lockToPay =
  (id: string, customerId: string) =>
  async (tx: Executor): Promise<TStatementToPay> => {
    const found = await repo.findStatement(tx, id, customerId, true);
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
    const found = await repo.findStatement(tx, p.statement_id, p.customer_id, true);
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
    await repo.updateStatement(tx, p.statement_id, {
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

export async function listStatements(
  deps: TUsageDeps,
  f: repo.TStatementFilter & { page: number; page_size: number },
): Promise<{ count: number; results: TStatement[] }> {
  const { rows, count } = await repo.listStatements(deps.db, f, pageWindow(f));
  return { count, results: rows.map((r) => toStatement(r.statement, r.customer_name)) };
}

/** The CRM's statements of every seller: a page, and the sums of everything the filters find (per status too). */
export async function crmListStatements(
  deps: TUsageDeps,
  f: repo.TStatementFilter & { page: number; page_size: number },
): Promise<{ count: number; results: TStatement[]; totals: TStatementTotals }> {
  const page = await listStatements(deps, f);
  const byStatus = await repo.statementTotals(deps.db, f);
  const sum = (k: 'net' | 'tax' | 'total') => money(fromUnits(byStatus.reduce((n, r) => n + toUnits(r[k]), 0n)));
  return {
    ...page,
    totals: {
      count: byStatus.reduce((n, r) => n + Number(r.count), 0),
      net: sum('net'),
      tax: sum('tax'),
      total: sum('total'),
      by_status: byStatus.map((r) => ({
        status: r.status as TStatement['status'],
        count: Number(r.count),
        net: money(r.net),
        tax: money(r.tax),
        total: money(r.total),
      })),
    },
  };
}

/** Every statement the filters find (up to EXPORT_MAX_ROWS), for the CRM's export. */
export async function exportStatements(deps: TUsageDeps, f: repo.TStatementFilter): Promise<TStatement[]> {
  const { rows } = await repo.listStatements(deps.db, f, { limit: EXPORT_MAX_ROWS, offset: 0 });
  return rows.map((r) => toStatement(r.statement, r.customer_name));
}

/** Revenue per seller per month over the last `months` months (this month included), before tax. */
export async function revenue(deps: TUsageDeps, months: number): Promise<TRevenue> {
  const last = thisMonth();
  const list = Array.from({ length: months }, (_, i) => addMonth(last, i - months + 1));
  const rows = await repo.revenueBySellerMonth(deps.db, list[0]!);
  const sellers = new Map<
    string,
    { customer_id: string; customer_name: string; cells: Map<string, (typeof rows)[0]> }
  >();
  for (const r of rows) {
    if (r.month > last) continue;
    const s = sellers.get(r.customer_id) ?? {
      customer_id: r.customer_id,
      customer_name: r.customer_name,
      cells: new Map(),
    };
    s.cells.set(r.month, r);
    sellers.set(r.customer_id, s);
  }
  const cell = (month: string, r?: { net: string; paid: string }) => ({
    month,
    net: money(r?.net ?? '0'),
    paid: money(r?.paid ?? '0'),
  });
  return {
    months: list,
    sellers: [...sellers.values()].map((s) => ({
      customer_id: s.customer_id,
      customer_name: s.customer_name,
      net: fromUnits([...s.cells.values()].reduce((n, r) => n + toUnits(r.net), 0n)),
      months: list.map((m) => cell(m, s.cells.get(m))),
    })),
    totals: list.map((m) => {
      const of = [...sellers.values()].map((s) => s.cells.get(m)).filter((r) => !!r);
      return {
        month: m,
        net: fromUnits(of.reduce((n, r) => n + toUnits(r.net), 0n)),
        paid: fromUnits(of.reduce((n, r) => n + toUnits(r.paid), 0n)),
      };
    }),
  };
}

/** One statement; with `customerId`, only that seller's (another seller's answers 404). */
export async function getStatement(deps: TUsageDeps, id: string, customerId?: string): Promise<TStatement> {
  const found = await repo.findStatement(deps.db, id, customerId);
  if (!found) throw notFound();
  return toStatement(found.statement, found.customer_name);
}

/** A page of the events billed on a statement (a void one has none left: they went back to its month). */
export async function statementEvents(
  deps: TUsageDeps,
  id: string,
  customerId: string | undefined,
  q: { kind?: TUsageKind; page: number; page_size: number },
): Promise<{ count: number; results: TUsageEvent[] }> {
  const found = await repo.findStatement(deps.db, id, customerId);
  if (!found) throw notFound();
  const { rows, count } = await repo.statementEvents(deps.db, found.statement, q.kind, pageWindow(q));
  return { count, results: rows.map(toEvent) };
}

/** A page of a statement's events for the partner API: a correction shows the document of the event it corrects. */
export async function partnerStatementEvents(
  deps: TUsageDeps,
  id: string,
  customerId: string,
  q: { kind?: TUsageKind; page: number; page_size: number },
): Promise<{ count: number; results: TPartnerUsageEvent[] }> {
  const page = await statementEvents(deps, id, customerId, q);
  const results: TPartnerUsageEvent[] = [];
  for (const e of page.results) {
    if (e.source_type !== 'correction') {
      results.push({ ...e, source_type: e.source_type });
      continue;
    }
    const old = await repo.findCharge(deps.db, e.corrects_id!, customerId);
    results.push({
      ...e,
      source_type: old!.source_type as TPartnerUsageEvent['source_type'],
      source_id: old!.source_id,
    });
  }
  return { count: page.count, results };
}

/** Every event billed on a statement, for its files. */
export async function allStatementEvents(deps: TUsageDeps, id: string): Promise<TUsageEvent[]> {
  const found = await repo.findStatement(deps.db, id);
  if (!found) throw notFound();
  const out: TUsageEvent[] = [];
  for (let page = 1; ; page++) {
    const window = { limit: 5000, offset: (page - 1) * 5000 };
    const { rows } = await repo.statementEvents(deps.db, found.statement, undefined, window);
    out.push(...rows.map(toEvent));
    if (rows.length < 5000) return out;
  }
}

export async function getSnapshot(deps: TUsageDeps, id: string, customerId?: string): Promise<TStorageSnapshot> {
  const row = await repo.findSnapshot(deps.db, id, customerId);
  if (!row) throw notFound();
  return {
    id: row.id,
    warehouse_id: row.warehouse_id,
    day: row.day,
    locations: row.locations,
    units: row.units,
    litres: row.litres,
    charged_locations: row.charged_locations,
    charged_units: row.charged_units,
    charged_litres: row.charged_litres,
    free_days: row.free_days,
  };
}
