import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { audit_logs } from '../db/schema';
import type { TActor } from './auth';

export interface TAuditEntry {
  action: string;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
  customerId?: string | null;
}

const auditRow = (actor: TActor, entry: TAuditEntry) => ({
  customer_id: entry.customerId ?? actor.customerId ?? null,
  actor_type: actor.kind,
  actor_id: actor.id,
  action: entry.action,
  entity: entry.entity,
  entity_id: entry.entityId ?? null,
  before: entry.before ?? null,
  after: entry.after ?? null,
});

/** Write one audit row in the caller's transaction. Secrets must never be passed in before/after. */
export async function writeAudit(tx: Executor, actor: TActor, entry: TAuditEntry): Promise<void> {
  await tx.insert(audit_logs).values(auditRow(actor, entry));
}

/**
 * Write many audit rows of one actor in the caller's transaction with one statement: the rows travel as one JSON
 * parameter (a bulk export writes 500 at a time; a parameter per value cost more CPU than the insert).
 */
export async function writeAudits(tx: Executor, actor: TActor, entries: TAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.execute(auditInsert(actor, entries));
}

/**
 * The insert of `writeAudits` as SQL, for a statement that writes its audit rows with its change (a data-modifying
 * `with` clause): `when` (e.g. `exists (select 1 from changed)`) keeps the rows to when the change happened.
 */
export function auditInsert(actor: TActor, entries: TAuditEntry[], when?: SQL): SQL {
  const rows = JSON.stringify(entries.map((e) => auditRow(actor, e)));
  return sql`insert into audit_logs (customer_id, actor_type, actor_id, action, entity, entity_id, before, after)
        select v.customer_id, v.actor_type, v.actor_id, v.action, v.entity, v.entity_id, v.before, v.after
        from jsonb_to_recordset(${rows}::jsonb) as v(customer_id uuid, actor_type text, actor_id uuid, action text,
          entity text, entity_id text, before jsonb, after jsonb)${when ? sql` where ${when}` : sql``}`;
}
