import { AsyncLocalStorage } from 'node:async_hooks';
import { PRICE_FIELDS, type TGrants } from '@wms/contracts';

/** The grants of the user whose request is being handled (route() sets it around the handler). */
export const requestGrants = new AsyncLocalStorage<TGrants>();

/**
 * True while handling a request of a user without the `prices` grant: file writers (Excel exports) leave price and
 * cost cells empty, as JSON answers carry null in them.
 */
export function pricesHidden(): boolean {
  const grants = requestGrants.getStore();
  return grants !== undefined && !grants.prices;
}

const PRICE_KEYS = new Set(PRICE_FIELDS);

/** Whether a column or field key is a price or cost. */
export const isPriceField = (key: string): boolean => PRICE_KEYS.has(key);
