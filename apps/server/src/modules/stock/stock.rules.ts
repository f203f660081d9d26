/**
 * Pure rules of the stock engine: lock order, lot sellability, FEFO/FIFO order, allocation plans and combination
 * availability. No I/O; the engine and the queries call these, and unit tests pin them down.
 */

/** The identity of a balance (a pile of one product, in one location, of one lot). */
export interface TStockKey {
  productId: string;
  locationId: string;
  /** ISO date (YYYY-MM-DD) of the lot's expiry; null for products without shelf life. */
  expiryDate: string | null;
}

/**
 * The one lock order of the engine: product id, then location id, then expiry (no expiry first). Every engine call
 * takes its row locks in this order (and `ORDER BY product_id, location_id, expiry_date NULLS FIRST` in SQL is the
 * same order: uuids compare like their lower-case hex text, ISO dates like their text), so two transactions never
 * wait on each other in a cycle.
 */
export function compareStockKeys(a: TStockKey, b: TStockKey): number {
  if (a.productId !== b.productId) return a.productId < b.productId ? -1 : 1;
  if (a.locationId !== b.locationId) return a.locationId < b.locationId ? -1 : 1;
  if (a.expiryDate === b.expiryDate) return 0;
  if (a.expiryDate === null) return -1;
  if (b.expiryDate === null) return 1;
  return a.expiryDate < b.expiryDate ? -1 : 1;
}

export function stockKeyString(k: TStockKey): string {
  return `${k.productId}|${k.locationId}|${k.expiryDate ?? ''}`;
}

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** Add (or subtract) calendar months to an ISO date the way PostgreSQL does: the day is clamped to the month's end. */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month0 = total - year * 12;
  const day = Math.min(d, daysInMonth(year, month0));
  return `${String(year).padStart(4, '0')}-${String(month0 + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function addDays(isoDate: string, days: number): string {
  const t = Date.parse(`${isoDate}T00:00:00Z`) + days * 86400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * The sellable-date rule: a lot is sellable until its expiry minus the product's rule months (without a rule, until
 * its expiry). Sellable on day D means D < sellableUntil: on the sellable-until day itself the lot no longer ships.
 * Lots without expiry are always sellable.
 */
export function sellableUntil(expiryDate: string | null, ruleMonths: number | null): string | null {
  if (expiryDate === null) return null;
  return ruleMonths ? addMonths(expiryDate, -ruleMonths) : expiryDate;
}

export function isSellableOn(expiryDate: string | null, ruleMonths: number | null, today: string): boolean {
  const until = sellableUntil(expiryDate, ruleMonths);
  return until === null || today < until;
}

/** A lot counts as expired from its expiry date on. */
export function isExpiredOn(expiryDate: string | null, today: string): boolean {
  return expiryDate !== null && today >= expiryDate;
}

export interface TCandidate {
  balanceId: string;
  productId: string;
  locationId: string;
  locationCode: string;
  pickSequence: number;
  warehouseId: string;
  expiryDate: string | null;
  /** ISO timestamp: when stock first entered this pile (the FIFO key). */
  receivedAt: string;
  free: number;
}

/**
 * Allocation order. FEFO for shelf-life products: earliest expiry first (a lot without expiry last), then FIFO.
 * FIFO: the pile whose stock arrived first (`received_at`), then the walking order of the location, then its code.
 */
export function compareForAllocation(fefo: boolean) {
  return (a: TCandidate, b: TCandidate): number => {
    if (fefo && a.expiryDate !== b.expiryDate) {
      if (a.expiryDate === null) return 1;
      if (b.expiryDate === null) return -1;
      return a.expiryDate < b.expiryDate ? -1 : 1;
    }
    if (a.receivedAt !== b.receivedAt) return a.receivedAt < b.receivedAt ? -1 : 1;
    if (a.pickSequence !== b.pickSequence) return a.pickSequence - b.pickSequence;
    if (a.locationCode !== b.locationCode) return a.locationCode < b.locationCode ? -1 : 1;
    return a.balanceId < b.balanceId ? -1 : a.balanceId > b.balanceId ? 1 : 0;
  };
}

export interface TPick {
  candidate: TCandidate;
  quantity: number;
}

/**
 * Take `quantity` from the candidates in allocation order. Mutates `free` of the candidates it draws from, so several
 * demands for the same product share one candidate list. Returns the picks, or the shortfall when there is not enough.
 */
export function planPicks(
  candidates: TCandidate[],
  quantity: number,
  fefo: boolean,
): { picks: TPick[]; shortfall: number } {
  const ordered = [...candidates].sort(compareForAllocation(fefo));
  const picks: TPick[] = [];
  let left = quantity;
  for (const c of ordered) {
    if (left === 0) break;
    if (c.free <= 0) continue;
    const take = Math.min(c.free, left);
    picks.push({ candidate: c, quantity: take });
    c.free -= take;
    left -= take;
  }
  return { picks, shortfall: left };
}

/** A combination product's quantity from its components: min over components of floor(component / per kit). */
export function kitQuantity(components: Array<{ perKit: number; quantity: number }>): number {
  if (components.length === 0) return 0;
  let n = Number.POSITIVE_INFINITY;
  for (const c of components) n = Math.min(n, Math.floor(Math.max(0, c.quantity) / c.perKit));
  return n;
}

/**
 * The lot rule: stock of a shelf-life product carries an expiry date, other products' stock never does, and a
 * combination product is never stocked (its components are). Returns the error code that applies, or null.
 */
export function lotRuleViolation(
  product: { type: string; shelfLifeMonths: number | null },
  expiryDate: string | null | undefined,
): 'PRODUCT_ABNORMAL' | 'REQUIRED_FIELD' | 'INVALID_FIELD' | null {
  if (product.type !== 'single') return 'PRODUCT_ABNORMAL';
  if (product.shelfLifeMonths && !expiryDate) return 'REQUIRED_FIELD';
  if (!product.shelfLifeMonths && expiryDate) return 'INVALID_FIELD';
  return null;
}

/** Quantities entering the ledger are positive whole numbers. */
export function isWholePositive(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
}
