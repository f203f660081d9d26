import {
  cvsChainOf,
  DEFAULT_LANGUAGE,
  isOrderLineQuantity,
  ORDER_TEXT_LIMITS,
  PACKAGE_SIZES,
  type TCvsSubtype,
  type TLanguage,
  type TOrderCategory,
  type TOrderChannel,
} from '@wms/contracts';
import { allOf, type Executor, type Tx } from '../../db/client';
import { order_cvs_stores } from '../../db/schema';
import { type TActor, tenantOf } from '../../platform/auth';
import { RowIssues, type TFieldIssue } from '../../platform/importing';
import { nextDocumentNumbers } from '../../platform/sequences';
import { loadShipRules, shipByOf } from '../ships';
import * as intakeRepo from './outbound.intake.repository';
import * as lookupRepo from './outbound.lookups.repository';
import { defaultsContext, fillDefaults, ORDER_PREFIX, type TDefaultsContext } from './outbound.orders';
import * as orderRepo from './outbound.orders.repository';
import { checkOrder, type TOrderDraft } from './outbound.rules';

/**
 * Orders created from outside rows — the order file import today, the Shopee sync and the online store next — with
 * one set of checks and one duplicate rule. A row is one line of an order; rows with the same platform order number
 * (`key`) are one order, wherever they stand; the first row of an order carries its fields. Codes (platform,
 * warehouse, carrier, product number or barcode) are resolved against the seller's own rows. A platform order number
 * the seller already has (same platform) is skipped, never duplicated, so feeding the same rows twice is harmless.
 */

/** An order's fields as they come from outside: the draft's fields, with codes and names instead of ids. */
export type TOrderIntakeFields = Omit<
  TOrderDraft,
  | 'platform_order_number'
  | 'category'
  | 'channel'
  | 'warehouse_id'
  | 'logistics_provider_id'
  | 'platform_id'
  | 'platform_logistics'
> & {
  platform_order_number: string;
  /** The marketplace arranges the delivery (default: no); its masked recipient is then kept as given. */
  platform_logistics?: boolean;
  /** Default: normal. */
  category: TOrderCategory | null;
  /** Default: ecommerce when the order has a platform, else manual. */
  channel: TOrderChannel | null;
  /** Platform code or name (default: the `platformId` option). */
  platform: string | null;
  /** Warehouse code (default: the seller's only warehouse). */
  warehouse: string | null;
  /** Carrier code or name (default: the first line's product's carrier). */
  logistics_provider: string | null;
};

/** One line: the product by number or barcode (candidates in fallback order, the first known one wins). */
export interface TOrderIntakeLine {
  products: string[];
  quantity: number | null;
  unit_price: string | null;
}

export interface TOrderIntakeRow {
  /** Where the row came from (a file's row number, an item's position): problems are reported by it. */
  row: number;
  /** The platform order number: rows with the same one are one order. */
  key: string;
  /** The order's fields; read from the first row of each order, later rows may leave them out. */
  order?: TOrderIntakeFields;
  line: TOrderIntakeLine;
  /** Convenience-store pickup (ECPay): the buyer's store, read with the order's fields. */
  cvs?: { subtype: TCvsSubtype; store_id: string; store_name: string } | null;
  /** Problems the source already found reading this row (a file's unreadable cells); their fields are not checked again. */
  problems?: TFieldIssue[];
}

/** The seller's products, platforms, carriers and warehouses by code: loaded once per run, shared by both passes. */
export interface TOrderLookups {
  products: Map<string, lookupRepo.TProductInfo>;
  platforms: Map<string, string>;
  providers: Map<string, { id: string; is_active: boolean }>;
  warehouses: Map<string, string>;
  defaults: TDefaultsContext;
}

/** Lookup key of a code or name (platform, carrier, warehouse, product): case and spaces ignored. */
export function codeKey(s: string): string {
  return s.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
}

export async function loadOrderLookups(
  ex: Executor,
  customerId: string,
  /** Only the products of these codes (one API order); default: every product (a file). */
  productCodes?: string[],
): Promise<TOrderLookups> {
  const [products, platforms, providers, warehouses, defaults] = await allOf(ex, [
    () =>
      productCodes
        ? lookupRepo.productsByCodeKeys(ex, customerId, [...new Set(productCodes.map(codeKey))])
        : lookupRepo.allProducts(ex, customerId),
    () => lookupRepo.platformsOf(ex, customerId),
    () => lookupRepo.providersOf(ex, customerId),
    () => lookupRepo.warehousesOf(ex, customerId),
    () => defaultsContext(ex, customerId),
  ]);
  const l: TOrderLookups = {
    products: new Map(),
    platforms: new Map(),
    providers: new Map(),
    warehouses: new Map(),
    defaults,
  };
  // Product numbers win over barcodes when one product's barcode is another's number.
  for (const p of products) if (p.barcode) l.products.set(codeKey(p.barcode), p);
  for (const p of products) l.products.set(codeKey(p.number), p);
  for (const p of platforms) {
    l.platforms.set(codeKey(p.name), p.id);
    l.platforms.set(codeKey(p.code), p.id);
  }
  for (const p of providers) {
    l.providers.set(codeKey(p.name), p);
    l.providers.set(codeKey(p.code), p);
  }
  for (const w of warehouses) l.warehouses.set(codeKey(w.code), w.id);
  return l;
}

const LINE_FIELDS = new Set(['product', 'quantity', 'unit_price']);
const isLine = (i: TFieldIssue) => LINE_FIELDS.has(i.field ?? '');
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const CONSIGNMENT = /^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/;

const TEXT_LIMITS = Object.entries(ORDER_TEXT_LIMITS);

/** Format problems of fields a file reader would already have refused (other sources pass typed values). */
function fieldProblems(o: TOrderIntakeFields, found: TFieldIssue[]): void {
  for (const [field, max] of TEXT_LIMITS) {
    const v = o[field as keyof typeof ORDER_TEXT_LIMITS] ?? '';
    if (v.length > max) found.push({ code: 'INVALID_FIELD', field, value: `${v.slice(0, 20)}…` });
  }
  if (o.consignment_number && !CONSIGNMENT.test(o.consignment_number))
    found.push({ code: 'INVALID_FIELD', field: 'consignment_number', value: o.consignment_number });
  for (const field of ['shipping_date', 'arrival_date'] as const)
    if (o[field] && !DAY.test(o[field])) found.push({ code: 'INVALID_FIELD', field, value: o[field] });
  for (const field of ['cod_amount', 'total_amount'] as const)
    if (o[field] && !AMOUNT.test(o[field])) found.push({ code: 'INVALID_FIELD', field, value: o[field] });
  if (!Number.isInteger(o.piece_count) || o.piece_count < 1 || o.piece_count > 99)
    found.push({ code: 'INVALID_FIELD', field: 'piece_count', value: String(o.piece_count) });
  if (o.volume && !(PACKAGE_SIZES as readonly string[]).includes(o.volume))
    found.push({ code: 'INVALID_FIELD', field: 'volume', value: o.volume });
}

/** Active, shippable, and (a combination) made of components: the product rule of checkOrder for one product. */
function isShippable(p: lookupRepo.TProductInfo): boolean {
  return p.status === 'active' && p.allow_shipping && (p.type !== 'combination' || p.component_count > 0);
}

interface TOrderMeta {
  firstRow: number;
  needsVolume: boolean;
  hasVolume: boolean;
}

/**
 * Checks rows as they stream and collects every problem by row: per row (fields, codes, the line's product and
 * quantity), per order (the rules of `checkOrder`, volume when a line needs it), per run (consignment numbers unique in
 * the rows and against the seller's other orders). Memory holds a few facts per order, never the rows.
 */
class OrderRowChecker {
  readonly orders = new Map<string, TOrderMeta>();
  private readonly consignments = new Map<string, { row: number; key: string; platformId: string | null }>();
  rows = 0;

  constructor(
    private readonly lookups: TOrderLookups,
    private readonly platformId: string | null,
    readonly issues: RowIssues,
  ) {}

  /** The line's product of the row `check` saw last (undefined when it has none). */
  product: lookupRepo.TProductInfo | undefined;
  /** This row's own problems (one list for every row: a good row, nearly every row of a file, allocates none). */
  private readonly own: TFieldIssue[] = [];

  /**
   * Check one row; the draft of the order when this is its first row (null when the order is not writable, or the
   * row has a problem); the line's product in `product`.
   */
  check(r: TOrderIntakeRow): TOrderDraft | null {
    this.rows++;
    const own = this.own;
    own.length = 0;
    const product = this.lineProduct(r.line, own);
    this.product = product;
    let draft: TOrderDraft | null = null;
    if (!r.key) own.push({ code: 'REQUIRED_FIELD', field: 'platform_order_number', value: null });
    else if (!this.orders.has(r.key)) {
      if (!r.order) throw new Error(`order fields missing on the first row of ${r.key}`);
      fieldProblems(r.order, own);
      draft = this.draftOf(r.order, own);
      fillDefaults(draft, product ? [product] : [], this.lookups.defaults);
      for (const i of checkOrder(draft, [])) own.push({ code: i.code, field: i.field, value: i.value ?? null });
      this.orders.set(r.key, { firstRow: r.row, needsVolume: false, hasVolume: !!draft.volume });
      if (draft.consignment_number) {
        if (this.consignments.has(draft.consignment_number))
          own.push({ code: 'DUPLICATE_VALUE', field: 'consignment_number', value: draft.consignment_number });
        else this.consignments.set(draft.consignment_number, { row: r.row, key: r.key, platformId: draft.platform_id });
      }
    }
    const meta = r.key ? this.orders.get(r.key) : undefined;
    if (product?.volume_required && meta) meta.needsVolume = true;
    if (!r.problems?.length && own.length === 0) return draft;
    // The source's problems, then this check's on the fields the source did not name.
    const found: TFieldIssue[] = r.problems?.length ? [...r.problems] : [];
    const named = found.length ? new Set(found.map((i) => i.field)) : null;
    for (const i of own) if (!named?.has(i.field)) found.push(i);
    // A row's order-level problems first, then its line's.
    if (found.length) this.issues.addAt(r.row, [...found.filter((i) => !isLine(i)), ...found.filter(isLine)]);
    return found.length ? null : draft;
  }

  /** The line's product (the first candidate that is a known product number or barcode); line problems into `found`. */
  private lineProduct(line: TOrderIntakeLine, found: TFieldIssue[]): lookupRepo.TProductInfo | undefined {
    if (line.quantity === null) found.push({ code: 'REQUIRED_FIELD', field: 'quantity', value: null });
    else if (!isOrderLineQuantity(line.quantity))
      found.push({ code: 'ABNORMAL_QUANTITY', field: 'quantity', value: String(line.quantity) });
    if (line.unit_price !== null && !AMOUNT.test(line.unit_price))
      found.push({ code: 'INVALID_FIELD', field: 'unit_price', value: line.unit_price });
    if (line.products.length === 0) {
      found.push({ code: 'REQUIRED_FIELD', field: 'product', value: null });
      return undefined;
    }
    for (const c of line.products) {
      const p = this.lookups.products.get(codeKey(c));
      if (!p) continue;
      if (!isShippable(p)) found.push({ code: 'PRODUCT_ABNORMAL', field: 'product', value: p.number });
      return p;
    }
    found.push({ code: 'PRODUCT_ABNORMAL', field: 'product', value: line.products[0]! });
    return undefined;
  }

  /** Resolve the order's codes into ids; problems into `found`. */
  private draftOf(o: TOrderIntakeFields, found: TFieldIssue[]): TOrderDraft {
    const l = this.lookups;
    let platformId = this.platformId;
    if (o.platform) {
      platformId = l.platforms.get(codeKey(o.platform)) ?? null;
      if (!platformId) found.push({ code: 'PLATFORM_ABNORMAL', field: 'platform', value: o.platform });
    }
    let providerId: string | null = null;
    if (o.logistics_provider) {
      const p = l.providers.get(codeKey(o.logistics_provider));
      if (!p?.is_active)
        found.push({ code: 'PATHWAY_ABNORMAL', field: 'logistics_provider', value: o.logistics_provider });
      else providerId = p.id;
    }
    let warehouseId: string | null = null;
    if (o.warehouse) {
      warehouseId = l.warehouses.get(codeKey(o.warehouse)) ?? null;
      if (!warehouseId) found.push({ code: 'INVALID_FIELD', field: 'warehouse', value: o.warehouse });
    } else if (l.warehouses.size === 1) warehouseId = l.warehouses.values().next().value!;
    else found.push({ code: 'REQUIRED_FIELD', field: 'warehouse', value: null });
    // Field by field, not `{ ...rest }`: one small object of a fixed shape per order (a file makes tens of thousands).
    return {
      platform_logistics: o.platform_logistics ?? false,
      platform_order_number: o.platform_order_number,
      third_party_number: o.third_party_number,
      consignment_number: o.consignment_number,
      shipping_date: o.shipping_date,
      category: o.category ?? 'normal',
      channel: o.channel ?? (platformId ? 'ecommerce' : 'manual'),
      is_cross_border: o.is_cross_border,
      recipient_name: o.recipient_name,
      recipient_phone: o.recipient_phone,
      recipient_mobile: o.recipient_mobile,
      recipient_postcode: o.recipient_postcode,
      recipient_address: o.recipient_address,
      sender_name: o.sender_name,
      sender_phone: o.sender_phone,
      sender_postcode: o.sender_postcode,
      sender_address: o.sender_address,
      shipping_remark: o.shipping_remark,
      warehouse_id: warehouseId,
      arrival_date: o.arrival_date,
      arrival_time_slot: o.arrival_time_slot,
      logistics_provider_id: providerId,
      platform_id: platformId,
      cod: o.cod,
      cod_amount: o.cod_amount,
      total_amount: o.total_amount,
      piece_count: o.piece_count,
      volume: o.volume,
    };
  }

  /** After the last row: volume of orders whose lines need it, consignment numbers against the seller's other orders. */
  async finish(ex: Executor, customerId: string): Promise<void> {
    for (const meta of this.orders.values())
      if (meta.needsVolume && !meta.hasVolume)
        this.issues.add({ row: meta.firstRow, code: 'REQUIRED_FIELD', field: 'volume', value: null });
    const numbers = [...this.consignments.keys()];
    for (let i = 0; i < numbers.length; i += 1000) {
      for (const taken of await orderRepo.ordersByConsignment(ex, customerId, numbers.slice(i, i + 1000))) {
        const mine = this.consignments.get(taken.consignment_number)!;
        // The same platform order again (a re-import, or this run's own write) is not a conflict.
        if (taken.platform_order_number !== mine.key || taken.platform_id !== mine.platformId)
          this.issues.add({
            row: mine.row,
            code: 'DUPLICATE_VALUE',
            field: 'consignment_number',
            value: taken.consignment_number,
          });
      }
    }
  }
}

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
      if (stores.length) await tx.insert(order_cvs_stores).values(stores);
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
