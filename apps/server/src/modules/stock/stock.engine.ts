/**
 * The stock engine: the only code that writes `stock_balances`, `stock_movements` and `stock_reservations`.
 * Inbound, outbound, returns, transfers and stocktake call these functions inside their own transaction (`tx`).
 *
 * Every change of on_hand writes its ledger row in the same transaction. Row locks are taken in one fixed order
 * (product, location, expiry: see compareStockKeys) and every change is a conditional statement
 * (`… WHERE on_hand - reserved >= $q`), so concurrent callers neither lose updates nor deadlock, and the CHECKs
 * (on_hand >= 0, 0 <= reserved <= on_hand) are a last line that is never reached in normal operation.
 * The API is described for callers in docs/ARCHITECTURE.md, section "Stock engine".
 *
 * Why one file over 400 lines (issue #33 allows three, each with its reason): it is one engine with one set of
 * invariants — the lock order, the conditional statements and the ledger row of every change of on_hand or reserved —
 * that every writer of the three stock tables must share; split by caller, each part could write the tables and the
 * invariants would have to be kept in several files. Read models and SQL pieces other modules embed live beside it in
 * stock.documents.repository.ts, the pure planning in stock.rules.ts.
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows, type Tx, uuidArray } from '../../db/client';
import {
  product_components,
  products,
  type STOCK_REASON_VALUES,
  stock_movements,
  storage_locations,
} from '../../db/schema';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError } from '../../platform/errors';
import {
  compareStockKeys,
  isWholePositive,
  kitQuantity,
  lotRuleViolation,
  planPicks,
  stockKeyString,
  type TCandidate,
  type TPick,
  type TStockKey,
} from './stock.rules';

export type TStockReason = (typeof STOCK_REASON_VALUES)[number];

/** Who changes stock: the tenant every row is scoped by, and the user written into the ledger. */
export interface TStockActor {
  customerId: string;
  userId: string | null;
}

export function stockActorOf(actor: TActor): TStockActor {
  if (!actor.customerId) throw new AppError('FORBIDDEN');
  return { customerId: actor.customerId, userId: actor.id };
}

/** The source document of a change (shown in the stock log, filterable by number). */
export interface TStockDocument {
  /** 'inbound', 'outbound', 'return', 'transfer', 'stocktake', 'adjustment', … */
  type: string;
  id: string | null;
  number: string;
}

export interface TBalance extends TStockKey {
  id: string;
  warehouseId: string;
  onHand: number;
  reserved: number;
  /** ISO timestamp (UTC): when stock first entered this pile; the FIFO key. */
  receivedAt: string;
  locationCode: string;
  locationKind: string;
  pickSequence: number;
}

export interface TMovement extends TStockKey {
  id: number;
  balanceId: string;
  warehouseId: string;
  quantity: number;
  onHandAfter: number;
  reason: TStockReason;
}

export interface TAllocation {
  /** The caller's reference of the demand line (e.g. an order line id), passed through. */
  ref: string | null;
  /** The product that was asked for: the combination product when a kit was exploded into components. */
  requestedProductId: string;
  productId: string;
  balanceId: string;
  warehouseId: string;
  locationId: string;
  locationCode: string;
  expiryDate: string | null;
  quantity: number;
}

type TRawBalance = {
  id: string;
  product_id: string;
  warehouse_id: string;
  location_id: string;
  expiry_date: string | null;
  on_hand: number;
  reserved: number;
  received_at: string;
  location_code: string;
  location_kind: string;
  pick_sequence: number;
};

const BALANCE_COLUMNS = sql.raw(`b.id, b.product_id, b.warehouse_id, b.location_id, b.expiry_date::text as expiry_date,
  b.on_hand, b.reserved, to_char(b.received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as received_at`);
const LOCATION_COLUMNS = sql.raw('l.code as location_code, l.kind as location_kind, l.pick_sequence');

function toBalance(r: TRawBalance): TBalance {
  return {
    id: r.id,
    productId: r.product_id,
    warehouseId: r.warehouse_id,
    locationId: r.location_id,
    expiryDate: r.expiry_date,
    onHand: Number(r.on_hand),
    reserved: Number(r.reserved),
    receivedAt: r.received_at,
    locationCode: r.location_code,
    locationKind: r.location_kind,
    pickSequence: Number(r.pick_sequence),
  };
}

function shortage(params: Record<string, unknown>): AppError {
  return new AppError('INVENTORY_SHORTAGE', params);
}

function expiryCondition(expiryDate: string | null): SQL {
  return expiryDate === null ? sql`b.expiry_date is null` : sql`b.expiry_date = ${expiryDate}::date`;
}

// ---------------------------------------------------------------------------------------------------------------
// Loading and validating what a change refers to

export type TProductInfo = {
  id: string;
  number: string;
  type: string;
  shelfLifeMonths: number | null;
  sellableRuleMonths: number | null;
};
type TLocationInfo = { id: string; warehouseId: string; code: string; kind: string; isActive: boolean };

async function loadProducts(tx: Executor, customerId: string, ids: string[]): Promise<Map<string, TProductInfo>> {
  const map = await findProducts(tx, customerId, ids);
  for (const id of new Set(ids)) if (!map.has(id)) throw new AppError('NOT_FOUND', { field: 'product_id', id });
  return map;
}

async function loadLocations(tx: Executor, customerId: string, ids: string[]): Promise<Map<string, TLocationInfo>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await tx
    .select({
      id: storage_locations.id,
      warehouseId: storage_locations.warehouse_id,
      code: storage_locations.code,
      kind: storage_locations.kind,
      isActive: storage_locations.is_active,
    })
    .from(storage_locations)
    .where(and(eq(storage_locations.customer_id, customerId), inArray(storage_locations.id, unique)));
  const map = new Map(rows.map((r) => [r.id, r]));
  for (const id of unique) if (!map.has(id)) throw new AppError('NOT_FOUND', { field: 'location_id', id });
  return map;
}

/** The lot rule: a shelf-life product's stock carries an expiry date, other products' stock never does. */
function assertLot(product: TProductInfo, expiryDate: string | null): void {
  const code = lotRuleViolation(product, expiryDate);
  if (code === 'PRODUCT_ABNORMAL') throw new AppError(code, { product_id: product.id });
  if (code) throw new AppError(code, { field: 'expiry_date', product_id: product.id });
}

async function insertMovements(
  tx: Tx,
  who: TStockActor,
  document: TStockDocument,
  reason: TStockReason,
  note: string,
  rows: Array<{ balance: TBalance; quantity: number; onHandAfter: number }>,
): Promise<TMovement[]> {
  if (rows.length === 0) return [];
  const at = new Date();
  const inserted = await tx
    .insert(stock_movements)
    .values(
      rows.map((r) => ({
        customer_id: who.customerId,
        balance_id: r.balance.id,
        product_id: r.balance.productId,
        warehouse_id: r.balance.warehouseId,
        location_id: r.balance.locationId,
        expiry_date: r.balance.expiryDate,
        quantity: r.quantity,
        on_hand_after: r.onHandAfter,
        reason,
        document_type: document.type,
        document_id: document.id,
        document_number: document.number,
        user_id: who.userId,
        note,
        // The application's clock, as the documents' own times (a receipt's confirmed_at, an order's shipped_at): the
        // ledger's "as of a day" (usage billing's storage snapshot) agrees with the day the work was charged on.
        created_at: at,
      })),
    )
    .returning({ id: stock_movements.id });
  return rows.map((r, i) => ({
    id: Number(inserted[i]!.id),
    balanceId: r.balance.id,
    productId: r.balance.productId,
    warehouseId: r.balance.warehouseId,
    locationId: r.balance.locationId,
    expiryDate: r.balance.expiryDate,
    quantity: r.quantity,
    onHandAfter: r.onHandAfter,
    reason,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Row locks, always in key order

/** Lock balances by id in key order (product, location, expiry). Unknown or foreign ids answer 404. */
export async function lockBalances(tx: Tx, customerId: string, ids: string[]): Promise<Map<string, TBalance>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await queryRows<TRawBalance>(
    tx,
    sql`select ${BALANCE_COLUMNS}, ${LOCATION_COLUMNS}
        from stock_balances b join storage_locations l on l.id = b.location_id
        where b.customer_id = ${customerId} and b.id in ${unique}
        order by b.product_id, b.location_id, b.expiry_date nulls first
        for update of b`,
  );
  const map = new Map(rows.map((r) => [r.id, toBalance(r)]));
  for (const id of unique) if (!map.has(id)) throw new AppError('NOT_FOUND', { field: 'balance_id', id });
  return map;
}

/** Read balances by id without locking (their keys never change). */
async function readBalances(tx: Executor, customerId: string, ids: string[]): Promise<Map<string, TBalance>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await queryRows<TRawBalance>(
    tx,
    sql`select ${BALANCE_COLUMNS}, ${LOCATION_COLUMNS}
        from stock_balances b join storage_locations l on l.id = b.location_id
        where b.customer_id = ${customerId} and b.id in ${unique}`,
  );
  const map = new Map(rows.map((r) => [r.id, toBalance(r)]));
  for (const id of unique) if (!map.has(id)) throw new AppError('NOT_FOUND', { field: 'balance_id', id });
  return map;
}

/** Lock (creating it empty when missing) the balance of one key. The caller walks keys in key order. */
async function lockOrCreate(tx: Tx, customerId: string, key: TStockKey, location: TLocationInfo): Promise<TBalance> {
  const [row] = await queryRows<TRawBalance>(
    tx,
    sql`with up as (
          insert into stock_balances as b (customer_id, product_id, warehouse_id, location_id, expiry_date)
          values (${customerId}, ${key.productId}, ${location.warehouseId}, ${key.locationId}, ${key.expiryDate}::date)
          on conflict on constraint stock_balances_key do update set on_hand = b.on_hand
          returning ${BALANCE_COLUMNS})
        select up.*, ${LOCATION_COLUMNS} from up join storage_locations l on l.id = up.location_id`,
  );
  return toBalance(row!);
}

// ---------------------------------------------------------------------------------------------------------------
// Single conditional statements

async function incrementOnHand(
  tx: Tx,
  customerId: string,
  key: TStockKey,
  location: TLocationInfo,
  quantity: number,
  receivedAt: string | null,
): Promise<TBalance> {
  const received = receivedAt ? sql`${receivedAt}::timestamptz` : sql`now()`;
  const [row] = await queryRows<TRawBalance>(
    tx,
    sql`with up as (
          insert into stock_balances as b
            (customer_id, product_id, warehouse_id, location_id, expiry_date, on_hand, reserved, received_at)
          values (${customerId}, ${key.productId}, ${location.warehouseId}, ${key.locationId}, ${key.expiryDate}::date,
                  ${quantity}, 0, ${received})
          on conflict on constraint stock_balances_key do update set
            on_hand = b.on_hand + excluded.on_hand,
            received_at = case when b.on_hand = 0 then excluded.received_at
                               else least(b.received_at, excluded.received_at) end,
            updated_at = now()
          returning ${BALANCE_COLUMNS})
        select up.*, ${LOCATION_COLUMNS} from up join storage_locations l on l.id = up.location_id`,
  );
  return toBalance(row!);
}

/** on_hand -= q, only from free stock (on_hand - reserved). Returns null when there is not enough. */
async function decrementFree(tx: Tx, customerId: string, where: SQL, quantity: number): Promise<TBalance | null> {
  const [row] = await queryRows<TRawBalance>(
    tx,
    sql`with up as (
          update stock_balances b set on_hand = b.on_hand - ${quantity}, updated_at = now()
          where b.customer_id = ${customerId} and ${where} and b.on_hand - b.reserved >= ${quantity}
          returning ${BALANCE_COLUMNS})
        select up.*, ${LOCATION_COLUMNS} from up join storage_locations l on l.id = up.location_id`,
  );
  return row ? toBalance(row) : null;
}

/** Take `quantity` off the document's reservation of a balance; false when the document holds less. */
async function takeReservation(
  tx: Tx,
  customerId: string,
  document: TStockDocument,
  balanceId: string,
  quantity: number,
): Promise<boolean> {
  const rows = await queryRows<{ id: string; quantity: number }>(
    tx,
    sql`update stock_reservations set quantity = quantity - ${quantity}, updated_at = now()
        where customer_id = ${customerId} and document_type = ${document.type} and document_id = ${document.id}
          and balance_id = ${balanceId} and quantity >= ${quantity}
        returning id, quantity`,
  );
  if (rows.length !== 1) return false;
  if (Number(rows[0]!.quantity) === 0) await tx.execute(sql`delete from stock_reservations where id = ${rows[0]!.id}`);
  return true;
}

function assertQuantity(q: unknown, field = 'quantity'): asserts q is number {
  if (!isWholePositive(q)) throw new AppError('ABNORMAL_QUANTITY', { field, value: q });
}

function requireDocumentId(document: TStockDocument): asserts document is TStockDocument & { id: string } {
  if (!document.id) throw new Error('stock engine: a reservation needs a document id');
}

// ---------------------------------------------------------------------------------------------------------------
// The API

export interface TInboundLine extends TStockKey {
  quantity: number;
}

/**
 * Put stock into locations (inbound receipt, return, cancelled outbound): on_hand += quantity per line, one ledger
 * row per line. Enforces the lot rule (expiry required for shelf-life products, refused for others) and that the
 * locations are active. Any location kind is allowed (defective stock goes to a defective location).
 */
export async function postInbound(
  tx: Tx,
  who: TStockActor,
  input: { document: TStockDocument; reason?: TStockReason; note?: string; lines: TInboundLine[] },
): Promise<TMovement[]> {
  const reason = input.reason ?? 'inbound';
  for (const l of input.lines) assertQuantity(l.quantity);
  const productMap = await loadProducts(
    tx,
    who.customerId,
    input.lines.map((l) => l.productId),
  );
  const locationMap = await loadLocations(
    tx,
    who.customerId,
    input.lines.map((l) => l.locationId),
  );
  for (const l of input.lines) {
    assertLot(productMap.get(l.productId)!, l.expiryDate);
    if (!locationMap.get(l.locationId)!.isActive)
      throw new AppError('INVALID_FIELD', { field: 'location_id', id: l.locationId });
  }
  const rows: Array<{ balance: TBalance; quantity: number; onHandAfter: number }> = [];
  for (const l of [...input.lines].sort(compareStockKeys)) {
    const balance = await incrementOnHand(tx, who.customerId, l, locationMap.get(l.locationId)!, l.quantity, null);
    rows.push({ balance, quantity: l.quantity, onHandAfter: balance.onHand });
  }
  return insertMovements(tx, who, input.document, reason, input.note ?? '', rows);
}

export interface TAdjustmentLine extends TStockKey {
  /** Signed change of on_hand; a negative change takes only free (unreserved) stock. */
  delta: number;
}

/**
 * Correct on_hand by a signed delta per key (stocktake, manual adjustment, cancelling a receipt). A negative delta
 * needs that much free stock at that key, else INVENTORY_SHORTAGE (reserved stock is never adjusted away).
 */
export async function postAdjustment(
  tx: Tx,
  who: TStockActor,
  input: { document: TStockDocument; reason?: TStockReason; note?: string; lines: TAdjustmentLine[] },
): Promise<TMovement[]> {
  const reason = input.reason ?? 'adjust';
  for (const l of input.lines) {
    if (!Number.isSafeInteger(l.delta) || l.delta === 0)
      throw new AppError('ABNORMAL_QUANTITY', { field: 'delta', value: l.delta });
  }
  const productMap = await loadProducts(
    tx,
    who.customerId,
    input.lines.map((l) => l.productId),
  );
  const locationMap = await loadLocations(
    tx,
    who.customerId,
    input.lines.map((l) => l.locationId),
  );
  for (const l of input.lines) if (l.delta > 0) assertLot(productMap.get(l.productId)!, l.expiryDate);
  const rows: Array<{ balance: TBalance; quantity: number; onHandAfter: number }> = [];
  for (const l of [...input.lines].sort(compareStockKeys)) {
    let balance: TBalance | null;
    if (l.delta > 0) {
      balance = await incrementOnHand(tx, who.customerId, l, locationMap.get(l.locationId)!, l.delta, null);
    } else {
      balance = await decrementFree(
        tx,
        who.customerId,
        sql`b.product_id = ${l.productId} and b.location_id = ${l.locationId} and ${expiryCondition(l.expiryDate)}`,
        -l.delta,
      );
      if (!balance) throw shortage(await shortageParams(tx, who.customerId, l, -l.delta));
    }
    rows.push({ balance, quantity: l.delta, onHandAfter: balance.onHand });
  }
  return insertMovements(tx, who, input.document, reason, input.note ?? '', rows);
}

async function shortageParams(tx: Tx, customerId: string, key: TStockKey, requested: number) {
  const [row] = await queryRows<{ free: number }>(
    tx,
    sql`select b.on_hand - b.reserved as free from stock_balances b
        where b.customer_id = ${customerId} and b.product_id = ${key.productId}
          and b.location_id = ${key.locationId} and ${expiryCondition(key.expiryDate)}`,
  );
  return {
    product_id: key.productId,
    location_id: key.locationId,
    expiry_date: key.expiryDate,
    requested,
    available: Number(row?.free ?? 0),
  };
}

export interface TDemandLine {
  productId: string;
  quantity: number;
  ref?: string | null;
}

/**
 * Reserve stock for a document (an outbound order): allocate every demand line FEFO (shelf-life products, honouring
 * the sellable-date rule) or FIFO across the sellable locations of the warehouse, fully or not at all. A combination
 * product is exploded into its components. Returns the allocation lines (what to pick where), in allocation order.
 * Throws INVENTORY_SHORTAGE `{ product_id, requested, available }` when any line cannot be covered (nothing is
 * reserved then). One order of `reserveForOrders`: the same planner and the same writes.
 */
export async function reserveForOrder(
  tx: Tx,
  who: TStockActor,
  input: { document: TStockDocument; warehouseId?: string | null; lines: TDemandLine[]; today?: string },
): Promise<TAllocation[]> {
  const [result] = await reserveForOrders(tx, who, [input], { today: input.today });
  if (result instanceof AppError) throw result;
  return result!;
}

/** One document's demand for `reserveForOrders`. */
export interface TDocumentDemand {
  document: TStockDocument;
  warehouseId?: string | null;
  lines: TDemandLine[];
}

type TDemand = { ref: string | null; requestedProductId: string; productId: string; quantity: number };

export interface TReserveOptions {
  /** The sellable-date rule's day (default: today in Taipei). */
  today?: string;
  /** The seller's products the caller has already read in this transaction (the rest are read here). */
  products?: ReadonlyMap<string, TProductInfo>;
  /**
   * Turn-taking between transactions that reserve one after the other (a bulk export's chunks): `wait` is awaited
   * right before the piles are locked, `locked` is called once they are. The next caller's piles are then locked
   * after these, so it sees what this one reserved.
   */
  turn?: { wait: Promise<void>; locked: () => void };
  /** Reserve nothing unless every document can be covered (the results still say which cannot). */
  allOrNothing?: boolean;
  /**
   * Called when the plan on the locked piles covers every document, before anything is written (with `allOrNothing`:
   * what is written next is the plan, nothing is rolled back for want of stock).
   */
  covered?: () => void;
  /**
   * No document here holds a reservation yet, and none can get one before this transaction ends (the caller checked
   * with `holdsReservations` while it holds the documents locked). The reservation rows are then inserted without the
   * merge arm (`on conflict`; it cost ~8 % of a bulk export's time). A wrong promise fails on the unique index, it
   * never merges wrongly.
   */
  fresh?: boolean;
}

/** Whether any of these documents holds a reservation (one index probe per document). */
export async function holdsReservations(
  tx: Executor,
  customerId: string,
  documentType: string,
  documentIds: string[],
): Promise<boolean> {
  if (documentIds.length === 0) return false;
  const rows = await queryRows<{ held: boolean }>(
    tx,
    sql`select exists (select 1 from stock_reservations
          where document_type = ${documentType} and document_id = any(${uuidArray(documentIds)})
            and customer_id = ${customerId}) as held`,
  );
  return rows[0]!.held;
}

/**
 * Reserve stock for many documents at once, set-based: the products, kits and piles of all of them are read in a few
 * statements, every pile any of them may draw from is locked with one `SELECT … FOR UPDATE` in key order (so callers
 * never wait on each other in a cycle), the plan is made in memory document by document in the order given (each
 * fully or not at all, FEFO/FIFO as `reserveForOrder`), and the reservations of all of them are written with one
 * statement per table. Returns, per document in input order, its allocations or the refusal it got
 * (INVENTORY_SHORTAGE, ABNORMAL_QUANTITY, PRODUCT_ABNORMAL, NOT_FOUND) — a refused document reserves nothing and
 * does not stop the others.
 */
export async function reserveForOrders(
  tx: Tx,
  who: TStockActor,
  orders: TDocumentDemand[],
  options: TReserveOptions = {},
): Promise<Array<TAllocation[] | AppError>> {
  const today = options.today ?? taipeiToday();
  for (const o of orders) requireDocumentId(o.document);
  const results: Array<TAllocation[] | AppError | null> = orders.map(() => null);

  // Products asked for (those the caller has not read), then the components of the combinations among them.
  const askedIds = [...new Set(orders.flatMap((o) => o.lines.map((l) => l.productId)))];
  const products = new Map(options.products ?? []);
  const unread = askedIds.filter((id) => !products.has(id));
  if (unread.length) for (const [id, p] of await findProducts(tx, who.customerId, unread)) products.set(id, p);
  const kitIds = askedIds.filter((id) => products.get(id)?.type === 'combination');
  const components = kitIds.length
    ? await tx
        .select({
          kitId: product_components.product_id,
          componentId: product_components.component_id,
          perKit: product_components.quantity,
        })
        .from(product_components)
        .where(
          and(
            eq(product_components.customer_id, who.customerId),
            sql`${product_components.product_id} = any(${uuidArray(kitIds)})`,
          ),
        )
    : [];
  const partsOf = new Map<string, typeof components>();
  for (const c of components) {
    const parts = partsOf.get(c.kitId);
    if (parts) parts.push(c);
    else partsOf.set(c.kitId, [c]);
  }
  const missingParts = components.map((c) => c.componentId).filter((id) => !products.has(id));
  if (missingParts.length)
    for (const [id, p] of await findProducts(tx, who.customerId, missingParts)) products.set(id, p);

  // Each document's demands (kits exploded, the caller's ref kept), or its refusal.
  const demandsOf: TDemand[][] = orders.map((o, i) => {
    const demands: TDemand[] = [];
    for (const l of o.lines) {
      if (!isWholePositive(l.quantity)) {
        results[i] = new AppError('ABNORMAL_QUANTITY', { field: 'quantity', value: l.quantity });
        return [];
      }
      const p = products.get(l.productId);
      if (!p) {
        results[i] = new AppError('NOT_FOUND', { field: 'product_id', id: l.productId });
        return [];
      }
      if (p.type !== 'combination') {
        demands.push({ ref: l.ref ?? null, requestedProductId: p.id, productId: p.id, quantity: l.quantity });
        continue;
      }
      const parts = partsOf.get(p.id) ?? [];
      if (parts.length === 0) {
        results[i] = new AppError('PRODUCT_ABNORMAL', { product_id: p.id });
        return [];
      }
      for (const c of parts) {
        if (!products.has(c.componentId)) {
          results[i] = new AppError('NOT_FOUND', { field: 'product_id', id: c.componentId });
          return [];
        }
        demands.push({
          ref: l.ref ?? null,
          requestedProductId: p.id,
          productId: c.componentId,
          quantity: l.quantity * c.perKit,
        });
      }
    }
    return demands;
  });

  // Lock every allocatable pile of these products in the documents' warehouses, in key order, in one statement.
  const live = orders.map((_, i) => i).filter((i) => results[i] === null && demandsOf[i]!.length > 0);
  const productIds = [...new Set(live.flatMap((i) => demandsOf[i]!.map((d) => d.productId)))];
  const warehouses = live.map((i) => orders[i]!.warehouseId ?? null);
  const warehouseFilter = warehouses.includes(null)
    ? sql``
    : sql`and b.warehouse_id = any(${uuidArray(new Set(warehouses as string[]))})`;
  await options.turn?.wait;
  const raw = productIds.length
    ? await queryRows<TRawBalance>(
        tx,
        sql`select ${BALANCE_COLUMNS}, ${LOCATION_COLUMNS}
            from stock_balances b
              join storage_locations l on l.id = b.location_id
              join products p on p.id = b.product_id
            where b.customer_id = ${who.customerId} and b.product_id = any(${uuidArray(productIds)}) ${warehouseFilter}
              and b.on_hand > b.reserved and ${allocatableSql(today)}
            order by b.product_id, b.location_id, b.expiry_date nulls first
            for update of b`,
      )
    : [];
  options.turn?.locked();
  const candidatesByProduct = new Map<string, TCandidate[]>();
  for (const r of raw) {
    const b = toBalance(r);
    const list = candidatesByProduct.get(b.productId) ?? [];
    list.push({
      balanceId: b.id,
      productId: b.productId,
      locationId: b.locationId,
      locationCode: b.locationCode,
      pickSequence: b.pickSequence,
      warehouseId: b.warehouseId,
      expiryDate: b.expiryDate,
      receivedAt: b.receivedAt,
      free: b.onHand - b.reserved,
    });
    candidatesByProduct.set(b.productId, list);
  }

  // Plan document by document on the locked numbers; a document that cannot be covered gives back what it drew.
  const writes: Array<{ document: TStockDocument; balanceId: string; quantity: number }> = [];
  for (const i of live) {
    const warehouseId = orders[i]!.warehouseId ?? null;
    const candidatesOf = (productId: string) => {
      const all = candidatesByProduct.get(productId) ?? [];
      return warehouseId ? all.filter((c) => c.warehouseId === warehouseId) : all;
    };
    const allocations: TAllocation[] = [];
    const drawn: TPick[] = [];
    let refusal: AppError | null = null;
    for (const d of demandsOf[i]!) {
      const candidates = candidatesOf(d.productId);
      const { picks, shortfall } = planPicks(
        candidates,
        d.quantity,
        products.get(d.productId)!.shelfLifeMonths != null,
      );
      drawn.push(...picks);
      if (shortfall > 0) {
        for (const p of drawn) p.candidate.free += p.quantity;
        const requested = demandsOf[i]!.filter((x) => x.productId === d.productId).reduce((s, x) => s + x.quantity, 0);
        const available = candidates.reduce((s, c) => s + c.free, 0);
        refusal = shortage({ product_id: d.productId, requested, available });
        break;
      }
      for (const p of picks)
        allocations.push({
          ref: d.ref,
          requestedProductId: d.requestedProductId,
          productId: d.productId,
          balanceId: p.candidate.balanceId,
          warehouseId: p.candidate.warehouseId,
          locationId: p.candidate.locationId,
          locationCode: p.candidate.locationCode,
          expiryDate: p.candidate.expiryDate,
          quantity: p.quantity,
        });
    }
    if (refusal) {
      results[i] = refusal;
      continue;
    }
    results[i] = allocations;
    const byBalance = new Map<string, number>();
    for (const a of allocations) byBalance.set(a.balanceId, (byBalance.get(a.balanceId) ?? 0) + a.quantity);
    for (const [balanceId, quantity] of byBalance) writes.push({ document: orders[i]!.document, balanceId, quantity });
  }

  // The piles are locked and the plan fits them: one statement reserves all, one records every document's share.
  if (options.allOrNothing && results.some((r) => r instanceof AppError)) return results.map((r) => r ?? []);
  if (results.every((r) => !(r instanceof AppError))) options.covered?.();
  await reserveMany(tx, who.customerId, writes, options.fresh);
  return results.map((r) => r ?? []);
}

/** Products of a seller by id (those that are not there are simply missing from the map). */
async function findProducts(tx: Executor, customerId: string, ids: string[]): Promise<Map<string, TProductInfo>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await tx
    .select({
      id: products.id,
      number: products.number,
      type: products.type,
      shelfLifeMonths: products.shelf_life_months,
      sellableRuleMonths: products.sellable_rule_months,
    })
    .from(products)
    .where(and(eq(products.customer_id, customerId), sql`${products.id} = any(${uuidArray(unique)})`));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Add each planned quantity to its (locked) balance's reserved and to its document's reservation of it. */
async function reserveMany(
  tx: Tx,
  customerId: string,
  writes: Array<{ document: TStockDocument; balanceId: string; quantity: number }>,
  fresh = false,
): Promise<void> {
  if (writes.length === 0) return;
  const totals = new Map<string, number>();
  for (const w of writes) totals.set(w.balanceId, (totals.get(w.balanceId) ?? 0) + w.quantity);
  // Rows go over as one JSON parameter (no limit on the number of bind parameters, whatever the chunk's size).
  const perBalance = JSON.stringify([...totals].map(([id, q]) => ({ id, q })));
  const updated = await queryRows<{ id: string }>(
    tx,
    sql`update stock_balances b set reserved = b.reserved + v.q, updated_at = now()
        from jsonb_to_recordset(${perBalance}::jsonb) as v(id uuid, q int)
        where b.id = v.id and b.customer_id = ${customerId} and b.on_hand - b.reserved >= v.q
        returning b.id`,
  );
  if (updated.length !== totals.size) throw new Error('stock engine: a locked balance refused a planned reservation');
  const perDocument = JSON.stringify(
    writes.map((w) => ({ t: w.document.type, d: w.document.id, n: w.document.number, b: w.balanceId, q: w.quantity })),
  );
  await tx.execute(
    sql`insert into stock_reservations (customer_id, balance_id, document_type, document_id, document_number, quantity)
        select ${customerId}, v.b, v.t, v.d, v.n, v.q
        from jsonb_to_recordset(${perDocument}::jsonb) as v(t text, d uuid, n text, b uuid, q int)
        ${
          fresh
            ? sql``
            : sql`on conflict (document_type, document_id, balance_id)
        do update set quantity = stock_reservations.quantity + excluded.quantity, updated_at = now()`
        }`,
  );
}

export interface TBalanceQuantity {
  balanceId: string;
  quantity: number;
}

function sumByBalance(lines: TBalanceQuantity[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) {
    assertQuantity(l.quantity);
    m.set(l.balanceId, (m.get(l.balanceId) ?? 0) + l.quantity);
  }
  return m;
}

/**
 * Reserve chosen piles for a document (a manual allocation, e.g. a specific lot). Only sellable locations; every
 * pile needs that much free stock, else INVENTORY_SHORTAGE and nothing is reserved (the caller rolls back).
 */
export async function reserve(
  tx: Tx,
  who: TStockActor,
  input: { document: TStockDocument; lines: TBalanceQuantity[] },
): Promise<void> {
  requireDocumentId(input.document);
  const wanted = sumByBalance(input.lines);
  const locked = await lockBalances(tx, who.customerId, [...wanted.keys()]);
  // The piles are locked: check every one on its current numbers, then write them all as reserveForOrder does.
  for (const b of [...locked.values()].sort(compareStockKeys)) {
    const q = wanted.get(b.id)!;
    if (b.locationKind !== 'sellable') throw new AppError('INVALID_FIELD', { field: 'location_id', id: b.locationId });
    if (b.onHand - b.reserved < q)
      throw shortage({ balance_id: b.id, product_id: b.productId, requested: q, available: b.onHand - b.reserved });
  }
  await reserveMany(
    tx,
    who.customerId,
    [...wanted].map(([balanceId, quantity]) => ({ document: input.document, balanceId, quantity })),
  );
}

async function documentReservations(tx: Tx, customerId: string, document: TStockDocument) {
  const rows = await queryRows<{ balance_id: string; quantity: number }>(
    tx,
    sql`select balance_id, quantity from stock_reservations
        where customer_id = ${customerId} and document_type = ${document.type} and document_id = ${document.id}
          and quantity > 0`,
  );
  return rows.map((r) => ({ balanceId: r.balance_id, quantity: Number(r.quantity) }));
}

/**
 * Give reserved stock back (an order cancelled or re-allocated): reserved -= quantity per pile and the document's
 * reservation shrinks. Without `lines`, everything the document holds is released. A document cannot release more
 * than it holds (INVENTORY_SHORTAGE). Returns what was released.
 */
export async function release(
  tx: Tx,
  who: TStockActor,
  input: { document: TStockDocument; lines?: TBalanceQuantity[] },
): Promise<TBalanceQuantity[]> {
  requireDocumentId(input.document);
  const lines = input.lines ?? (await documentReservations(tx, who.customerId, input.document));
  const wanted = sumByBalance(lines);
  const locked = await lockBalances(tx, who.customerId, [...wanted.keys()]);
  const released: TBalanceQuantity[] = [];
  for (const b of [...locked.values()].sort(compareStockKeys)) {
    const q = wanted.get(b.id)!;
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`update stock_balances b set reserved = b.reserved - ${q}, updated_at = now()
          where b.id = ${b.id} and b.reserved >= ${q} returning b.id`,
    );
    if (rows.length !== 1 || !(await takeReservation(tx, who.customerId, input.document, b.id, q)))
      throw shortage({ balance_id: b.id, product_id: b.productId, requested: q, reason: 'not_reserved' });
    released.push({ balanceId: b.id, quantity: q });
  }
  return released;
}

/**
 * Ship reserved stock (outbound): on_hand and reserved both drop by quantity per pile, the document's reservation
 * shrinks, and a negative ledger row is written per pile. Without `lines`, everything the document holds is consumed.
 * A document cannot consume more than it holds, so the same stock is never shipped twice.
 */
export async function consumeReserved(
  tx: Tx,
  who: TStockActor,
  input: { document: TStockDocument; reason?: TStockReason; note?: string; lines?: TBalanceQuantity[] },
): Promise<TMovement[]> {
  requireDocumentId(input.document);
  const lines = input.lines ?? (await documentReservations(tx, who.customerId, input.document));
  const wanted = sumByBalance(lines);
  const locked = await lockBalances(tx, who.customerId, [...wanted.keys()]);
  const rows: Array<{ balance: TBalance; quantity: number; onHandAfter: number }> = [];
  for (const b of [...locked.values()].sort(compareStockKeys)) {
    const q = wanted.get(b.id)!;
    const updated = await queryRows<{ on_hand: number }>(
      tx,
      sql`update stock_balances b set on_hand = b.on_hand - ${q}, reserved = b.reserved - ${q}, updated_at = now()
          where b.id = ${b.id} and b.reserved >= ${q} returning b.on_hand`,
    );
    if (updated.length !== 1 || !(await takeReservation(tx, who.customerId, input.document, b.id, q)))
      throw shortage({ balance_id: b.id, product_id: b.productId, requested: q, reason: 'not_reserved' });
    rows.push({ balance: b, quantity: -q, onHandAfter: Number(updated[0]!.on_hand) });
  }
  return insertMovements(tx, who, input.document, input.reason ?? 'outbound', input.note ?? '', rows);
}

export interface TTransferLine {
  balanceId: string;
  toLocationId: string;
  /** Units to move, or 'free' for everything not reserved (expiry transfer). */
  quantity: number | 'free';
}

export interface TTransferResult {
  lines: Array<{ fromBalanceId: string; toBalanceId: string; quantity: number }>;
  movements: TMovement[];
}

/**
 * Move free stock between locations (same product and lot): per line a negative ledger row at the source and a
 * positive one at the destination. Reserved stock never moves; a line asking for more than the free stock fails the
 * whole call with INVENTORY_SHORTAGE. All piles involved are locked first, in key order.
 */
export async function transfer(
  tx: Tx,
  who: TStockActor,
  input: { document: TStockDocument; reason?: TStockReason; note?: string; lines: TTransferLine[] },
): Promise<TTransferResult> {
  for (const l of input.lines) if (l.quantity !== 'free') assertQuantity(l.quantity);
  const sources = await readBalances(
    tx,
    who.customerId,
    input.lines.map((l) => l.balanceId),
  );
  const locationMap = await loadLocations(tx, who.customerId, [
    ...input.lines.map((l) => l.toLocationId),
    ...[...sources.values()].map((b) => b.locationId),
  ]);
  const destKeys = input.lines.map((l) => {
    const src = sources.get(l.balanceId)!;
    if (l.toLocationId === src.locationId) throw new AppError('INVALID_FIELD', { field: 'to_location_id' });
    if (!locationMap.get(l.toLocationId)!.isActive)
      throw new AppError('INVALID_FIELD', { field: 'to_location_id', id: l.toLocationId });
    return { productId: src.productId, locationId: l.toLocationId, expiryDate: src.expiryDate } as TStockKey;
  });

  // Lock every pile involved, sources and destinations, in key order (destinations are created when missing).
  const keys = new Map<string, { key: TStockKey; sourceId?: string }>();
  for (const b of sources.values()) keys.set(stockKeyString(b), { key: b, sourceId: b.id });
  for (const k of destKeys) if (!keys.has(stockKeyString(k))) keys.set(stockKeyString(k), { key: k });
  const locked = new Map<string, TBalance>();
  for (const { key, sourceId } of [...keys.values()].sort((a, b) => compareStockKeys(a.key, b.key))) {
    const b = sourceId
      ? (await lockBalances(tx, who.customerId, [sourceId])).get(sourceId)!
      : await lockOrCreate(tx, who.customerId, key, locationMap.get(key.locationId)!);
    locked.set(stockKeyString(key), b);
  }

  // Every row is ours now: check and apply line by line on the current numbers.
  const out: Array<{ balance: TBalance; quantity: number; onHandAfter: number }> = [];
  const into: Array<{ balance: TBalance; quantity: number; onHandAfter: number }> = [];
  const result: TTransferResult['lines'] = [];
  for (const [i, l] of input.lines.entries()) {
    const src = locked.get(stockKeyString(sources.get(l.balanceId)!))!;
    const dst = locked.get(stockKeyString(destKeys[i]!))!;
    const free = src.onHand - src.reserved;
    const q = l.quantity === 'free' ? free : l.quantity;
    if (q <= 0) continue;
    if (q > free)
      throw shortage({
        balance_id: src.id,
        product_id: src.productId,
        location_id: src.locationId,
        expiry_date: src.expiryDate,
        requested: q,
        available: free,
      });
    const after = await decrementFree(tx, who.customerId, sql`b.id = ${src.id}`, q);
    if (!after) throw new Error(`stock engine: locked balance ${src.id} refused a transfer`);
    src.onHand = after.onHand;
    const [moved] = await queryRows<{ on_hand: number }>(
      tx,
      sql`update stock_balances b set on_hand = b.on_hand + ${q}, updated_at = now(),
            received_at = case when b.on_hand = 0 then ${src.receivedAt}::timestamptz
                               else least(b.received_at, ${src.receivedAt}::timestamptz) end
          where b.id = ${dst.id} returning b.on_hand`,
    );
    dst.onHand = Number(moved!.on_hand);
    out.push({ balance: src, quantity: -q, onHandAfter: src.onHand });
    into.push({ balance: dst, quantity: q, onHandAfter: dst.onHand });
    result.push({ fromBalanceId: src.id, toBalanceId: dst.id, quantity: q });
  }
  const reason = input.reason ?? 'transfer';
  const note = input.note ?? '';
  const rows = out.flatMap((o, i) => [o, into[i]!]);
  const movements = await insertMovements(tx, who, input.document, reason, note, rows);
  return { lines: result, movements };
}

export interface TAvailability {
  onHand: number;
  reserved: number;
  /** Free stock in active sellable locations, in lots still before their sellable-until date. */
  available: number;
}

/**
 * Stock of products (optionally in one warehouse) as reads see it now: on hand, reserved and available. A
 * combination product's figures are derived from its components: min over components of floor(x / per kit);
 * its reserved is 0 (kits are never reserved as such; their components are).
 */
export async function getAvailability(
  ex: Executor,
  customerId: string,
  productIds: string[],
  opts: { warehouseId?: string | null; today?: string } = {},
): Promise<Map<string, TAvailability>> {
  const result = new Map<string, TAvailability>();
  if (productIds.length === 0) return result;
  const today = opts.today ?? taipeiToday();
  const comps = await ex
    .select({
      kitId: product_components.product_id,
      componentId: product_components.component_id,
      perKit: product_components.quantity,
    })
    .from(product_components)
    .where(and(eq(product_components.customer_id, customerId), inArray(product_components.product_id, productIds)));
  const all = [...new Set([...productIds, ...comps.map((c) => c.componentId)])];
  const rows = await queryRows<{ product_id: string; on_hand: number; reserved: number; available: number }>(
    ex,
    sql`select b.product_id, sum(b.on_hand)::int as on_hand, sum(b.reserved)::int as reserved,
          coalesce(sum(case when ${allocatableSql(today)} then b.on_hand - b.reserved else 0 end), 0)::int as available
        from stock_balances b
          join storage_locations l on l.id = b.location_id
          join products p on p.id = b.product_id
        where b.customer_id = ${customerId} and b.product_id in ${all}
          ${opts.warehouseId ? sql`and b.warehouse_id = ${opts.warehouseId}` : sql``}
        group by b.product_id`,
  );
  const single = new Map(
    rows.map((r) => [
      r.product_id,
      { onHand: Number(r.on_hand), reserved: Number(r.reserved), available: Number(r.available) },
    ]),
  );
  const zero = { onHand: 0, reserved: 0, available: 0 };
  for (const id of productIds) {
    const parts = comps.filter((c) => c.kitId === id);
    if (parts.length === 0) {
      result.set(id, single.get(id) ?? zero);
      continue;
    }
    const of = (pick: (a: TAvailability) => number) =>
      kitQuantity(parts.map((c) => ({ perKit: c.perKit, quantity: pick(single.get(c.componentId) ?? zero) })));
    result.set(id, { onHand: of((a) => a.onHand), reserved: 0, available: of((a) => a.available) });
  }
  return result;
}

/**
 * SQL condition (over `b` balances, `l` locations, `p` products) for stock that may be allocated on `today`: an active
 * sellable location, and a lot before its sellable-until date. The one place this rule is written in SQL.
 */
export function allocatableSql(today: string): SQL {
  return sql`(l.kind = 'sellable' and l.is_active and (b.expiry_date is null
    or (b.expiry_date - make_interval(months => coalesce(p.sellable_rule_months, 0)))::date > ${today}::date))`;
}
