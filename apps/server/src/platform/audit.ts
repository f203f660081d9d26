import type { Executor } from '../db/client';
import { audit_logs } from '../db/schema';
import type { TActor } from './auth';

/** Write one audit row in the caller's transaction. Secrets must never be passed in before/after. */
export async function writeAudit(
  tx: Executor,
  actor: TActor,
  entry: {
    action: string;
    entity: string;
    entityId?: string | null;
    before?: unknown;
    after?: unknown;
    customerId?: string | null;
  },
): Promise<void> {
  await tx.insert(audit_logs).values({
    customer_id: entry.customerId ?? actor.customerId ?? null,
    actor_type: actor.kind,
    actor_id: actor.id,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
