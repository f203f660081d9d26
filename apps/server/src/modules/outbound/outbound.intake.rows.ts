import {
  isOrderLineQuantity,
  ORDER_TEXT_LIMITS,
  PACKAGE_SIZES,
  type TCvsSubtype,
  type TOrderCategory,
  type TOrderChannel,
} from '@wms/contracts';
import { allOf, type Executor } from '../../db/client';
import type { RowIssues, TFieldIssue } from '../../platform/importing';
import * as catalog from '../catalog';
import * as lookupRepo from './outbound.lookups.repository';
import { defaultsContext, fillDefaults, type TDefaultsContext } from './outbound.orders';
import * as orderRepo from './outbound.orders.repository';
import { checkOrder, type TOrderDraft } from './outbound.rules';

/**
 * What order intake reads: a row from outside (an order's fields with codes and names, one line), the seller's
 * look-ups that resolve the codes, and the row checker both passes of outbound.intake.ts use.
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
  products: Map<string, catalog.TProductInfo>;
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
        ? catalog.productsByCodeKeys(ex, customerId, [...new Set(productCodes.map(codeKey))])
        : catalog.allProducts(ex, customerId),
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
function isShippable(p: catalog.TProductInfo): boolean {
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
export class OrderRowChecker {
  readonly orders = new Map<string, TOrderMeta>();
  private readonly consignments = new Map<string, { row: number; key: string; platformId: string | null }>();
  rows = 0;

  constructor(
    private readonly lookups: TOrderLookups,
    private readonly platformId: string | null,
    readonly issues: RowIssues,
  ) {}

  /** The line's product of the row `check` saw last (undefined when it has none). */
  product: catalog.TProductInfo | undefined;
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
  private lineProduct(line: TOrderIntakeLine, found: TFieldIssue[]): catalog.TProductInfo | undefined {
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
