import type { TStatement, TStorageSnapshot, TUsageEvent, TUsageKind } from '@wms/contracts';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import { pageWindow } from '../../platform/listing';
import { nextDocumentNumber } from '../../platform/sequences';
import * as repo from './usage.repository';
import { fromUnits, priced, type TUsageDeps, thisMonth, toEvent, toUnits } from './usage.service';

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
    return await withTx(deps.db, async (tx) => {
      const now = new Date();
      const number = await nextDocumentNumber(tx, input.customer_id, 'ST', now);
      const row = await repo.insertStatement(tx, {
        customer_id: input.customer_id,
        month: input.month,
        number,
        issued_at: now,
        issued_by: userOf(actor),
        tax_rate: '0.05',
      });
      await repo.billCharges(tx, row.id, input.customer_id, input.month);
      const summary = await priced(tx, input.customer_id, input.month, await repo.statementLines(tx, row.id));
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
    });
  } catch (err) {
    if (repo.isMonthTaken(err)) throw new AppError('DUPLICATE_VALUE', { field: 'month' });
    if (sqlState(err) === '23503') throw new AppError('NOT_FOUND', { field: 'customer_id' });
    throw err;
  }
}

/** Void an issued statement with a reason: its charges are no longer billed on it (the month can be issued again). */
export async function voidStatement(deps: TUsageDeps, actor: TActor, id: string, reason: string): Promise<TStatement> {
  return withTx(deps.db, async (tx) => {
    const found = await repo.findStatement(tx, id, undefined, true);
    if (!found) throw notFound();
    if (found.statement.status !== 'issued') throw new AppError('INVALID_STATUS_TRANSITION');
    await repo.unbillCharges(tx, id);
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
  });
}

/** Mark an issued statement paid (a bank transfer the staff saw arrive), with their note. */
export async function payStatement(deps: TUsageDeps, actor: TActor, id: string, note: string): Promise<TStatement> {
  return withTx(deps.db, async (tx) => {
    const found = await repo.findStatement(tx, id, undefined, true);
    if (!found) throw notFound();
    if (found.statement.status !== 'issued') throw new AppError('INVALID_STATUS_TRANSITION');
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

export async function listStatements(
  deps: TUsageDeps,
  f: { customerId?: string; month?: string; status?: string; page: number; page_size: number },
): Promise<{ count: number; results: TStatement[] }> {
  const { rows, count } = await repo.listStatements(deps.db, f, pageWindow(f));
  return { count, results: rows.map((r) => toStatement(r.statement, r.customer_name)) };
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
  await getStatement(deps, id, customerId);
  const { rows, count } = await repo.statementEvents(deps.db, id, q.kind, pageWindow(q));
  return { count, results: rows.map(toEvent) };
}

/** Every event billed on a statement, for its files. */
export async function allStatementEvents(deps: TUsageDeps, id: string): Promise<TUsageEvent[]> {
  const out: TUsageEvent[] = [];
  for (let page = 1; ; page++) {
    const { rows } = await repo.statementEvents(deps.db, id, undefined, { limit: 5000, offset: (page - 1) * 5000 });
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
