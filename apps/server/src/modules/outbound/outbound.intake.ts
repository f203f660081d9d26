import { cvsChainOf, DEFAULT_LANGUAGE, type TLanguage } from '@wms/contracts';
import type { Executor, Tx } from '../../db/client';
import { type TActor, tenantOf } from '../../platform/auth';
import { RowIssues } from '../../platform/importing';
import { nextDocumentNumbers } from '../../platform/sequences';
import { loadShipRules, shipByOf } from '../ships';
import * as intakeRepo from './outbound.intake.repository';
import { loadOrderLookups, OrderRowChecker, type TOrderIntakeRow, type TOrderLookups } from './outbound.intake.rows';
import { ORDER_PREFIX } from './outbound.orders';
import type { TOrderDraft } from './outbound.rules';

/**
 * Orders created from outside rows — the order file import today, the Shopee sync and the online store next — with
 * one set of checks and one duplicate rule. A row is one line of an order; rows with the same platform order number
 * (`key`) are one order, wherever they stand; the first row of an order carries its fields. Codes (platform,
 * warehouse, carrier, product number or barcode) are resolved against the seller's own rows. A platform order number
 * the seller already has (same platform) is skipped, never duplicated, so feeding the same rows twice is harmless.
 */

// The row types callers build rows with.
export type { TOrderIntakeFields, TOrderIntakeRow } from './outbound.intake.rows';

/**
 * Rows one by one (an API call, a marketplace page), or a file's rows a batch at a time: a batch is worked through
 * without an await per row (each await of an async generator allocates promises, per row and per generator).
 */
export type TOrderRowSource =
  | Iterable<TOrderIntakeRow>
  | AsyncIterable<TOrderIntakeRow>
  | AsyncIterable<readonly TOrderIntakeRow[]>;

/** The rows of one item of a source: a batch, or one row. */
function rowsOfItem(item: TOrderIntakeRow | readonly TOrderIntakeRow[]): readonly TOrderIntakeRow[] {
  return Array.isArray(item) ? item : [item as TOrderIntakeRow];
}

export interface TOrderIntakeOptions {
  /** The e-commerce platform of rows that name none (a file uploaded for a channel, a marketplace's shop). */
  platformId?: string | null;
  /** Language of the problems' messages. */
  lang?: TLanguage;
  /** Already loaded (a caller that checks the rows first passes the same lookups to both calls). */
  lookups?: TOrderLookups;
  /** Called every few hundred rows with the number of rows done. */
  onRows?: (done: number) => void | Promise<void>;
  /** When the orders arrived, for their ship-by time (default: now; tests pass a fixed clock). */
  now?: Date;
}

/**
 * Check rows without writing anything (a file's first pass, outside any transaction): every problem by row, or the
 * number of rows and orders. Throws IMPORT_REJECTED with the problems.
 */
export async function checkOrderRows(
  ex: Executor,
  actor: TActor,
  rows: TOrderRowSource,
  opts: TOrderIntakeOptions & { issues?: RowIssues } = {},
): Promise<{ rows: number; orders: number }> {
  const customerId = tenantOf(actor);
  const issues = opts.issues ?? new RowIssues(opts.lang ?? DEFAULT_LANGUAGE);
  const checker = new OrderRowChecker(
    opts.lookups ?? (await loadOrderLookups(ex, customerId)),
    opts.platformId ?? null,
    issues,
  );
  for await (const item of rows) {
    for (const r of rowsOfItem(item)) {
      checker.check(r);
      if (checker.rows % 1000 === 0) await opts.onRows?.(checker.rows);
    }
  }
  await checker.finish(ex, customerId);
  issues.rejectIfAny();
  return { rows: checker.rows, orders: checker.orders.size };
}

/**
 * Orders (and lines) per write batch. 100 keeps a batch's JSON parameter (two-byte text as soon as one address is CJK,
 * ~800 bytes an order) under V8's large-object size (128 KiB): a larger string goes straight to the large-object space,
 * which only a full collection frees — 250 grew the heap by ~40 MB of them over a 100,000-row import.
 */
const ORDER_BATCH = 100;
const LINE_BATCH = 400;

/**
 * Create orders and their lines from outside rows in the caller's transaction: every row checked as in
 * `checkOrderRows`, orders and lines inserted in batches, platform order numbers the seller already has skipped
 * (`INSERT … ON CONFLICT DO NOTHING` covers one written concurrently). Any problem throws IMPORT_REJECTED with all of
 * them by row, so the caller's transaction rolls back and nothing is written. Returns the new orders (with the row
 * each started on) and how many were skipped as duplicates.
 */
export async function createOrdersFromRows(
  tx: Tx,
  actor: TActor,
  rows: TOrderRowSource,
  opts: TOrderIntakeOptions = {},
): Promise<{
  rows: number;
  created: Array<{ id: string; number: string; key: string; row: number }>;
  skipped: number;
}> {
  const customerId = tenantOf(actor);
  const issues = new RowIssues(opts.lang ?? DEFAULT_LANGUAGE);
  const checker = new OrderRowChecker(
    opts.lookups ?? (await loadOrderLookups(tx, customerId)),
    opts.platformId ?? null,
    issues,
  );
  // Every new order's ship-by time, from the seller's promise and the warehouses' cut-offs and calendars.
  const arrivedAt = opts.now ?? new Date();
  const shipRules = await loadShipRules(tx, customerId, arrivedAt);
  const ids = new Map<string, string | null>(); // order key → id (null: a duplicate that was skipped)
  const lineNo = new Map<string, number>();
  const created: Array<{ id: string; number: string; key: string; row: number }> = [];
  let skipped = 0;
  type TPendingLine = { key: string; productId: string; quantity: number; unitPrice: string | null; row: number };
  type TPendingOrder = { draft: TOrderDraft; row: number; cvs: TOrderIntakeRow['cvs'] };
  let pendingOrders = new Map<string, TPendingOrder>();
  let pendingLines: TPendingLine[] = [];

  /** Write one batch: its orders (new platform order numbers only), then its lines (of orders written now or before). */
  const flush = async (orders: Map<string, TPendingOrder>, pending: TPendingLine[]) => {
    if (orders.size) {
      const byPlatform = new Map<string | null, string[]>();
      for (const [key, { draft }] of orders) {
        const keys = byPlatform.get(draft.platform_id);
        if (keys) keys.push(key);
        else byPlatform.set(draft.platform_id, [key]);
      }
      const fresh: Array<[string, TPendingOrder]> = [];
      for (const [platformId, keys] of byPlatform) {
        const existing = await intakeRepo.existingPlatformNumbers(tx, customerId, platformId, keys);
        for (const key of keys) {
          if (existing.has(key)) {
            ids.set(key, null);
            skipped++;
          } else fresh.push([key, orders.get(key)!]);
        }
      }
      const numbers = await nextDocumentNumbers(tx, customerId, ORDER_PREFIX, fresh.length);
      const inserted = await intakeRepo.insertOrdersSkippingDuplicates(
        tx,
        { customer_id: customerId, created_by: actor.id },
        fresh.map(([, { draft, cvs }], i) => ({
          number: numbers[i]!,
          // An order for a convenience store takes its chain's cut-off when the warehouse has one.
          ship_by: shipByOf(
            shipRules,
            draft.warehouse_id,
            draft.logistics_provider_id,
            arrivedAt,
            cvs ? cvsChainOf(cvs.subtype) : null,
          ),
          values: draft,
        })),
      );
      const byKey = new Map(inserted.map((r) => [`${r.platform_id}|${r.platform_order_number}`, r]));
      for (const [key, { draft, row }] of fresh) {
        const order = byKey.get(`${draft.platform_id}|${key}`);
        ids.set(key, order?.id ?? null);
        if (order) created.push({ id: order.id, number: order.number, key, row });
        else skipped++; // written by a concurrent import a moment ago
      }
      // The buyers' pickup stores of the new orders, in the same transaction.
      const stores = fresh.flatMap(([key, { cvs }]) => {
        const orderId = ids.get(key);
        return orderId && cvs ? [{ order_id: orderId, customer_id: customerId, ...cvs, source: 'import' }] : [];
      });
      await intakeRepo.insertCvsStores(tx, stores);
    }
    const lines: intakeRepo.TLineTuple[] = [];
    for (const l of pending) {
      const orderId = ids.get(l.key);
      if (!orderId) continue;
      const n = (lineNo.get(l.key) ?? 0) + 1;
      lineNo.set(l.key, n);
      lines.push([customerId, orderId, n, l.productId, l.quantity, l.unitPrice, l.row]);
    }
    await intakeRepo.insertLineTuples(tx, lines);
  };

  // Batches are written one after the other, each while the rows of the next one are read and checked (the database
  // and this process work at the same time); a failed write surfaces at the next batch or at the end.
  let writing: Promise<void> = Promise.resolve();
  const write = async () => {
    const orders = pendingOrders;
    const lines = pendingLines;
    pendingOrders = new Map();
    pendingLines = [];
    await writing;
    writing = flush(orders, lines);
    writing.catch(() => undefined);
  };

  for await (const item of rows) {
    for (const r of rowsOfItem(item)) {
      const draft = checker.check(r);
      const product = checker.product;
      // After the first problem nothing more is written: the rest is only read for its problems.
      if (issues.count) continue;
      if (draft) pendingOrders.set(r.key, { draft, row: r.row, cvs: r.cvs ?? null });
      pendingLines.push({
        key: r.key,
        productId: product!.id,
        quantity: r.line.quantity!,
        unitPrice: r.line.unit_price,
        row: r.row,
      });
      if (pendingOrders.size >= ORDER_BATCH || pendingLines.length >= LINE_BATCH) {
        await write();
        await opts.onRows?.(checker.rows);
      }
    }
  }
  if (!issues.count) await write();
  await writing;
  await checker.finish(tx, customerId);
  issues.rejectIfAny();
  return { rows: checker.rows, created, skipped };
}
