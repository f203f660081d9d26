import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { allOf, type Executor, type Tx } from '../../db/client';
import {
  api_idempotency_keys,
  api_settings,
  integration_attempts,
  order_events,
  outbox_messages,
} from '../../db/schema';

export type TApiSettingRow = typeof api_settings.$inferSelect;
export type TApiSettingInsert = typeof api_settings.$inferInsert;

export async function listSettings(ex: Executor, customerId: string, kind?: string): Promise<TApiSettingRow[]> {
  return ex
    .select()
    .from(api_settings)
    .where(and(eq(api_settings.customer_id, customerId), kind ? eq(api_settings.kind, kind) : undefined))
    .orderBy(asc(api_settings.name));
}

export async function findSetting(ex: Executor, customerId: string, id: string): Promise<TApiSettingRow | undefined> {
  const [row] = await ex
    .select()
    .from(api_settings)
    .where(and(eq(api_settings.id, id), eq(api_settings.customer_id, customerId)));
  return row;
}

export async function lockSetting(tx: Tx, customerId: string, id: string): Promise<TApiSettingRow | undefined> {
  const [row] = await tx
    .select()
    .from(api_settings)
    .where(and(eq(api_settings.id, id), eq(api_settings.customer_id, customerId)))
    .for('update');
  return row;
}

/** A setting by id, whoever's (a delivery checks the seller against its message). */
export async function findSettingById(ex: Executor, id: string): Promise<TApiSettingRow | undefined> {
  const [row] = await ex.select().from(api_settings).where(eq(api_settings.id, id));
  return row;
}

/** The enabled partner settings with order callbacks of these sellers. */
export async function callbackSettingsOf(ex: Executor, customerIds: string[]): Promise<TApiSettingRow[]> {
  if (customerIds.length === 0) return [];
  return ex
    .select()
    .from(api_settings)
    .where(
      and(
        inArray(api_settings.customer_id, customerIds),
        eq(api_settings.kind, 'partner'),
        eq(api_settings.enabled, true),
        eq(api_settings.order_callback_enabled, true),
      ),
    );
}

export type TOrderEventRow = typeof order_events.$inferSelect;

/** Up to `limit` order events not dispatched yet (of one seller, or all), oldest first, locked (skipping locked ones). */
export async function lockUndispatchedEvents(
  tx: Tx,
  customerId: string | null,
  limit: number,
): Promise<TOrderEventRow[]> {
  return tx
    .select()
    .from(order_events)
    .where(and(isNull(order_events.dispatched_at), customerId ? eq(order_events.customer_id, customerId) : undefined))
    .orderBy(asc(order_events.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markEventsDispatched(tx: Tx, ids: Array<TOrderEventRow['id']>): Promise<void> {
  if (ids.length === 0) return;
  await tx.update(order_events).set({ dispatched_at: sql`now()` }).where(inArray(order_events.id, ids));
}

export async function insertSetting(tx: Tx, values: TApiSettingInsert): Promise<TApiSettingRow> {
  const [row] = await tx.insert(api_settings).values(values).returning();
  return row!;
}

export async function updateSetting(
  ex: Executor,
  customerId: string,
  id: string,
  set: Partial<TApiSettingInsert>,
): Promise<TApiSettingRow> {
  const [row] = await ex
    .update(api_settings)
    .set({ ...set, updated_at: new Date() })
    .where(and(eq(api_settings.id, id), eq(api_settings.customer_id, customerId)))
    .returning();
  return row!;
}

export async function deleteSetting(tx: Tx, customerId: string, id: string): Promise<void> {
  await tx
    .update(api_settings)
    .set({ connection_id: null })
    .where(and(eq(api_settings.customer_id, customerId), eq(api_settings.connection_id, id)));
  await tx.delete(api_settings).where(and(eq(api_settings.id, id), eq(api_settings.customer_id, customerId)));
}

/** The enabled partner setting of a key hash (any seller: the key says whose). */
export async function settingByKeyHash(ex: Executor, hash: string): Promise<TApiSettingRow | undefined> {
  const [row] = await ex
    .select()
    .from(api_settings)
    .where(and(eq(api_settings.key_hash, hash), eq(api_settings.enabled, true), eq(api_settings.kind, 'partner')));
  return row;
}

/** Mark a key used (at most once a minute, so a busy key does not write on every call). */
export async function touchKey(ex: Executor, id: string): Promise<void> {
  await ex
    .update(api_settings)
    .set({ last_used_at: sql`now()` })
    .where(
      and(
        eq(api_settings.id, id),
        sql`(${api_settings.last_used_at} is null or ${api_settings.last_used_at} < now() - interval '1 minute')`,
      ),
    );
}

export const CALLBACK_TOPIC = 'partner.callback';

/** A setting's callback messages with their last attempt (status, latency, answer), newest first. */
export async function listDeliveries(
  ex: Executor,
  customerId: string,
  settingId: string,
  filter: { state?: string; limit: number; offset: number },
) {
  const m = outbox_messages;
  const where = and(
    eq(m.customer_id, customerId),
    eq(m.topic, CALLBACK_TOPIC),
    sql`${m.payload}->>'setting_id' = ${settingId}`,
    filter.state ? eq(m.state, filter.state) : undefined,
  );
  const next = sql<string | null>`(select j.start_after from pgboss.job j
      where j.data->>'message_id' = ${m.id}::text and j.state in ('created', 'retry') order by j.created_on desc limit 1)`;
  const [rows, total] = await allOf(ex, [
    () =>
      ex
        .select({ message: m, next })
        .from(m)
        .where(where)
        .orderBy(desc(m.created_at), desc(m.id))
        .limit(filter.limit)
        .offset(filter.offset),
    () => ex.select({ n: count() }).from(m).where(where),
  ]);
  // The last attempt of each message on the page (the attempt log's reference is the message id).
  const ids = rows.map((r) => r.message.id);
  const a = integration_attempts;
  const attempts = ids.length
    ? await ex
        .selectDistinctOn([a.reference], {
          reference: a.reference,
          status: a.status,
          duration_ms: a.duration_ms,
          response: sql<string | null>`left(coalesce(${a.response_body}, ${a.error}), 500)`,
          created_at: a.created_at,
        })
        .from(a)
        .where(inArray(a.reference, ids))
        .orderBy(a.reference, desc(a.id))
    : [];
  const lastOf = new Map(attempts.map((x) => [x.reference, x]));
  return { rows: rows.map((r) => ({ ...r, last: lastOf.get(r.message.id) ?? null })), count: total[0]?.n ?? 0 };
}

export async function findDelivery(ex: Executor, customerId: string, settingId: string, id: string) {
  const [row] = await ex
    .select()
    .from(outbox_messages)
    .where(
      and(
        eq(outbox_messages.id, id),
        eq(outbox_messages.customer_id, customerId),
        eq(outbox_messages.topic, CALLBACK_TOPIC),
        sql`${outbox_messages.payload}->>'setting_id' = ${settingId}`,
      ),
    );
  return row;
}

export async function findIdempotencyKey(ex: Executor, settingId: string, key: string) {
  const [row] = await ex
    .select()
    .from(api_idempotency_keys)
    .where(and(eq(api_idempotency_keys.setting_id, settingId), eq(api_idempotency_keys.key, key)));
  return row;
}

/** Claim a key for a request (in the writing transaction); false when another request holds or held it. */
export async function claimIdempotencyKey(tx: Tx, values: typeof api_idempotency_keys.$inferInsert): Promise<boolean> {
  const rows = await tx.insert(api_idempotency_keys).values(values).onConflictDoNothing().returning();
  return rows.length > 0;
}
