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

/** Rows per statement of `writeAudits` (8 bind parameters each: far below PostgreSQL's 65,535). */
const AUDIT_BATCH = 1000;

/** Write many audit rows of one actor in the caller's transaction, a multi-row statement per 1,000. */
export async function writeAudits(tx: Executor, actor: TActor, entries: TAuditEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += AUDIT_BATCH)
    await tx.insert(audit_logs).values(entries.slice(i, i + AUDIT_BATCH).map((e) => auditRow(actor, e)));
}
