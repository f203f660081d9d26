import { grantsOf, MENU_GROUPS, PRICE_FIELDS, type TGrants, type TSellerRole } from '@wms/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, preparedRows } from '../db/client';

/** Everything a provider employee may do (the CRM area; they hold no seller role). */
export const EMPLOYEE_GRANTS: TGrants = { read: [...MENU_GROUPS], write: [...MENU_GROUPS], prices: true };

/**
 * What a user's grants are made of, as ONE text column of any statement (null when the user is gone): the user's
 * role, status, seller role, menu access and two-step flags, and whether their company is active. A hot call reads it
 * with its own first statement instead of in a round trip of its own (`grantsToRead` in request-grants.ts).
 */
export function grantsColumn(userId: string): SQL {
  return sql`(select json_build_array(u.role, u.is_active, u.seller_role, u.menu_access, u.two_factor_required,
      u.totp_enabled, c.is_active)::text
    from users u left join customers c on c.id = u.customer_id where u.id = ${userId})`;
}

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

/**
 * The grants of a signed-in user as the database says NOW (not as the token said when it was signed): null when the
 * user is gone, deactivated, or their company is.
 */
export async function loadUserGrants(db: Executor, userId: string): Promise<TGrants | null> {
  const [row] = await preparedRows<{ g: string | null }>(db, sql`select ${grantsColumn(userId)} as g`);
  return grantsFromColumn(row?.g);
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
