import {
  RATE_CARD_KINDS,
  type TRateCard,
  type TRateCardInput,
  type TRateCardList,
  type TUsageEvent,
  type TUsageKind,
  type TUsageSummary,
  USAGE_TAX_RATE,
  ZRateCardInput,
} from '@wms/contracts';
import type { Db, Executor } from '../../db/client';
import { sqlState, withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import { pageWindow } from '../../platform/listing';
import * as repo from './usage.repository';

/**
 * Usage billing: the CRM's rate cards (a default card and per-seller cards, each from a day), and the billable events
 * the work writes — priced by the card valid on the work's day, recorded once per source document and kind.
 */

export interface TUsageDeps {
  db: Db;
}

function toCard(row: repo.TRateCardRow, chargeCount: number): TRateCard {
  return {
    id: row.id,
    customer_id: row.customer_id,
    valid_from: row.valid_from,
    rates: row.rates,
    tax_rate: row.tax_rate,
    storage_free_days: row.storage_free_days,
    note: row.note,
    charge_count: Number(chargeCount),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Only the kinds a card sets, each as given (a decimal string). */
function ratesOf(input: ReturnType<typeof ZRateCardInput.parse>): Record<string, string> {
  const rates: Record<string, string> = {};
  for (const kind of RATE_CARD_KINDS) {
    const v = input.rates[kind];
    if (v !== undefined) rates[kind] = v;
  }
  return rates;
}

/** The database's answers a card write can meet, as the errors naming the field. */
function cardWriteError(err: unknown): unknown {
  if (repo.isOwnerDayTaken(err)) return new AppError('DUPLICATE_VALUE', { field: 'valid_from' });
  if (sqlState(err) === '23503') return new AppError('NOT_FOUND', { field: 'customer_id' });
  return err;
}

export async function listRateCards(deps: TUsageDeps, customerId: string | undefined): Promise<TRateCardList> {
  const defaults = await repo.listCards(deps.db, null);
  const own = customerId ? await repo.listCards(deps.db, customerId) : [];
  return {
    default_cards: defaults.map((r) => toCard(r.card, r.charge_count)),
    cards: own.map((r) => toCard(r.card, r.charge_count)),
  };
}

export async function createRateCard(deps: TUsageDeps, actor: TActor, input: TRateCardInput): Promise<TRateCard> {
  const body = ZRateCardInput.parse(input);
  try {
    return await withTx(deps.db, async (tx) => {
      const row = await repo.insertCard(tx, {
        customer_id: body.customer_id,
        valid_from: body.valid_from,
        rates: ratesOf(body),
        storage_free_days: body.storage_free_days,
        note: body.note,
        updated_by: actor.kind === 'user' ? actor.id : null,
      });
      await writeAudit(tx, actor, {
        action: 'usage.rate-card.create',
        entity: 'usage_rate_card',
        entityId: row.id,
        after: {
          customer_id: row.customer_id,
          valid_from: row.valid_from,
          rates: row.rates,
          storage_free_days: row.storage_free_days,
        },
      });
      return toCard(row, 0);
    });
  } catch (err) {
    throw cardWriteError(err);
  }
}

/** A card that priced a charge is kept as it is (its charges say what it was): 409 IN_USE. */
async function lockUnused(tx: Executor, id: string): Promise<repo.TRateCardRow> {
  const found = await repo.findCard(tx, id, true);
  if (!found) throw notFound();
  if (Number(found.charge_count) > 0) throw new AppError('IN_USE', { field: 'valid_from' });
  return found.card;
}

export async function updateRateCard(
  deps: TUsageDeps,
  actor: TActor,
  id: string,
  input: TRateCardInput,
): Promise<TRateCard> {
  const body = ZRateCardInput.parse(input);
  try {
    return await withTx(deps.db, async (tx) => {
      const before = await lockUnused(tx, id);
      if (before.customer_id !== body.customer_id) throw new AppError('INVALID_FIELD', { field: 'customer_id' });
      const row = await repo.updateCard(tx, id, {
        customer_id: before.customer_id,
        valid_from: body.valid_from,
        rates: ratesOf(body),
        storage_free_days: body.storage_free_days,
        note: body.note,
        updated_by: actor.kind === 'user' ? actor.id : null,
      });
      await writeAudit(tx, actor, {
        action: 'usage.rate-card.update',
        entity: 'usage_rate_card',
        entityId: id,
        before: { valid_from: before.valid_from, rates: before.rates, storage_free_days: before.storage_free_days },
        after: { valid_from: row.valid_from, rates: row.rates, storage_free_days: row.storage_free_days },
      });
      return toCard(row, 0);
    });
  } catch (err) {
    throw cardWriteError(err);
  }
}

export async function deleteRateCard(deps: TUsageDeps, actor: TActor, id: string): Promise<{ ok: true }> {
  await withTx(deps.db, async (tx) => {
    const before = await lockUnused(tx, id);
    await repo.deleteCard(tx, id);
    await writeAudit(tx, actor, {
      action: 'usage.rate-card.delete',
      entity: 'usage_rate_card',
      entityId: id,
      before: { customer_id: before.customer_id, valid_from: before.valid_from, rates: before.rates },
    });
  });
  return { ok: true };
}

// ---- billable events from the work ----

export interface TWork {
  customerId: string;
  sourceType: 'inbound_receipt' | 'outbound_order' | 'return_receipt' | 'storage_snapshot';
  sourceId: string;
  documentNumber: string;
  at: Date;
  /** Quantity per kind; a kind at 0 (or not priced by the card) writes nothing. */
  quantities: Partial<Record<TUsageKind, number>>;
  /** The work's day when it is not the Taipei day of `at` (a storage snapshot's day). */
  day?: string;
}

/** The storage kind per cubic metre counts litres: its amount is litres × the card's rate per m³ ÷ 1,000. */
const SCALE: Partial<Record<TUsageKind, number>> = { storage_cbm_day: 1000 };

/** Price pieces of work by the card of their day and record them (once per document and kind). */
export async function recordWork(tx: Executor, works: TWork[]): Promise<number> {
  const rows: repo.TChargeInsert[] = [];
  for (const w of works) {
    const day = w.day ?? taipeiToday(w.at);
    const card = await repo.cardFor(tx, w.customerId, day);
    if (!card) continue;
    for (const [kind, quantity] of Object.entries(w.quantities)) {
      const price = card.rates[kind];
      if (price === undefined || !quantity || quantity <= 0) continue;
      rows.push({
        customer_id: w.customerId,
        kind,
        source_type: w.sourceType,
        source_id: w.sourceId,
        document_number: w.documentNumber,
        occurred_at: w.at,
        day,
        quantity,
        unit_price: price,
        rate_card_id: card.id,
        scale: SCALE[kind as TUsageKind] ?? 1,
      });
    }
  }
  return repo.insertCharges(tx, rows);
}

/** A confirmed inbound receipt: receiving per receipt and per accepted unit. Answers how many events were new. */
export async function recordReceiptConfirmed(
  db: Db,
  p: { customer_id: string; receipt_id: string; receipt_number: string; confirmed_at: string; units: number },
): Promise<{ recorded: number }> {
  const recorded = await withTx(db, (tx) =>
    recordWork(tx, [
      {
        customerId: p.customer_id,
        sourceType: 'inbound_receipt',
        sourceId: p.receipt_id,
        documentNumber: p.receipt_number,
        at: new Date(p.confirmed_at),
        quantities: { receiving_receipt: 1, receiving_unit: p.units },
      },
    ]),
  );
  return { recorded };
}

/** A confirmed return receipt: returns handling per return and per accepted unit. Answers how many events were new. */
export async function recordReturnConfirmed(
  db: Db,
  p: { customer_id: string; return_id: string; return_number: string; confirmed_at: string; units: number },
): Promise<{ recorded: number }> {
  const recorded = await withTx(db, (tx) =>
    recordWork(tx, [
      {
        customerId: p.customer_id,
        sourceType: 'return_receipt',
        sourceId: p.return_id,
        documentNumber: p.return_number,
        at: new Date(p.confirmed_at),
        quantities: { return_receipt: 1, return_unit: p.units },
      },
    ]),
  );
  return { recorded };
}

/** Shipped orders: pick & pack per order and per unit beyond the first. Answers how many events were new. */
export async function recordOrdersShipped(
  db: Db,
  p: { customer_id: string; orders: Array<{ order_id: string; number: string; shipped_at: string; units: number }> },
): Promise<{ recorded: number }> {
  const recorded = await withTx(db, (tx) =>
    recordWork(
      tx,
      p.orders.map((o) => ({
        customerId: p.customer_id,
        sourceType: 'outbound_order',
        sourceId: o.order_id,
        documentNumber: o.number,
        at: new Date(o.shipped_at),
        quantities: { pick_order: 1, pick_extra_unit: Math.max(o.units - 1, 0) },
      })),
    ),
  );
  return { recorded };
}

// ---- what a seller used ----

/** TWD as ten-thousandths, exactly (a correction's amount may be negative). */
export function toUnits(money: string): bigint {
  const negative = money.startsWith('-');
  const [whole = '0', frac = ''] = money.replace(/^-/, '').split('.');
  const v = BigInt(whole) * 10_000n + BigInt(frac.padEnd(4, '0').slice(0, 4));
  return negative ? -v : v;
}

export function fromUnits(v: bigint): string {
  const sign = v < 0n ? '-' : '';
  const a = v < 0n ? -v : v;
  const frac = String(a % 10_000n)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return `${sign}${a / 10_000n}${frac ? `.${frac}` : ''}`;
}

export const thisMonth = () => taipeiToday().slice(0, 7);

/** The last day of a month `YYYY-MM`. */
export function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

type TLineRow = { kind: string; events: number; quantity: number; amount: string };

/**
 * A month's lines priced: their sum, the minimum monthly fee's top-up (the card of the month's last day: what its
 * minimum is above the sum), the 5 % business tax of both rounded to whole TWD (half up), and the total.
 */
export async function priced(ex: Executor, customerId: string, month: string, lines: TLineRow[]) {
  const subtotal = lines.reduce((s, l) => s + toUnits(l.amount), 0n);
  const card = await repo.cardFor(ex, customerId, lastDayOf(month));
  const minimum = card?.rates.minimum_monthly ? toUnits(card.rates.minimum_monthly) : 0n;
  // No minimum set: nothing is topped up (a month credited below zero by corrections stays a credit).
  const minimumFee = minimum > 0n && minimum > subtotal ? minimum - subtotal : 0n;
  const base = subtotal + minimumFee;
  // base (1/10,000 TWD) × rate (1/10,000) = 1/10^8 TWD; to whole TWD, half up; back to 1/10,000.
  // A month credited below zero (corrections): the tax is credited too, rounded half away from zero alike.
  const abs = base < 0n ? -base : base;
  const taxAbs = ((abs * toUnits(USAGE_TAX_RATE) + 50_000_000n) / 100_000_000n) * 10_000n;
  const tax = base < 0n ? -taxAbs : taxAbs;
  return {
    month,
    lines: lines.map((l) => ({
      kind: l.kind as TUsageKind,
      events: Number(l.events),
      quantity: Number(l.quantity),
      amount: fromUnits(toUnits(l.amount)),
    })),
    subtotal: fromUnits(subtotal),
    minimum_fee: fromUnits(minimumFee),
    tax_rate: USAGE_TAX_RATE,
    tax: fromUnits(tax),
    total: fromUnits(base + tax),
  };
}

/** A seller's usage of a month so far (the month's draft statement). */
export async function monthUsage(deps: TUsageDeps, customerId: string, month = thisMonth()): Promise<TUsageSummary> {
  return withTx(deps.db, async (tx) => priced(tx, customerId, month, await repo.monthLines(tx, customerId, month)));
}

export function toEvent(r: repo.TChargeRow): TUsageEvent {
  return {
    id: r.id,
    kind: r.kind as TUsageKind,
    source_type: r.source_type as TUsageEvent['source_type'],
    source_id: r.source_id,
    document_number: r.document_number,
    occurred_at: r.occurred_at.toISOString(),
    day: r.day,
    quantity: r.quantity,
    unit_price: fromUnits(toUnits(r.unit_price)),
    amount: fromUnits(toUnits(r.amount)),
    corrects_id: r.corrects_id,
  };
}

/** A page of a seller's billable events of a month, each with its document. */
export async function monthEvents(
  deps: TUsageDeps,
  customerId: string,
  q: { month?: string; kind?: TUsageKind; page: number; page_size: number },
): Promise<{ count: number; results: TUsageEvent[] }> {
  const { rows, count } = await repo.monthEvents(deps.db, customerId, q.month ?? thisMonth(), q.kind, pageWindow(q));
  return { count, results: rows.map(toEvent) };
}
