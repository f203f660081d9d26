import { AsyncLocalStorage } from 'node:async_hooks';
import { allows, PRICE_FIELDS, type TGrants, type TPermission } from '@wms/contracts';
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { AppError } from './errors';
import { grantsFromColumn } from './permissions';
import { grantsColumn, loadUserGrants } from './permissions.repository';

/**
 * The grants of a signed-in caller and their check against the route's permission: 401 TOKEN_INVALID when the user
 * is gone or deactivated (or their company is), 403 PERMISSION_DENIED without the permission.
 *
 * route() reads them before the handler, in a round trip of its own — or, for a hot route (`grants:
 * 'first-statement'`), with the handler's first statement: that statement adds `grantsToRead()` as a column and hands
 * its value to `settleGrants` before it uses anything else it read. A refusal is thrown from there (a transaction
 * rolls back), so nothing the statement read reaches the caller.
 */
export class CallerGrants {
  private known: TGrants | undefined;
  private refusal: AppError | undefined;
  private reading: Promise<TGrants> | undefined;

  constructor(
    readonly userId: string,
    private readonly perm: TPermission | undefined,
    private readonly load: (userId: string) => Promise<TGrants | null>,
  ) {}

  /** The grants once checked (undefined before). */
  get grants(): TGrants | undefined {
    return this.known;
  }

  /** A column that reads the grants, while they are not known yet. */
  column(): SQL | undefined {
    return this.known || this.refusal ? undefined : grantsColumn(this.userId);
  }

  /**
   * Check the grants a statement read with `column()`; `undefined` (it returned no row): read them now through `ex`
   * (the statement's transaction: on PGlite's one connection another reader would wait for it).
   */
  async settle(value: string | null | undefined, ex: Executor): Promise<TGrants> {
    if (this.known) return this.known;
    if (this.refusal) throw this.refusal;
    if (value === undefined) return this.accept(await loadUserGrants(ex, this.userId));
    return this.accept(grantsFromColumn(value));
  }

  /** The checked grants: known, or read now in a round trip of their own. Throws the refusal. */
  async check(): Promise<TGrants> {
    if (this.known) return this.known;
    if (this.refusal) throw this.refusal;
    this.reading ??= this.load(this.userId).then((grants) => this.accept(grants));
    return this.reading;
  }

  private accept(grants: TGrants | null): TGrants {
    if (this.known) return this.known;
    if (!grants) this.refusal = new AppError('TOKEN_INVALID');
    else if (this.perm && !allows(grants, this.perm))
      this.refusal = new AppError('PERMISSION_DENIED', { permission: this.perm });
    if (this.refusal) throw this.refusal;
    this.known = grants!;
    return this.known;
  }
}

/** The signed-in caller whose request is being handled (route() sets it around the handler). */
export const requestGrants = new AsyncLocalStorage<CallerGrants>();

/**
 * For the first statement of a `grants: 'first-statement'` route: a column (any name) reading the caller's grants,
 * while they are still to be checked; else undefined (checked already, or no signed-in caller).
 */
export function grantsToRead(): SQL | undefined {
  return requestGrants.getStore()?.column();
}

/**
 * Check the grants a statement through `ex` read with `grantsToRead()` — `undefined` when it returned no row (they
 * are read then, through `ex`).
 * Throws 401/403 as route() would have before the handler.
 */
export async function settleGrants(ex: Executor, value: string | null | undefined): Promise<void> {
  await requestGrants.getStore()?.settle(value, ex);
}

/**
 * True while handling a request of a user without the `prices` grant: file writers (Excel exports) leave price and
 * cost cells empty, as JSON answers carry null in them.
 */
export function pricesHidden(): boolean {
  const caller = requestGrants.getStore();
  if (!caller) return false;
  const grants = caller.grants;
  if (!grants) throw new Error('pricesHidden(): the caller’s grants are not checked yet (a first-statement route)');
  return !grants.prices;
}

const PRICE_KEYS = new Set(PRICE_FIELDS);

/** Whether a column or field key is a price or cost. */
export const isPriceField = (key: string): boolean => PRICE_KEYS.has(key);
