import type { TCreateStocktake, TStocktakeScope, TStocktakeStatus, TStocktakeType } from '@wms/contracts';

/**
 * The stocktake state machine and round rules (spec §4), pure. A sheet is counted round by round:
 * first count → review count (only lines whose count differs from the book) → third count (lines still differing);
 * every open round can close the case (post the variances) or go on to the next round, or the sheet is cancelled
 * (nothing posted). The sheet's type caps the rounds: first 1, review 2, third / full / random 3.
 * The rules are listed in docs/ARCHITECTURE.md, section "Stocktake".
 */

export type TRound = 1 | 2 | 3;
export type TStocktakeAction = 'edit' | 'count' | 'next_round' | 'close' | 'cancel';

const ROUND_STATUS: Record<TRound, TStocktakeStatus> = { 1: 'first', 2: 'review', 3: 'third' };
const OPEN: readonly TStocktakeStatus[] = ['first', 'review', 'third'];
const MAX_ROUND: Record<TStocktakeType, TRound> = { first: 1, review: 2, third: 3, full: 3, random: 3 };

/** The open round of a status (null when closed or cancelled). */
export function roundOf(status: TStocktakeStatus): TRound | null {
  if (status === 'first') return 1;
  if (status === 'review') return 2;
  if (status === 'third') return 3;
  return null;
}

export function statusOfRound(round: TRound): TStocktakeStatus {
  return ROUND_STATUS[round];
}

export function maxRoundOf(type: TStocktakeType): TRound {
  return MAX_ROUND[type];
}

export function isOpen(status: TStocktakeStatus): boolean {
  return OPEN.includes(status);
}

/**
 * The statuses an action may start from for a sheet of this type: the service puts them in its conditional update
 * (`… AND status IN (…)`). A round can go on only while the type allows another one.
 */
export function statusesAllowing(action: TStocktakeAction, type: TStocktakeType): readonly TStocktakeStatus[] {
  if (action === 'next_round') return OPEN.filter((s) => roundOf(s)! < maxRoundOf(type));
  return OPEN;
}

export function canDo(status: TStocktakeStatus, type: TStocktakeType, action: TStocktakeAction): boolean {
  return statusesAllowing(action, type).includes(status);
}

/** The status after an action (edit and count leave the status alone). */
export function targetStatus(status: TStocktakeStatus, action: 'next_round' | 'close' | 'cancel'): TStocktakeStatus {
  if (action === 'close') return 'closed';
  if (action === 'cancel') return 'cancelled';
  const round = roundOf(status);
  if (round === null || round === 3) throw new Error(`stocktake: no round after ${status}`);
  return statusOfRound((round + 1) as TRound);
}

/** What a sheet in this status allows, for the screen's buttons. */
export function actionsFor(status: TStocktakeStatus, type: TStocktakeType): TStocktakeAction[] {
  return (['edit', 'count', 'next_round', 'close', 'cancel'] as const).filter((a) => canDo(status, type, a));
}

/** The counted numbers of one line, per round (null = not counted in that round). */
export interface TLineCounts {
  lastRound: TRound;
  counts: [number | null, number | null, number | null];
  books: [number | null, number | null, number | null];
}

/** count − book in one round, or null when the line was not counted in it. */
export function differenceIn(line: TLineCounts, round: TRound): number | null {
  const count = line.counts[round - 1];
  const book = line.books[round - 1];
  if (count === null || count === undefined || book === null || book === undefined) return null;
  return count - book;
}

/** count − book of the line's last round: what closing posts (null while that round is not counted). */
export function varianceOf(line: TLineCounts): number | null {
  return differenceIn(line, line.lastRound);
}

/** A line is recounted in the next round when it took part in `round` and its count there differs from the book. */
export function goesToNextRound(line: TLineCounts, round: TRound): boolean {
  if (line.lastRound !== round) return false;
  const d = differenceIn(line, round);
  return d !== null && d !== 0;
}

export interface TScopeChoice {
  scope: TStocktakeScope;
  /** How the sheet's locations or products are chosen. */
  pick: 'all_locations' | 'chosen' | 'random';
  sampleSize: number | null;
}

/**
 * Which scope a new sheet has, from its type and input: full = every location (scope location only); random =
 * sample_size drawn locations or products; first / review / third = the given location_ids (scope location) or
 * product_ids (scope product). Returns the field that is wrong, or the choice.
 */
export function scopeOf(
  input: Pick<TCreateStocktake, 'type' | 'scope' | 'location_ids' | 'product_ids' | 'sample_size'>,
): { ok: true; value: TScopeChoice } | { ok: false; field: string; code: 'REQUIRED_FIELD' | 'INVALID_FIELD' } {
  const scope = input.scope ?? 'location';
  const bad = (field: string) => ({ ok: false as const, field, code: 'INVALID_FIELD' as const });
  const missing = (field: string) => ({ ok: false as const, field, code: 'REQUIRED_FIELD' as const });
  if (input.type === 'full') {
    if (scope !== 'location') return bad('scope');
    if (input.location_ids || input.product_ids) return bad(input.location_ids ? 'location_ids' : 'product_ids');
    if (input.sample_size !== undefined) return bad('sample_size');
    return { ok: true, value: { scope, pick: 'all_locations', sampleSize: null } };
  }
  if (input.type === 'random') {
    if (input.location_ids || input.product_ids) return bad(input.location_ids ? 'location_ids' : 'product_ids');
    if (input.sample_size === undefined) return missing('sample_size');
    return { ok: true, value: { scope, pick: 'random', sampleSize: input.sample_size } };
  }
  if (input.sample_size !== undefined) return bad('sample_size');
  if (scope === 'location') {
    if (input.product_ids) return bad('product_ids');
    if (!input.location_ids?.length) return missing('location_ids');
  } else {
    if (input.location_ids) return bad('location_ids');
    if (!input.product_ids?.length) return missing('product_ids');
  }
  return { ok: true, value: { scope, pick: 'chosen', sampleSize: null } };
}

/** Draw `n` distinct items at random (Fisher–Yates on a copy); all of them when there are no more than `n`. */
export function drawSample<T>(items: readonly T[], n: number, random: () => number = Math.random): T[] {
  const copy = [...items];
  const take = Math.min(n, copy.length);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, take);
}

/** A count's book moment may not lie in the future, before the round began, or more than this long ago. */
export const MAX_COUNT_AGE_MS = 24 * 3600 * 1000;

/**
 * The moment whose ledger balance a count compares with: the time the location was scanned (sent back by the
 * client), else now. Returns null when the given time is not acceptable.
 */
export function countMoment(startedAt: Date | null, now: Date, roundStartedAt: Date): Date | null {
  if (!startedAt) return now;
  if (Number.isNaN(startedAt.getTime())) return null;
  if (startedAt.getTime() > now.getTime()) return null;
  if (startedAt.getTime() < roundStartedAt.getTime()) return null;
  if (now.getTime() - startedAt.getTime() > MAX_COUNT_AGE_MS) return null;
  return startedAt;
}

/** Sum scanned items by (product, lot): a scanner sends one item per scan. */
export function aggregateItems<T extends { product_id: string; expiry_date?: string | null; quantity: number }>(
  items: readonly T[],
): Array<{ productId: string; expiryDate: string | null; quantity: number }> {
  const map = new Map<string, { productId: string; expiryDate: string | null; quantity: number }>();
  for (const it of items) {
    const expiryDate = it.expiry_date ?? null;
    const key = `${it.product_id}|${expiryDate ?? ''}`;
    const prev = map.get(key);
    if (prev) prev.quantity += it.quantity;
    else map.set(key, { productId: it.product_id, expiryDate, quantity: it.quantity });
  }
  return [...map.values()];
}
