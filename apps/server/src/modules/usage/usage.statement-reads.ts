import type {
  TPartnerUsageEvent,
  TRevenue,
  TStatement,
  TStatementTotals,
  TStorageSnapshot,
  TUsageEvent,
  TUsageKind,
} from '@wms/contracts';
import { notFound } from '../../platform/errors';
import { EXPORT_MAX_ROWS, pageWindow } from '../../platform/listing';
import * as repo from './usage.repository';
import { fromUnits, type TUsageDeps, thisMonth, toEvent, toUnits } from './usage.service';
import * as snapshotRepo from './usage.snapshots.repository';
import { toStatement } from './usage.statements';
import * as statementRepo from './usage.statements.repository';

/**
 * Reading statements (issue #35): the seller's and the CRM's lists (with their sums and export), revenue per seller
 * and month, one statement, the events it bills (a page; all of them for its files; the partner API's view) and a
 * storage snapshot an event drills down to.
 */

const money = (v: string) => fromUnits(toUnits(v));

const addMonth = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 7);
};

export async function listStatements(
  deps: TUsageDeps,
  f: statementRepo.TStatementFilter & { page: number; page_size: number },
): Promise<{ count: number; results: TStatement[] }> {
  const { rows, count } = await statementRepo.listStatements(deps.db, f, pageWindow(f));
  return { count, results: rows.map((r) => toStatement(r.statement, r.customer_name)) };
}

/** The CRM's statements of every seller: a page, and the sums of everything the filters find (per status too). */
export async function crmListStatements(
  deps: TUsageDeps,
  f: statementRepo.TStatementFilter & { page: number; page_size: number },
): Promise<{ count: number; results: TStatement[]; totals: TStatementTotals }> {
  const page = await listStatements(deps, f);
  const byStatus = await statementRepo.statementTotals(deps.db, f);
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
export async function exportStatements(deps: TUsageDeps, f: statementRepo.TStatementFilter): Promise<TStatement[]> {
  const { rows } = await statementRepo.listStatements(deps.db, f, { limit: EXPORT_MAX_ROWS, offset: 0 });
  return rows.map((r) => toStatement(r.statement, r.customer_name));
}

/** Revenue per seller per month over the last `months` months (this month included), before tax. */
export async function revenue(deps: TUsageDeps, months: number): Promise<TRevenue> {
  const last = thisMonth();
  const list = Array.from({ length: months }, (_, i) => addMonth(last, i - months + 1));
  const rows = await statementRepo.revenueBySellerMonth(deps.db, list[0]!);
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
  const found = await statementRepo.findStatement(deps.db, id, customerId);
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
  const found = await statementRepo.findStatement(deps.db, id, customerId);
  if (!found) throw notFound();
  const { rows, count } = await statementRepo.statementEvents(deps.db, found.statement, q.kind, pageWindow(q));
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
  const found = await statementRepo.findStatement(deps.db, id);
  if (!found) throw notFound();
  const out: TUsageEvent[] = [];
  for (let page = 1; ; page++) {
    const window = { limit: 5000, offset: (page - 1) * 5000 };
    const { rows } = await statementRepo.statementEvents(deps.db, found.statement, undefined, window);
    out.push(...rows.map(toEvent));
    if (rows.length < 5000) return out;
  }
}

export async function getSnapshot(deps: TUsageDeps, id: string, customerId?: string): Promise<TStorageSnapshot> {
  const row = await snapshotRepo.findSnapshot(deps.db, id, customerId);
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
