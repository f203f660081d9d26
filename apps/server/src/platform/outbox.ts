import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../db/client';
import { outbox_messages } from '../db/schema';
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
  deliver(ctx: {
    message: TOutboxMessage;
    payload: P;
    services: TProviderServices & { providers: import('./providers').ProviderRegistry };
    attempt: number;
  }): Promise<unknown>;
}

/** A kind of outside call made after a commit, declared beside its use case and listed in `src/jobs.ts`. */
export function defineOutboxTopic<P>(
  name: string,
  payload: z.ZodType<P>,
  deliver: TOutboxTopic<P>['deliver'],
): TOutboxTopic<P> {
  return { name, payload, deliver };
}

// biome-ignore lint/suspicious/noExplicitAny: topics of different payloads
export type TAnyOutboxTopic = TOutboxTopic<any>;

const ZDelivery = z.object({ message_id: z.uuid() });

/** Runs of one message: the first and 7 retries, 10 s doubling with jitter (≈ 20–40 min in all). */
export const OUTBOX_RETRY_LIMIT = 7;

/** The job that delivers outbox messages, one run per attempt. */
export function outboxDeliveryJob(topics: readonly TAnyOutboxTopic[]): TJobDefinition<z.infer<typeof ZDelivery>> {
  const byName = new Map(topics.map((t) => [t.name, t]));
  return defineJob(
    'outbox.deliver',
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
          message,
          payload: topic.payload.parse(message.payload),
          services: ctx.services,
          attempt: ctx.attempt,
        });
        await ctx.db
          .update(outbox_messages)
          .set({ state: 'delivered', result: (result ?? null) as object, last_error: null, delivered_at: sql`now()` })
          .where(eq(outbox_messages.id, message.id));
        return result ?? null;
      } catch (err) {
        const final = err instanceof AppError || ctx.attempt > OUTBOX_RETRY_LIMIT;
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
        throw err;
      }
    },
    { retryLimit: OUTBOX_RETRY_LIMIT, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 300, concurrency: 2 },
  );
}

/**
 * Write an outbox message and queue its delivery, in the caller's transaction. `idempotencyKey` makes writing the
 * same message twice a no-op (the existing message is answered). Call `jobs.kick('outbox.deliver')` after commit.
 */
export async function writeOutbox<P>(
  tx: Executor,
  jobs: JobQueue,
  topic: TOutboxTopic<P>,
  payload: P,
  opts: { customerId: string | null; idempotencyKey?: string; startAfter?: Date | number },
): Promise<TOutboxMessage> {
  const data = topic.payload.parse(payload);
  const key = opts.idempotencyKey ?? randomUUID();
  const [message] = await tx
    .insert(outbox_messages)
    .values({ customer_id: opts.customerId, topic: topic.name, payload: data as object, idempotency_key: key })
    .onConflictDoNothing({ target: outbox_messages.idempotency_key })
    .returning();
  if (!message) {
    const [existing] = await tx.select().from(outbox_messages).where(eq(outbox_messages.idempotency_key, key));
    return existing!;
  }
  await jobs.enqueueByName(
    tx,
    'outbox.deliver',
    { message_id: message.id },
    {
      customerId: opts.customerId,
      ...(opts.startAfter !== undefined ? { startAfter: opts.startAfter } : {}),
    },
  );
  return message;
}
