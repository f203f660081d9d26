/**
 * Use cases of a partner setting's order callbacks: the list of its deliveries, a test event, and resending a
 * delivery (each through the outbox).
 */
import { randomBytes } from 'node:crypto';
import type { TCallbackDelivery, ZCallbackDeliveryQuery } from '@wms/contracts';
import type { z } from 'zod';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError, notFound } from '../../platform/errors';
import * as repo from './api-settings.repository';
import { requireSetting, type TDeps } from './api-settings.service';
import { queueCallback, type ZCallbackEvent } from './callbacks';

function deliveryView(r: Awaited<ReturnType<typeof repo.listDeliveries>>['rows'][number]): TCallbackDelivery {
  const payload = r.message.payload as { event: z.infer<typeof ZCallbackEvent> };
  const data = payload.event.data as { order_number?: string };
  const iso = (v: string | Date | null | undefined) => (v ? new Date(v).toISOString() : null);
  return {
    id: r.message.id,
    event_id: payload.event.id,
    event_type: payload.event.type,
    order_number: data.order_number ?? null,
    state: r.message.state as TCallbackDelivery['state'],
    attempts: r.message.attempts,
    last_error: r.message.last_error,
    last_status: r.last?.status ?? null,
    last_duration_ms: r.last?.duration_ms ?? null,
    last_response: r.last?.response ?? null,
    last_attempt_at: iso(r.last?.created_at),
    next_attempt_at: r.message.state === 'pending' ? iso(r.next) : null,
    created_at: r.message.created_at.toISOString(),
    delivered_at: iso(r.message.delivered_at),
  };
}

export async function listDeliveries(
  deps: TDeps,
  actor: TActor,
  id: string,
  q: z.infer<typeof ZCallbackDeliveryQuery>,
): Promise<{ count: number; results: TCallbackDelivery[] }> {
  const customerId = tenantOf(actor);
  await requireSetting(deps, customerId, id);
  const { rows, count } = await repo.listDeliveries(deps.database.db, customerId, id, {
    state: q.state,
    limit: q.page_size,
    offset: (q.page - 1) * q.page_size,
  });
  return { count, results: rows.map(deliveryView) };
}

async function deliveryById(deps: TDeps, customerId: string, settingId: string, id: string) {
  const { rows } = await repo.listDeliveries(deps.database.db, customerId, settingId, { limit: 100, offset: 0 });
  const row = rows.find((r) => r.message.id === id);
  if (!row) throw notFound();
  return deliveryView(row);
}

function requireCallbackUrl(setting: repo.TApiSettingRow) {
  if (setting.kind !== 'partner') throw new AppError('API_SETTING_KIND', { kind: setting.kind });
  if (!setting.callback_url) throw new AppError('REQUIRED_FIELD', { field: 'callback_url' });
  if (!setting.signing_secret_enc)
    throw new AppError('INVALID_STATUS_TRANSITION', { from: 'disabled', to: 'callback' });
}

/** A `ping` event to the setting's callback URL, delivered like any other (signed, retried, logged). */
export async function sendTestEvent(deps: TDeps, actor: TActor, id: string): Promise<TCallbackDelivery> {
  const customerId = tenantOf(actor);
  const setting = await requireSetting(deps, customerId, id);
  requireCallbackUrl(setting);
  const message = await withTx(deps.database.db, async (tx) =>
    queueCallback(tx, deps.jobs, setting, {
      id: `evt_test_${randomBytes(8).toString('hex')}`,
      type: 'ping',
      created_at: new Date().toISOString(),
      data: { message: 'test event from WMS' },
    }),
  );
  deps.jobs.kick();
  return deliveryById(deps, customerId, id, message.id);
}

/** Send an event again: a new delivery of the same event, queued after the order's earlier deliveries. */
export async function resendDelivery(
  deps: TDeps,
  actor: TActor,
  id: string,
  deliveryId: string,
): Promise<TCallbackDelivery> {
  const customerId = tenantOf(actor);
  const setting = await requireSetting(deps, customerId, id);
  requireCallbackUrl(setting);
  const original = await repo.findDelivery(deps.database.db, customerId, id, deliveryId);
  if (!original) throw notFound();
  const payload = original.payload as { event: z.infer<typeof ZCallbackEvent> };
  const orderId = (payload.event.data as { order_id?: string }).order_id;
  const message = await withTx(deps.database.db, async (tx) => {
    const m = await queueCallback(tx, deps.jobs, setting, payload.event, orderId ? { orderId } : {});
    await writeAudit(tx, actor, {
      action: 'resend',
      entity: 'api_setting',
      entityId: id,
      after: { delivery: deliveryId, new_delivery: m.id, event: payload.event.id },
    });
    return m;
  });
  deps.jobs.kick();
  return deliveryById(deps, customerId, id, message.id);
}
