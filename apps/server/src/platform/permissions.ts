import { grantsOf, MENU_GROUPS, PRICE_FIELDS, type TGrants, type TSellerRole } from '@wms/contracts';

/** Everything a provider employee may do (the CRM area; they hold no seller role). */
export const EMPLOYEE_GRANTS: TGrants = { read: [...MENU_GROUPS], write: [...MENU_GROUPS], prices: true };

/**
 * The grants `grantsColumn` describes: null when the user is gone, deactivated, or their company is — so a
 * deactivation or a role change takes effect at the next call.
 */
export function grantsFromColumn(value: string | null | undefined): TGrants | null {
  if (!value) return null;
  const [role, active, sellerRole, menuAccess, twoFactorRequired, twoFactorEnabled, companyActive] = JSON.parse(
    value,
  ) as [string, boolean, string, string[] | null, boolean, boolean, boolean | null];
  if (!active || companyActive === false) return null;
  if (role === 'EMPLOYEE') return EMPLOYEE_GRANTS;
  // The company's admin requires two-step login: until it is on, only the user's own (`self`) routes answer.
  if (twoFactorRequired && !twoFactorEnabled) return { read: [], write: [], prices: false };
  return grantsOf(sellerRole as TSellerRole, menuAccess ?? []);
}

const PRICE_KEYS = new Set(PRICE_FIELDS);

/** A JSON answer with every price and cost field set to null (for users without the `prices` grant). */
export function withoutPrices(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPrices);
  if (!value || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    out[key] = PRICE_KEYS.has(key) && item !== null && item !== undefined ? null : withoutPrices(item);
  }
  return out;
}
