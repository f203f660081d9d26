import type { z } from 'zod';
import type { Executor } from '../db/client';
import type { JobQueue } from './jobs';
import { defineOutboxTopic, type TAnyOutboxTopic, type TOutboxTopic, writeOutbox } from './outbox';

/**
 * Domain events between contexts, on the transactional outbox. A module declares what happened in it
 * (`defineEvent(name, ZPayload)`, beside its use cases, exported from its index.ts) and publishes it in the
 * transaction of the change (`publishEvent`): an outbox message written with the change, so a rolled-back change
 * tells nobody and a committed one is always told. Other modules react through subscribers, all listed in one place
 * (`src/events.ts`), never by the publisher calling them: after the commit the outbox's delivery job (`outbox.deliver`)
 * runs every subscriber of the event, in list order, and retries the message with back-off when one throws.
 *
 * Delivery is at least once: a retry runs the event's subscribers again, so a subscriber must be idempotent (queue a
 * singleton job, upsert, check before acting). A subscriber that needs a transaction opens its own.
 */

export interface TEvent<P> {
  name: string;
  payload: z.ZodType<P>;
}

/** What a module tells others happened in it: a name (`<module>.<what-happened>`) and its payload's schema. */
export function defineEvent<P>(name: string, payload: z.ZodType<P>): TEvent<P> {
  if (!/^[a-z][a-z0-9-]*\.[a-z0-9.-]+$/.test(name)) throw new Error(`event name ${name}: <module>.<what-happened>`);
  return { name, payload };
}

// biome-ignore lint/suspicious/noExplicitAny: events of different payloads
export type TAnyEvent = TEvent<any>;

export interface TSubscriberContext<P> {
  /** The database, outside any transaction. */
  db: Parameters<TOutboxTopic['deliver']>[0]['db'];
  payload: P;
  /** The seller the event belongs to (null for an operator-wide event). */
  customerId: string | null;
  queue: JobQueue;
  services: Parameters<TOutboxTopic['deliver']>[0]['services'];
}

export interface TSubscriber<P> {
  event: TEvent<P>;
  /** Who reacts, for logs and the delivery's recorded result: `<module>.<reaction>`. */
  name: string;
  handle(ctx: TSubscriberContext<P>): Promise<unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: subscribers of different payloads
export type TAnySubscriber = TSubscriber<any>;

/** A reaction of one module to another's event; listed in `src/events.ts`. */
export function subscribe<P>(
  event: TEvent<P>,
  name: string,
  handle: (ctx: TSubscriberContext<P>) => Promise<unknown>,
): TSubscriber<P> {
  return { event, name, handle };
}

/** The outbox topic an event travels on. */
export const eventTopicName = (event: Pick<TAnyEvent, 'name'>) => `event.${event.name}`;

/**
 * Publish an event in the caller's transaction (its outbox message and delivery job commit with the change). Call
 * `jobs.kick('outbox.deliver')` after the commit for an immediate delivery.
 */
export async function publishEvent<P>(
  tx: Executor,
  jobs: JobQueue,
  event: TEvent<P>,
  payload: P,
  opts: { customerId: string | null; idempotencyKey?: string },
): Promise<void> {
  await writeOutbox(tx, jobs, { name: eventTopicName(event), payload: event.payload }, payload, opts);
}

/**
 * The outbox topics of the events: one per event (an event without subscribers is delivered to nobody), whose
 * delivery runs the event's subscribers in list order and answers what each returned.
 */
export function eventTopics(events: readonly TAnyEvent[], subscribers: readonly TAnySubscriber[]): TAnyOutboxTopic[] {
  const names = new Set<string>();
  for (const e of events) {
    if (names.has(e.name)) throw new Error(`event ${e.name} listed twice`);
    names.add(e.name);
  }
  for (const s of subscribers)
    if (!names.has(s.event.name)) throw new Error(`subscriber ${s.name}: event ${s.event.name} is not listed`);
  return events.map((event) =>
    defineOutboxTopic(eventTopicName(event), event.payload, async ({ db, message, payload, services, queue }) => {
      const results: Record<string, unknown> = {};
      for (const s of subscribers.filter((x) => x.event.name === event.name))
        results[s.name] = (await s.handle({ db, payload, customerId: message.customer_id, queue, services })) ?? null;
      return results;
    }),
  );
}
