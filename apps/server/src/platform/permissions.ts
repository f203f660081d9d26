import { grantsOf, MENU_GROUPS, PRICE_FIELDS, type TGrants, type TSellerRole } from '@wms/contracts';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { customers, users } from '../db/schema';

/** Everything a provider employee may do (the CRM area; they hold no seller role). */
export const EMPLOYEE_GRANTS: TGrants = { read: [...MENU_GROUPS], write: [...MENU_GROUPS], prices: true };

/**
 * The grants of a signed-in user as the database says NOW (not as the token said when it was signed): null when the
 * user is gone, deactivated, or their company is — so a deactivation or a role change takes effect at the next call.
 */
export async function loadUserGrants(db: Executor, userId: string): Promise<TGrants | null> {
  const [row] = await db
    .select({
      role: users.role,
      active: users.is_active,
      sellerRole: users.seller_role,
      menuAccess: users.menu_access,
      twoFactorRequired: users.two_factor_required,
      twoFactorEnabled: users.totp_enabled,
      companyActive: customers.is_active,
    })
    .from(users)
    .leftJoin(customers, eq(customers.id, users.customer_id))
    .where(eq(users.id, userId));
  if (!row?.active || row.companyActive === false) return null;
  if (row.role === 'EMPLOYEE') return EMPLOYEE_GRANTS;
  // The company's admin requires two-step login: until it is on, only the user's own (`self`) routes answer.
  if (row.twoFactorRequired && !row.twoFactorEnabled) return { read: [], write: [], prices: false };
  return grantsOf(row.sellerRole as TSellerRole, row.menuAccess);
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
