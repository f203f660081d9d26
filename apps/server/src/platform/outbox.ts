import { randomUUID } from 'node:crypto';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Executor } from '../db/client';
import { outbox_messages } from '../db/schema';
import { withTx } from '../db/tx';
import { AppError } from './errors';
import { defineJob, type JobQueue, type TJobContext, type TJobDefinition } from './jobs';
import type { TProviderServices } from './providers';

/**
 * Transactional outbox: "write, then call". A use case that must tell an outside system writes its change and an
 * outbox message in ONE transaction (`writeOutbox`); the message's delivery job is queued in that same transaction,
 * so the call happens exactly when the change committed, never for a rolled-back change. The job calls the topic's
 * `deliver` (through a provider adapter), records the answer on the message and retries with back-off; a refusal
 * (AppError) or spent retries leave the message `failed` with its last error, for a screen to show and a person to
 * act on. The message id is the idempotency key sent to the other side where it supports one, so a retry after a
 * lost answer is not a second charge or a second callback.
 */

export type TOutboxMessage = typeof outbox_messages.$inferSelect;

export interface TOutboxTopic<P = unknown> {
  name: string;
  payload: z.ZodType<P>;
  /**
   * The topic's own delivery job: its retry policy (default OUTBOX_RETRY_LIMIT retries from 10 s) and how many
   * deliveries run at once per process (default 2).
   */
  retry?: { limit: number; delaySeconds: number; concurrency?: number };
  deliver(ctx: {
    /** The database (outside any transaction: a call is not made while holding locks). */
    db: Db;
    message: TOutboxMessage;
    payload: P;
    services: TProviderServices & { providers: import('./providers').ProviderRegistry };
    attempt: number;
    /** The job queue: for a delivery that queues follow-up work (an event's subscriber). */
    queue: JobQueue;
  }): Promise<unknown>;
}

/** A kind of outside call made after a commit, declared beside its use case and listed in `src/jobs.ts`. */
export function defineOutboxTopic<P>(
  name: string,
  payload: z.ZodType<P>,
  deliver: TOutboxTopic<P>['deliver'],
  opts: { retry?: TOutboxTopic<P>['retry'] } = {},
): TOutboxTopic<P> {
  return { name, payload, deliver, ...opts };
}

/** The delivery job of a topic: the shared `outbox.deliver`, or `outbox.deliver.<topic>` for a topic's own policy. */
export function deliveryJobName(topic: Pick<TOutboxTopic, 'name' | 'retry'>): string {
  return topic.retry ? `outbox.deliver.${topic.name}` : 'outbox.deliver';
}

// biome-ignore lint/suspicious/noExplicitAny: topics of different payloads
export type TAnyOutboxTopic = TOutboxTopic<any>;

const ZDelivery = z.object({ message_id: z.uuid() });

/** Runs of one message: the first and 7 retries, 10 s doubling with jitter (≈ 20–40 min in all). */
export const OUTBOX_RETRY_LIMIT = 7;

/**
 * After a message of an ordering key is done (delivered or finally failed), queue the key's next pending message —
 * under the key's advisory lock, so a message written at the same moment either sees this one done (and queues
 * itself) or is seen here.
 */
async function queueNextInOrder(
  ctx: TJobContext<unknown>,
  message: TOutboxMessage,
  byName: Map<string, TAnyOutboxTopic>,
) {
  if (!message.ordering_key) return;
  await withTx(ctx.db, async (tx) => {
    await lockOrderingKey(tx, message.ordering_key!);
    const [next] = await tx
      .select()
      .from(outbox_messages)
      .where(and(eq(outbox_messages.ordering_key, message.ordering_key!), eq(outbox_messages.state, 'pending')))
      .orderBy(asc(outbox_messages.created_at), asc(outbox_messages.id))
      .limit(1);
    if (!next || next.id === message.id) return;
    const topic = byName.get(next.topic);
    if (!topic) return;
    await ctx.queue.enqueueByName(
      tx,
      deliveryJobName(topic),
      { message_id: next.id },
      { customerId: next.customer_id },
    );
  });
  ctx.queue.kick();
}

/** The jobs that deliver outbox messages, one run per attempt: one per retry policy. */
export function outboxDeliveryJobs(
  topics: readonly TAnyOutboxTopic[],
): Array<TJobDefinition<z.infer<typeof ZDelivery>>> {
  const byName = new Map(topics.map((t) => [t.name, t]));
  const policies = new Map<string, { limit: number; delaySeconds: number; concurrency?: number }>([
    ['outbox.deliver', { limit: OUTBOX_RETRY_LIMIT, delaySeconds: 10 }],
  ]);
  for (const t of topics) if (t.retry) policies.set(deliveryJobName(t), t.retry);
  return [...policies].map(([name, policy]) =>
    defineJob(
      name,
      ZDelivery,
      async (ctx: TJobContext<z.infer<typeof ZDelivery>>) => {
        const [message] = await ctx.db
          .select()
          .from(outbox_messages)
          .where(eq(outbox_messages.id, ctx.payload.message_id));
        if (!message) return { skipped: 'missing' };
        if (message.state !== 'pending') return { skipped: message.state };
        const topic = byName.get(message.topic);
        if (!topic) throw new AppError('NOT_FOUND', { topic: message.topic });
        await ctx.db
          .update(outbox_messages)
          .set({ attempts: sql`${outbox_messages.attempts} + 1`, updated_at: sql`now()` })
          .where(eq(outbox_messages.id, message.id));
        try {
          const result = await topic.deliver({
            db: ctx.db,
            message,
            payload: topic.payload.parse(message.payload),
            services: ctx.services,
            attempt: ctx.attempt,
            queue: ctx.queue,
          });
          await ctx.db
            .update(outbox_messages)
            .set({ state: 'delivered', result: (result ?? null) as object, last_error: null, delivered_at: sql`now()` })
            .where(eq(outbox_messages.id, message.id));
          await queueNextInOrder(ctx, message, byName);
          return result ?? null;
        } catch (err) {
          const final = err instanceof AppError || ctx.attempt > policy.limit;
          const text =
            err instanceof AppError
              ? `${err.code} ${JSON.stringify(err.params)}`
              : err instanceof Error
                ? err.message
                : String(err);
          await ctx.db
            .update(outbox_messages)
            .set({ last_error: text.slice(0, 1000), ...(final ? { state: 'failed' } : {}), updated_at: sql`now()` })
            .where(eq(outbox_messages.id, message.id));
          if (final) await queueNextInOrder(ctx, message, byName);
          throw err;
        }
      },
      {
        retryLimit: policy.limit,
        retryDelaySeconds: policy.delaySeconds,
        retryBackoff: true,
        expireInSeconds: 300,
        concurrency: policy.concurrency ?? 2,
      },
    ),
  );
}

/** Messages of one ordering key are written and handed on one at a time (transaction-scoped advisory lock). */
async function lockOrderingKey(tx: Executor, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`outbox:${key}`}))`);
}

/**
 * Write an outbox message and queue its delivery, in the caller's transaction. `idempotencyKey` makes writing the
 * same message twice a no-op (the existing message is answered). Call `jobs.kick()` after commit.
 */
export async function writeOutbox<P>(
  tx: Executor,
  jobs: JobQueue,
  topic: Pick<TOutboxTopic<P>, 'name' | 'payload' | 'retry'>,
  payload: P,
  opts: {
    customerId: string | null;
    idempotencyKey?: string;
    startAfter?: Date | number;
    /** Deliver after every earlier pending message of this key (e.g. one order's callbacks to one URL). */
    orderingKey?: string;
  },
): Promise<TOutboxMessage> {
  const data = topic.payload.parse(payload);
  const key = opts.idempotencyKey ?? randomUUID();
  if (opts.orderingKey) await lockOrderingKey(tx, opts.orderingKey);
  const [message] = await tx
    .insert(outbox_messages)
    .values({
      customer_id: opts.customerId,
      topic: topic.name,
      payload: data as object,
      idempotency_key: key,
      ordering_key: opts.orderingKey ?? null,
      // The write's own moment (not the transaction's start): messages written in one transaction keep their order.
      created_at: sql`clock_timestamp()`,
    })
    .onConflictDoNothing({ target: outbox_messages.idempotency_key })
    .returning();
  if (!message) {
    const [existing] = await tx.select().from(outbox_messages).where(eq(outbox_messages.idempotency_key, key));
    return existing!;
  }
  if (opts.orderingKey) {
    // Only the oldest pending message of a key has a delivery job; finishing it queues the next.
    const [earlier] = await tx
      .select({ id: outbox_messages.id })
      .from(outbox_messages)
      .where(
        and(
          eq(outbox_messages.ordering_key, opts.orderingKey),
          eq(outbox_messages.state, 'pending'),
          ne(outbox_messages.id, message.id),
        ),
      )
      .limit(1);
    if (earlier) return message;
  }
  await jobs.enqueueByName(
    tx,
    deliveryJobName(topic),
    { message_id: message.id },
    {
      customerId: opts.customerId,
      ...(opts.startAfter !== undefined ? { startAfter: opts.startAfter } : {}),
    },
  );
  return message;
}
