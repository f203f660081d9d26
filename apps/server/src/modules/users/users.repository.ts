import { and, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { audit_logs, users } from '../../db/schema';
import { pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';

export type TUserRow = typeof users.$inferSelect;

/** The users of one seller's company (never another's: every query is scoped by `customer_id`). */
export async function listUsers(tx: Executor, customerId: string, q: TPageOpts) {
  const where = and(eq(users.customer_id, customerId), searchWhere(q.search, [users.name, users.email]));
  const [total] = await tx.select({ n: count() }).from(users).where(where);
  const rows = await tx
    .select()
    .from(users)
    .where(where)
    .orderBy(users.created_at, users.id)
    .limit(pageWindow(q).limit)
    .offset(pageWindow(q).offset);
  return { count: total?.n ?? 0, rows };
}

export async function findUser(tx: Executor, customerId: string, id: string, lock = false) {
  const query = tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.customer_id, customerId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Active owners of the company other than `exceptId` (the company must keep one). */
export async function countOtherActiveOwners(tx: Executor, customerId: string, exceptId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(
      and(
        eq(users.customer_id, customerId),
        eq(users.seller_role, 'owner'),
        eq(users.is_active, true),
        sql`${users.id} <> ${exceptId}`,
      ),
    );
  return row?.n ?? 0;
}

/** The seller's company name: the account module's read model. */
export { customerName as companyName } from '../account';

export interface TAuditFilter {
  user_id?: string;
  entity?: string;
  entity_id?: string;
  date_from?: string;
  date_to?: string;
}

/** Taipei calendar days (UTC+8, no daylight saving) as instants. */
const dayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);

function auditWhere(customerId: string, f: TAuditFilter & { search?: string }): SQL | undefined {
  const parts: Array<SQL | undefined> = [eq(audit_logs.customer_id, customerId)];
  if (f.user_id) parts.push(eq(audit_logs.actor_id, f.user_id));
  if (f.entity) parts.push(eq(audit_logs.entity, f.entity));
  if (f.entity_id) parts.push(eq(audit_logs.entity_id, f.entity_id));
  if (f.date_from) parts.push(gte(audit_logs.created_at, dayStart(f.date_from)));
  if (f.date_to) {
    parts.push(lt(audit_logs.created_at, new Date(dayStart(f.date_to).getTime() + 24 * 3600 * 1000)));
  }
  parts.push(searchWhere(f.search, [audit_logs.action, audit_logs.entity, audit_logs.entity_id]));
  return and(...parts);
}

/** The company's audit rows, newest first, with the acting user's name. */
export async function listAudit(tx: Executor, customerId: string, f: TAuditFilter & TPageOpts) {
  const where = auditWhere(customerId, f);
  const [total] = await tx.select({ n: count() }).from(audit_logs).where(where);
  const { limit, offset } = pageWindow(f);
  const rows = await tx
    .select({
      id: audit_logs.id,
      created_at: audit_logs.created_at,
      actor_type: audit_logs.actor_type,
      actor_id: audit_logs.actor_id,
      actor_name: users.name,
      action: audit_logs.action,
      entity: audit_logs.entity,
      entity_id: audit_logs.entity_id,
      before: audit_logs.before,
      after: audit_logs.after,
    })
    .from(audit_logs)
    // The actor's name only when the actor is a user of this same company.
    .leftJoin(
      users,
      and(eq(users.id, audit_logs.actor_id), eq(audit_logs.actor_type, 'user'), eq(users.customer_id, customerId)),
    )
    .where(where)
    .orderBy(desc(audit_logs.id))
    .limit(limit)
    .offset(offset);
  return { count: total?.n ?? 0, rows };
}
