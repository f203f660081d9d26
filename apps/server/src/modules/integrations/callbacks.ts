import { CALLBACK_EVENTS, type TCallbackEvent } from '@wms/contracts';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { withTx } from '../../db/tx';
import { decryptSecret, encryptSecret } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { defineJob, type JobQueue } from '../../platform/jobs';
import { defineOutboxTopic, writeOutbox } from '../../platform/outbox';
import type { TProviderServices } from '../../platform/providers';
import {
  CALLBACK_TOPIC,
  callbackSettingsOf,
  findSetting,
  findSettingById,
  lockUndispatchedEvents,
  markEventsDispatched,
  type TApiSettingRow,
  updateSetting,
} from './api-settings.repository';

/**
 * Order callbacks to a seller's own system. A database trigger records every creation, status change and
 * consignment number of the orders of a seller with callbacks enabled (`order_events`) and notifies; the dispatcher
 * job (woken by the notification; at start a catch-up for every customer) turns the events into one outbox message per enabled setting,
 * ordered per order and setting; the outbox delivers each with the setting's headers (or its connection's bearer
 * token) and our signature, retrying with back-off (10 runs over about a day).
 */

export const ZCallbackEvent = z.object({
  id: z.string(),
  type: z.string(),
  created_at: z.string(),
  data: z.record(z.string(), z.unknown()),
});
const ZCallbackPayload = z.object({ setting_id: z.uuid(), event: ZCallbackEvent });
export type TCallbackPayload = z.infer<typeof ZCallbackPayload>;

/**
 * Runs of one callback: the first and 9 retries, 100 s doubling with jitter: ≈ 14–28 h from first to last. Eight
 * deliveries at once per process: a partner's slow answer (tens of ms) should not queue every seller's callbacks.
 */
export const CALLBACK_RETRY = { limit: 9, delaySeconds: 100, concurrency: 8 };

/** The bearer token of a connection setting: the stored one while valid, else a fresh one from its token URL. */
export async function connectionToken(
  db: Db,
  services: TProviderServices,
  connection: TApiSettingRow,
  opts: { force?: boolean } = {},
): Promise<string | null> {
  const key = services.config.encryptionKey;
  const stored = connection.access_token_enc ? decryptSecret(key, connection.access_token_enc) : null;
  const fresh = !connection.token_expires_at || connection.token_expires_at.getTime() > Date.now() + 60_000;
  if (stored && fresh && !opts.force) return stored;
  if (!connection.token_url) return stored;
  const refresh = connection.refresh_token_enc ? decryptSecret(key, connection.refresh_token_enc) : null;
  const password = connection.password_enc ? decryptSecret(key, connection.password_enc) : null;
  const form = new URLSearchParams(
    refresh
      ? { grant_type: 'refresh_token', refresh_token: refresh }
      : { grant_type: 'password', username: connection.user_name ?? '', password: password ?? '' },
  );
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  // RFC 6749 §2.3.1: the user name and password authenticate the client on a refresh.
  if (refresh && connection.user_name)
    headers.authorization = `Basic ${Buffer.from(`${connection.user_name}:${password ?? ''}`).toString('base64')}`;
  const res = await services.http.send(
    {
      method: 'POST',
      url: connection.token_url,
      userUrl: true,
      idempotent: false,
      timeoutMs: 15_000,
      headers,
      body: form.toString(),
      secrets: [refresh, password].filter((s): s is string => !!s),
    },
    { customerId: connection.customer_id, provider: 'connection', operation: 'token', reference: connection.id },
  );
  let answer: { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown } = {};
  try {
    answer = JSON.parse(res.body);
  } catch {}
  if (res.status < 200 || res.status >= 300 || typeof answer.access_token !== 'string')
    throw new AppError('PROVIDER_REFUSED', { status: res.status, operation: 'token' });
  const access = answer.access_token;
  const nextRefresh = typeof answer.refresh_token === 'string' ? answer.refresh_token : refresh;
  const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : null;
  await updateSetting(db, connection.customer_id, connection.id, {
    access_token_enc: encryptSecret(key, access),
    refresh_token_enc: nextRefresh ? encryptSecret(key, nextRefresh) : null,
    token_expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    secret_hints: {
      ...connection.secret_hints,
      access_token: access.slice(-4),
      ...(nextRefresh ? { refresh_token: nextRefresh.slice(-4) } : {}),
    },
  });
  return access;
}

/** The headers a setting's callbacks carry: the partner's own, and its connection's bearer token. */
export async function callbackHeaders(
  db: Db,
  services: TProviderServices,
  setting: TApiSettingRow,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = setting.http_headers_enc
    ? JSON.parse(decryptSecret(services.config.encryptionKey, setting.http_headers_enc))
    : {};
  if (setting.connection_id) {
    const connection = await findSetting(db, setting.customer_id, setting.connection_id);
    const token = connection ? await connectionToken(db, services, connection) : null;
    if (token) headers.authorization = `Bearer ${token}`;
  }
  return headers;
}

/** One event to one setting's callback URL (the setting is read at delivery: its current URL, headers, secret). */
export const partnerCallback = defineOutboxTopic(
  CALLBACK_TOPIC,
  ZCallbackPayload,
  async ({ db, message, payload, services }) => {
    const setting = await findSettingById(db, payload.setting_id);
    if (!setting || setting.customer_id !== message.customer_id) return { skipped: 'setting deleted' };
    if (!setting.callback_url || !setting.signing_secret_enc) return { skipped: 'no callback URL' };
    const provider = services.providers.resolve('webhook', 'webhook');
    return provider.deliver(
      {
        url: setting.callback_url,
        headers: await callbackHeaders(db, services, setting),
        secret: decryptSecret(services.config.encryptionKey, setting.signing_secret_enc),
      },
      {
        id: message.id,
        eventId: payload.event.id,
        type: payload.event.type,
        createdAt: payload.event.created_at,
        data: payload.event.data,
      },
      { customerId: message.customer_id, reference: message.id },
    );
  },
  { retry: CALLBACK_RETRY },
);

/** Queue one callback message for a setting, after the earlier ones of the same order. */
export function queueCallback(
  tx: Tx,
  jobs: JobQueue,
  setting: Pick<TApiSettingRow, 'id' | 'customer_id'>,
  event: z.infer<typeof ZCallbackEvent>,
  opts: { orderId?: string; idempotencyKey?: string } = {},
) {
  return writeOutbox(
    tx,
    jobs,
    partnerCallback,
    { setting_id: setting.id, event },
    {
      customerId: setting.customer_id,
      ...(opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {}),
      orderingKey: `cb:${setting.id}:${opts.orderId ?? event.id}`,
    },
  );
}

const DISPATCH_BATCH = 1000;

/**
 * Turn recorded order events into callback messages: for the customer of the notification (or every customer: the
 * catch-up when a process starts listening), oldest first, in batches; events are taken with SKIP LOCKED so two dispatchers never send one
 * twice. Events older than a setting's key (or with a type it did not choose) are not sent to it.
 */
export const dispatchCallbacks = defineJob(
  'callbacks.dispatch',
  z.object({ customer_id: z.uuid().nullable() }),
  async ({ db, payload, queue }) => {
    let dispatched = 0;
    let messages = 0;
    for (;;) {
      const done = await withTx(db, async (tx) => {
        const events = await lockUndispatchedEvents(tx, payload.customer_id, DISPATCH_BATCH);
        if (events.length === 0) return 0;
        const customers = [...new Set(events.map((e) => e.customer_id))];
        const settings = await callbackSettingsOf(tx, customers);
        for (const e of events) {
          for (const s of settings) {
            if (s.customer_id !== e.customer_id || !s.callback_url) continue;
            const chosen = s.callback_events.length ? s.callback_events : [...CALLBACK_EVENTS];
            if (!chosen.includes(e.type as TCallbackEvent)) continue;
            if (s.key_issued_at && e.created_at < s.key_issued_at) continue;
            await queueCallback(
              tx,
              queue,
              s,
              {
                id: `evt_${e.id}`,
                type: e.type,
                created_at: e.created_at.toISOString(),
                data: {
                  order_id: e.order_id,
                  order_number: e.order_number,
                  platform_order_number: e.platform_order_number,
                  status: e.status,
                  previous_status: e.previous_status,
                  consignment_number: e.consignment_number,
                },
              },
              { orderId: e.order_id, idempotencyKey: `cb:${s.id}:evt_${e.id}` },
            );
            messages++;
          }
        }
        await markEventsDispatched(
          tx,
          events.map((e) => e.id),
        );
        return events.length;
      });
      dispatched += done;
      if (done < DISPATCH_BATCH) break;
    }
    if (messages) queue.kick();
    return { events: dispatched, messages };
  },
  {
    retryLimit: 5,
    retryDelaySeconds: 5,
    concurrency: 1,
    wakeOn: {
      channel: 'wms_order_events',
      payload: (text) => ({ customer_id: z.uuid().safeParse(text).success ? text : null }),
    },
  },
);
