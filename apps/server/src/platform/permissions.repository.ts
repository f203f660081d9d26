import type { TGrants } from '@wms/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, preparedRows } from '../db/client';
import { grantsFromColumn } from './permissions';

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
 * The grants of a signed-in user as the database says NOW (not as the token said when it was signed): null when the
 * user is gone, deactivated, or their company is.
 */
export async function loadUserGrants(db: Executor, userId: string): Promise<TGrants | null> {
  const [row] = await preparedRows<{ g: string | null }>(db, sql`select ${grantsColumn(userId)} as g`);
  return grantsFromColumn(row?.g);
}
