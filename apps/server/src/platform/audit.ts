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
  const rows = JSON.stringify(entries.map((e) => auditRow(actor, e)));
  await tx.execute(
    sql`insert into audit_logs (customer_id, actor_type, actor_id, action, entity, entity_id, before, after)
        select v.customer_id, v.actor_type, v.actor_id, v.action, v.entity, v.entity_id, v.before, v.after
        from jsonb_to_recordset(${rows}::jsonb) as v(customer_id uuid, actor_type text, actor_id uuid, action text,
          entity text, entity_id text, before jsonb, after jsonb)`,
  );
}

/**
 * One audit row as the `select` of an insert into `audit_logs (AUDIT_COLUMNS)` whose `after` is SQL — computed from
 * the row a statement changed, e.g. `${auditSelect(…)} from changed` in a data-modifying `with` clause.
 */
export function auditSelect(actor: TActor, entry: Omit<TAuditEntry, 'after'>, after: SQL): SQL {
  const r = auditRow(actor, entry);
  const before = r.before === null ? null : JSON.stringify(r.before);
  return sql`select ${r.customer_id}::uuid, ${r.actor_type}::text, ${r.actor_id}::uuid, ${r.action}::text,
    ${r.entity}::text, ${r.entity_id}::text, ${before}::jsonb, ${after}`;
}

export const AUDIT_COLUMNS = sql.raw('customer_id, actor_type, actor_id, action, entity, entity_id, before, after');

/**
 * The insert of audit rows given by a select (`auditSelect(…)` with its from / where), as one part of a statement (a
 * data-modifying `with` clause): a module writes audit rows in its own statements through this, never naming the table.
 */
export function auditInsert(select: SQL): SQL {
  return sql`insert into audit_logs (${AUDIT_COLUMNS}) ${select}`;
}
